// A round trip with lishogi's own notation: chuzero as a USI engine
// (`chuzero play -protocol usi`) plays Chu games against random moves
// picked by shogiops (lishogi's rules library, a test oracle only). Every
// position is sent as shogiops writes it: `position startpos moves ...`,
// `position sfen <shogiops's start SFEN> moves ...`, or the current
// position as one shogiops SFEN, in turn; every bestmove, ponder move and
// principal variation the engine answers must be legal for shogiops. At a
// game's end the engine must answer `bestmove resign`.
//
// Usage: node shogiops-usi.mjs <shogiops dir> <chuzero binary> [games] [seed] [max plies]
import { load, rng, lineProcess, chuStart } from './shogiops-lib.mjs';

const [dir, chuzero, gamesArg = '4', seedArg = '1', maxPliesArg = '160'] = process.argv.slice(2);
if (!dir || !chuzero) {
  console.error('usage: node shogiops-usi.mjs <shogiops dir> <chuzero binary> [games] [seed] [max plies]');
  process.exit(2);
}
const so = await load(dir);
const engine = lineProcess(chuzero, ['play', '-protocol', 'usi', '-sims', '400', '-rule', 'LanceLastRankPromotion=On']);
const rand = rng(Number(seedArg));
let failures = 0;
const stats = { games: 0, ended: 0, engineMoves: 0, pvMoves: 0, sfens: 0, lionMoves: 0 };
const fail = msg => {
  failures++;
  console.error('FAIL ' + msg);
};

// until reads the engine's lines up to one starting with prefix.
async function until(prefix) {
  const before = [];
  for (;;) {
    const l = await engine.next();
    if (l === null) throw new Error(`the engine closed its output waiting for ${prefix}`);
    if (l.startsWith(prefix)) return [l, before];
    before.push(l);
  }
}

// line checks a sequence of USI moves from pos with shogiops.
function checkLine(pos, moves, what) {
  const p = pos.clone();
  for (const u of moves) {
    if (p.isEnd()) return; // a line may end with the game
    if (!so.legal(p, u)) return fail(`${what}: ${u} is not legal in ${so.makeSfen(p)} (line ${moves.join(' ')})`);
    p.play(so.parseUsi(u));
    stats.pvMoves++;
  }
}

// positionCommand writes pos for the engine, one of three ways in turn.
function positionCommand(ply, moves, pos) {
  switch (ply % 3) {
    case 0:
      return 'position startpos' + (moves.length ? ' moves ' + moves.join(' ') : '');
    case 1:
      return `position sfen ${chuStart}` + (moves.length ? ' moves ' + moves.join(' ') : '');
  }
  stats.sfens++;
  return `position sfen ${so.makeSfen(pos)}`;
}

// engineMove asks the engine for a move in pos and checks it.
async function engineMove(ply, moves, pos) {
  engine.send(positionCommand(ply, moves, pos));
  engine.send('go nodes 300');
  const [best, info] = await until('bestmove ');
  const errors = info.filter(l => l.startsWith('info string error'));
  if (errors.length) fail(`${so.makeSfen(pos)}: ${errors.join('; ')}`);
  const f = best.split(' ');
  if (!so.legal(pos, f[1])) return fail(`bestmove ${f[1]} is not legal in ${so.makeSfen(pos)}`), null;
  for (const l of info.filter(l => l.startsWith('info ') && l.includes(' pv '))) checkLine(pos, l.split(' pv ')[1].split(' '), 'pv');
  if (f[2] === 'ponder') checkLine(pos, [f[1], f[3]], 'ponder');
  if (so.parseUsi(f[1]).midStep !== undefined) stats.lionMoves++;
  stats.engineMoves++;
  return f[1];
}

engine.send('usi');
await until('usiok');
engine.send('setoption name USI_Variant value chushogi');
engine.send('isready');
await until('readyok');
const games = Number(gamesArg);
for (let g = 0; g < games && failures < 5; g++) {
  engine.send('usinewgame');
  const pos = so.parseSfen('chushogi', chuStart).unwrap();
  const moves = [];
  const engineSide = g % 2 ? 'gote' : 'sente';
  for (let ply = 0; ply < Number(maxPliesArg) && !pos.isEnd() && failures < 5; ply++) {
    const usi = pos.turn === engineSide ? await engineMove(ply, moves, pos) : so.randomMove(pos, rand);
    if (!usi) break;
    pos.play(so.parseUsi(usi));
    moves.push(usi);
  }
  if (pos.isEnd()) {
    engine.send(`position startpos moves ${moves.join(' ')}`);
    engine.send('go nodes 24');
    const [best] = await until('bestmove ');
    if (best !== 'bestmove resign') fail(`after the game's end (${moves.length} plies): ${best}`);
    stats.ended++;
  }
  stats.games++;
}
engine.send('quit');
console.log(`shogiops USI round trip: ${stats.games} games (${stats.ended} to their end), ${stats.engineMoves} engine moves (${stats.lionMoves} Lion double moves), ` +
  `${stats.pvMoves} pv moves checked, ${stats.sfens} positions sent as shogiops SFEN; ${failures} failures`);
process.exit(failures ? 1 : 0);
