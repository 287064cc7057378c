// Helpers shared by the shogiops scripts (lishogi's rules library as a
// test oracle only: GPL, never shipped or linked): loading the library
// from the folder npm installed it into, a seeded generator, every legal
// move of a position as USI paths, their canonical form, a random move.
import { pathToFileURL } from 'node:url';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';

// The Chu start position as lishogi writes it.
export const chuStart = 'lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1';

// load imports shogiops from dir/node_modules.
export async function load(dir) {
  const dist = f => pathToFileURL(path.join(dir, 'node_modules/shogiops/dist', f)).href;
  const { parseSfen, makeSfen } = await import(dist('sfen.js'));
  const { secondLionStepDests } = await import(dist('variant/chushogi.js'));
  const { pieceCanPromote, pieceForcePromote } = await import(dist('variant/util.js'));
  const { makeUsi, parseUsi } = await import(dist('util.js'));
  const so = { parseSfen, makeSfen, secondLionStepDests, pieceCanPromote, pieceForcePromote, makeUsi, parseUsi };

  // moves lists every legal move of pos as USI paths, as shogiops's perft
  // enumerates them.
  so.moves = pos => {
    const out = [];
    for (const [from, dests] of pos.allMoveDests()) {
      const piece = pos.board.get(from);
      for (const to of dests) {
        if (pieceCanPromote(pos.rules)(piece, from, to, pos.board.get(to))) {
          out.push(makeUsi({ from, to, promotion: true }));
          if (!pieceForcePromote(pos.rules)(piece, to)) out.push(makeUsi({ from, to }));
        } else out.push(makeUsi({ from, to }));
        if (['lion', 'lionpromoted', 'eagle', 'falcon'].includes(piece.role)) {
          for (const second of secondLionStepDests(pos, from, to)) out.push(makeUsi({ from, midStep: to, to: second }));
        }
      }
    }
    return out;
  };

  // canonical maps a USI move to its effect in pos: a path through an
  // empty square is the direct move, or the pass when it returns to its
  // origin (chu-shogi.md §4 rule 1).
  so.canonical = (pos, usi) => {
    const m = parseUsi(usi);
    if (!m || m.midStep === undefined) return usi;
    if (pos.board.get(m.midStep)) return usi; // a real capture on the first leg
    if (m.to === m.from) return 'pass';
    return makeUsi({ from: m.from, to: m.to });
  };

  // legal reports whether the USI move usi is legal in pos.
  so.legal = (pos, usi) => {
    const m = parseUsi(usi);
    if (!m) return false;
    const c = so.canonical(pos, usi);
    return so.moves(pos).some(u => so.canonical(pos, u) === c);
  };

  // isCapture reports a move that takes something (on either leg).
  so.isCapture = (pos, usi) => {
    const m = parseUsi(usi);
    return (pos.board.get(m.to) && m.to !== m.from) || (m.midStep !== undefined && pos.board.get(m.midStep));
  };

  // randomMove picks a legal move of pos, a capture a third of the time
  // where there is one (to reach Lion fights).
  so.randomMove = (pos, rand) => {
    let choices = so.moves(pos);
    if (rand() < 0.34) {
      const caps = choices.filter(u => so.isCapture(pos, u));
      if (caps.length) choices = caps;
    }
    return choices[Math.floor(rand() * choices.length)];
  };
  return so;
}

// rng is a small seeded generator (mulberry32) so that runs are
// reproducible.
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// lineProcess runs a line-oriented subprocess: send writes a line,
// next() resolves to the next line of its output.
export function lineProcess(cmd, args) {
  const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const queue = [];
  const waiting = [];
  lines.on('line', l => (waiting.length ? waiting.shift()(l) : queue.push(l)));
  lines.on('close', () => {
    while (waiting.length) waiting.shift()(null);
  });
  return {
    child,
    send: l => child.stdin.write(l + '\n'),
    next: () => (queue.length ? Promise.resolve(queue.shift()) : new Promise(r => waiting.push(r))),
  };
}
