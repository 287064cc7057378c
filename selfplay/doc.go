// Package selfplay generates training games: N games at once, each with
// its own tree search (package mcts) sharing one evaluator (normally the
// network's batcher, so that every game's leaves are evaluated in common
// batches). Every move gets a search; with playout-cap randomization a
// fraction of them are full searches whose policy becomes a training
// target. Finished games are written, a few at a time and atomically, as
// training samples (package encode's format, one chunk per game) in
// the run's samples/ (Config.Run) and as game records (JSON Lines: start SFEN, moves in machine
// notation, result and reason, per-move root value and visits, the game's
// seed) in its games/. Games in flight when a run stops are discarded.
//
//	r, err := selfplay.New(selfplay.DefaultConfig(rules.Sho), batcher, "step-000100")
//	err = r.Run(ctx, 0) // until ctx is done
//
// Samples: every full-search position is written with its policy target;
// a CheapSampleFraction share of the cheap-search positions (drawn per
// position from the game's generator) is written as value-only rows; the
// records keep every ply. Each written sample gets, once the game is over,
// its outcome and the auxiliary targets of encode.AuxTargets (the next
// ply's full-search policy, material at the end and AuxAheadPlies ahead,
// ownership at the end, short-term values), computed from a per-ply trace
// of root values and material (labels.go).
//
// Ply cap: a game reaching Config.MaxPlies (below the rules' own cap) is
// truncated: its record is a draw by "max plies" with "truncated": true
// and "end_value" (the final search's root value, for Sente); its samples
// are draws marked Truncated whose EndValue is that value for their side.
//
// Resignation: a side whose chosen move's value (mcts.Result.ValueOf)
// stays below the live threshold for ResignConsecutive searches resigns;
// in NoResignFraction of the games nobody may resign. Those games record
// each side's lowest sustained value (Record.ResignLow), and the Runner
// recalibrates the threshold from the last ResignCalibrationGames of them
// (CalibrateResign, Runner.ResignThreshold); Stats.ResignFalsePositiveRate
// reports how often a resignation there would have been wrong.
//
// Words: an "engine" is a program that plays through a protocol (CECP
// or USI): ours, "chuzero play" (packages engine, cecp, usi, protocol), or
// an outside one such as HaChu, which the arena plays as a player
// (arena.CECPClient); a "session" is one engine's conversation with one
// GUI on one stream; a "player" is anything a match seats (a searcher on a
// network, a baseline, an outside engine).
//
// The sub-packages, from the games up to the run:
//
//	transport, transport/natsjs  how batches reach the trainer and networks reach
//	                             self-play: the run directory, NATS JetStream
//	arena                        matches, players and their specs (outside engines
//	                             among them), Elo, SPRT, ratings
//	engine                       what our engine's protocol sessions share: config,
//	                             the search in progress, bounds, pondering, reports
//	cecp, usi                    our engine speaking XBoard's CECP, and USI
//	engine/protocol              serving our engine in the protocol asked for, or
//	                             the one its first command shows
//	runconfig                    the schema of a run's config.json, light enough for
//	                             readers (no network, no NATS)
//	training                     a training run as a library: config, the run's
//	                             decisions (the judge: evaluation and gating; the
//	                             run-wide resignation threshold), Train, Worker,
//	                             Trainer, metrics, the networks of a match and of
//	                             a position page, Verify
//	probe                        what a run's networks learned, on held-out positions
//	report                       plots and an HTML page of a run
//	web                          the browser UI of a run directory
package selfplay
