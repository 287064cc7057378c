// Package arena plays matches: checkpoints, external engines and built-in
// baselines against each other, refereed by the rules core, with Elo,
// confidence intervals and a sequential test (SPRT, on colour-swapped
// game pairs) to stop early.
//
//	m, _ := arena.New(arena.Config{Rules: rules.DefaultConfig(rules.Chu), Games: 20, Concurrency: 2},
//		arena.NewSearcher("net", evaluator, mcts.Budget{Simulations: 200}),
//		&arena.CECPClient{Command: []string{"hachu"}, Depth: 2})
//	st, _ := m.Run(ctx)
//	st.WriteTable(os.Stdout)
//
// Players: Searcher (tree search with any mcts.Evaluator: a network
// through model.Batcher, or mcts.Uniform), Engine (any CECP engine, one
// process per game, e.g. Debian's hachu), Random, Greedy (one-ply
// material) and AlphaBeta (iterative-deepening alpha-beta on the same
// material, with a transposition table and capture quiescence: the
// strength ladder where HaChu does not play). The package does not import
// the model: the caller wires networks in as evaluators. Config.Gauntlet
// plays the first player against each other one only (a benchmark
// against fixed anchors).
//
// Games: each opening (from a file, or random balanced openings) is played
// twice per pairing, colours swapped; games run in parallel. The referee
// is a rules.Game under the match's rules. A move it rejects loses the
// game for its player (ReasonIllegalMove), unless another setting of a
// rules option would allow it, in which case the game is a draw by
// adjudication noting the option: the players disagree on the rules, not
// on the game. An engine that announces its opponent's win ("1-0" from
// Gote, HaChu's way of resigning) or says "resign" loses by resignation;
// one refusing a move the referee accepted, or claiming any other result
// the referee does not see, is adjudicated the same way; an engine that
// crashes, hangs past its timeout or cannot speak the protocol forfeits
// (ReasonForfeit). Every adjudication is logged and noted in the record.
//
// Results: Elo from the pair results with 95% intervals (Score,
// EloInterval; Ratings for a round robin), and SPRT (GSPRT, as fishtest)
// that stops a two-player match as soon as it decides. Records:
// games.jsonl (machine notation with the start SFEN), games.pgn (for
// XBoard) and results.json, rewritten atomically after every game.
package arena
