// Package selfplay generates training games: N games at once, each with
// its own tree search (package mcts) sharing one evaluator (normally the
// network's batcher, so that every game's leaves are evaluated in common
// batches). Every move gets a search; with playout-cap randomization a
// fraction of them are full searches whose policy becomes a training
// target. Finished games are written, a few at a time and atomically, as
// training samples (package encode's format, one chunk per game) under
// Dir/samples and as game records (JSON Lines: start SFEN, moves in machine
// notation, result and reason, per-move root value and visits, the game's
// seed) under Dir/games. Games in flight when a run stops are discarded.
//
//	r, err := selfplay.New(selfplay.DefaultConfig(rules.Sho), batcher, "step-000100")
//	err = r.Run(ctx, 0) // until ctx is done
//
// Resignation: a side whose root value stays below ResignThreshold for
// ResignConsecutive searches resigns; in NoResignFraction of the games
// nobody may resign, and Stats.ResignFalsePositiveRate reports how often a
// resignation there would have been wrong.
package selfplay
