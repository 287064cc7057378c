// Cross-check chuzero's Chu Shogi move generator against lishogi's rules
// library shogiops (a test oracle only: GPL, never shipped or linked).
//
// Plays seeded random games with shogiops and, at every ply, compares the
// set of legal moves with chuzero's (`chuzero moves -format usi`, run as a
// line-oriented subprocess), then plays the chosen move on both sides and
// compares the resulting SFEN (board, side, counter-strike square, move
// number).
//
// shogiops lists every Lion path separately and lets an unpromoted Lance
// promote on its last rank; the script therefore runs chuzero with
// LanceLastRankPromotion=On and maps both lists to canonical moves: a path
// through an empty square becomes the direct move, or the pass when it
// returns to its origin (chu-shogi.md §4 rule 1).
//
// Usage: node shogiops-crosscheck.mjs <shogiops dir> <chuzero binary> [games] [seed] [max plies]
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [shogiopsDir, chuzero, gamesArg = '20', seedArg = '1', maxPliesArg = '400'] = process.argv.slice(2);
if (!shogiopsDir || !chuzero) {
  console.error('usage: node shogiops-crosscheck.mjs <shogiops dir> <chuzero binary> [games] [seed] [max plies]');
  process.exit(2);
}
const dist = f => pathToFileURL(path.join(shogiopsDir, 'node_modules/shogiops/dist', f)).href;
const { parseSfen, makeSfen } = await import(dist('sfen.js'));
const { secondLionStepDests } = await import(dist('variant/chushogi.js'));
const { pieceCanPromote, pieceForcePromote } = await import(dist('variant/util.js'));
const { makeUsi, parseUsi } = await import(dist('util.js'));

// A small seeded generator (mulberry32) so that runs are reproducible.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// chuzero as a line-oriented subprocess.
const child = spawn(chuzero, ['moves', '-variant', 'chu', '-format', 'usi', '-rule', 'LanceLastRankPromotion=On'], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const lines = createInterface({ input: child.stdout });
const pending = [];
lines.on('line', l => pending.shift()(l));
const ask = q =>
  new Promise(resolve => {
    pending.push(resolve);
    child.stdin.write(q + '\n');
  });

// Every legal move of shogiops as USI paths, as its perft enumerates them.
function shogiopsMoves(pos) {
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
}

// canonical maps a USI move to its canonical effect in pos.
function canonical(pos, usi) {
  const m = parseUsi(usi);
  if (!m || m.midStep === undefined) return usi;
  if (pos.board.get(m.midStep)) return usi; // a real capture on the first leg
  if (m.to === m.from) return 'pass';
  return makeUsi({ from: m.from, to: m.to });
}

const games = Number(gamesArg);
const maxPlies = Number(maxPliesArg);
const rand = rng(Number(seedArg));
let plies = 0;
let failures = 0;
const stats = { lionDoubleMoves: 0, passes: 0, counterStrike: 0, promotions: 0 };
const fail = (msg) => {
  failures++;
  console.error('MISMATCH ' + msg);
};
for (let g = 0; g < games && failures < 5; g++) {
  let pos = parseSfen('chushogi', 'lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1').unwrap();
  for (let ply = 0; ply < maxPlies && !pos.isEnd() && failures < 5; ply++) {
    const sfen = makeSfen(pos);
    const theirs = shogiopsMoves(pos);
    const ours = (await ask(sfen)).split(' ').filter(Boolean);
    if (ours[0] === 'error:') {
      fail(`${sfen}: chuzero: ${ours.join(' ')}`);
      break;
    }
    const a = new Set(theirs.map(u => canonical(pos, u)));
    const ourCanon = ours.map(u => canonical(pos, u));
    const b = new Set(ourCanon);
    if (b.size !== ours.length) fail(`${sfen}: chuzero lists a move twice`);
    const missing = [...a].filter(x => !b.has(x));
    const extra = [...b].filter(x => !a.has(x));
    if (missing.length || extra.length) {
      fail(`${sfen}\n  only shogiops: ${missing.join(' ')}\n  only chuzero: ${extra.join(' ')}`);
      break;
    }
    if (sfen.split(' ')[2] !== '-') stats.counterStrike++;
    // pick a move: captures a third of the time, to reach Lion fights
    let choices = theirs;
    if (rand() < 0.34) {
      const caps = theirs.filter(u => {
        const m = parseUsi(u);
        return pos.board.get(m.to) && m.to !== m.from || (m.midStep !== undefined && pos.board.get(m.midStep));
      });
      if (caps.length) choices = caps;
    }
    const usi = choices[Math.floor(rand() * choices.length)];
    const move = parseUsi(usi);
    const canon = canonical(pos, usi);
    if (canon === 'pass') stats.passes++;
    else if (move.midStep !== undefined && pos.board.get(move.midStep)) stats.lionDoubleMoves++;
    if (move.promotion) stats.promotions++;
    // play it on both sides and compare the resulting positions
    const ourMove = ours[ourCanon.indexOf(canon)];
    pos.play(move);
    plies++;
    const theirSfen = makeSfen(pos);
    const ourSfen = await ask(`${sfen} | ${ourMove}`);
    if (ourSfen !== theirSfen) {
      fail(`after ${usi} in ${sfen}:\n  shogiops: ${theirSfen}\n  chuzero:  ${ourSfen}`);
      break;
    }
  }
}
child.stdin.end();
console.log(`shogiops cross-check: ${games} games, ${plies} plies, ${failures} mismatches; ` +
  `played ${stats.lionDoubleMoves} lion double moves, ${stats.passes} passes, ${stats.promotions} promotions, ` +
  `${stats.counterStrike} positions with a counter-strike square`);
process.exit(failures ? 1 : 0);
