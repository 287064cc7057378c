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
import { load, rng, lineProcess, chuStart } from './shogiops-lib.mjs';

const [shogiopsDir, chuzero, gamesArg = '20', seedArg = '1', maxPliesArg = '400'] = process.argv.slice(2);
if (!shogiopsDir || !chuzero) {
  console.error('usage: node shogiops-crosscheck.mjs <shogiops dir> <chuzero binary> [games] [seed] [max plies]');
  process.exit(2);
}
const so = await load(shogiopsDir);
const { parseSfen, makeSfen, parseUsi } = so;
const shogiopsMoves = so.moves;
const canonical = so.canonical;

// chuzero as a line-oriented subprocess.
const proc = lineProcess(chuzero, ['moves', '-variant', 'chu', '-format', 'usi', '-rule', 'LanceLastRankPromotion=On']);
const child = proc.child;
const ask = async q => {
  proc.send(q);
  return proc.next();
};

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
  let pos = parseSfen('chushogi', chuStart).unwrap();
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
    const usi = so.randomMove(pos, rand);
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
