// Package usi is chuzero as a USI (Universal Shogi Interface) engine, the
// protocol of lishogi's bots (through the Lishogi-Bot bridge) and of
// shogi GUIs.
//
//	e, _ := usi.New(engine.Config{Name: "chuzero", Eval: evaluator})
//	err := e.Serve(ctx, os.Stdin, os.Stdout)
//
// Commands: usi, isready, setoption, usinewgame, position (startpos or
// sfen, then moves), go (btime, wtime, binc, winc, byoyomi, movetime,
// nodes, depth, infinite, ponder, mate), stop, ponderhit, gameover, quit. Positions are
// lishogi's SFEN and moves its USI notation for each variant, as package
// rules reads and writes them: "7g7f", "8h2b+", a Lion double move
// "5f4e3d", a pass "5f4e5f" (or "pass"). The variant is the option
// USI_Variant: chushogi (lishogi's name), shoshogi or heiandaishogi.
//
// The search is package engine's, shared with package cecp (package
// mcts, tree reuse, the royal-en-prise guard). Every search of a second
// or more reports an info line each second, and each ends with
//
//	info depth D seldepth S nodes N nps X time T score cp C pv M...
//	bestmove M [ponder P]
//
// where depth is the length of the principal variation (the most visited
// line), seldepth the deepest playout, nodes the playouts, and C the root value v in [-1, 1] as
// centipawns: C = 400*atanh(v), clamped to [-3000, 3000]; that is, the
// win probability (1+v)/2 is 1/(1+exp(-C/200)). With the option MultiPV
// N, the lines of the N most visited moves ("info multipv K ..."), each
// valued at its move's mean value. A line that ends the game with its
// value beyond engine.MateValue is "score mate N" (plies; negative when
// losing), and "go mate" answers "checkmate" with such a line, or
// "checkmate timeout". "bestmove resign" answers
// a position with no move to play (the game is over, or the position was
// refused).
//
// Nothing the GUI sends stops the engine: a bad command, option, SFEN or
// move gets "info string error ..." and the engine carries on.
package usi
