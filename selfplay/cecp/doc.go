// Package cecp is chuzero as an engine for XBoard and other CECP (Chess
// Engine Communication Protocol, "WinBoard protocol 2") front ends, and
// as a plain terminal opponent for a person.
//
//	e, _ := cecp.New(engine.Config{Name: "chuzero", Eval: evaluator})
//	err := e.Serve(ctx, os.Stdin, os.Stdout)
//
// Serve speaks the protocol of engine-intf.html for the variants chu, sho
// and heian (the last two announced to the GUI with "setup" and "piece"
// lines, as HaChu does for its own engine-defined variants). Moves are in
// the machine notation of chu-shogi.md §11.2: "f4f5", "e8e9+", a Lion
// double move "f6g7,g7h8" on one line, a pass "@@@@". The rules core is
// the judge of every move the GUI sends: a move it rejects gets
// "Illegal move: <move>" and changes nothing. A malformed command gets
// "Error (...): <command>", never a crash.
//
// Search is the MCTS of package mcts with the evaluator given (a network,
// or uniform priors for pure rules-scored search). It is bounded by the
// GUI's clock ("level", "st", "time"/"otim"), by "sd" (read as a cap of
// 100 simulations per ply of depth, as tree search has no depth) and by
// the configured budget; "memory N" caps the search tree, and "?" makes
// it move at once. The search is package engine's, shared with package
// usi: with "post" it sends thinking output ("depth score time nodes pv",
// a line per MultiPV line) each second; "hard" ponders on the expected
// reply and keeps the tree on a hit; "analyze" searches the current
// position until "exit", again after each move or takeback, and "."
// answers with a stat01 line.
//
// Human plays in a terminal: a board diagram, moves typed in Hodges or
// machine notation, and the engine's replies.
package cecp
