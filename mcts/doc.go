// Package mcts is the tree search: PUCT with an index-based node arena, or
// a Gumbel search for small budgets. It sees the network only through
// Evaluator (positions with their legal moves in, priors over exactly those
// moves and win/draw/loss out); it never sees planes or policy indices, and
// it does not import the model.
//
//	s, _ := mcts.New(mcts.DefaultConfig(), evaluator, seed)
//	res, _ := s.Run(ctx, game, mcts.Options{Simulations: 64, Gumbel: true})
//	game.Play(s.Choose(res, game.Len(), true))
//
// # Configuration (Config)
//
//   - CPuct, CPuctBase: exploration weight c(N) = CPuct + log((1+N+base)/base)
//     for a parent with N visits; a child's score is q + c(N)*P*sqrt(N)/(1+n).
//   - FPUReduction, FPURoot: first-play urgency. An unvisited child is valued
//     at its parent's value minus reduction * sqrt(summed prior of the
//     parent's visited children) (FPURoot at the root; lc0, KataGo).
//   - NoiseAlphaScale, NoiseFraction: with Options.Noise, the root priors are
//     mixed with Dirichlet(alpha = scale / legal moves) noise at that weight.
//   - Temperature, TemperatureMoves, FinalTemperature: Choose draws the move
//     with probability proportional to visits^(1/T), T = Temperature for the
//     first TemperatureMoves plies of the game and FinalTemperature after
//     (0: the most visited move).
//   - LeavesPerBatch, VirtualLoss: a search selects up to LeavesPerBatch
//     leaves before evaluating them together; each path in flight counts as
//     VirtualLoss losses so the next selection goes elsewhere. A selection
//     that reaches a leaf already in flight is discarded (Result.Collisions).
//   - Gumbel, GumbelK, GumbelCVisit, GumbelCScale: with Options.Gumbel the
//     root samples GumbelK moves by Gumbel-top-k over the prior logits (g +
//     logit only, also on a reused tree), shares the simulations among them
//     by sequential halving down to two, plays the best of those by g +
//     logit + sigma(completed q) (Result.Best) and reports the completed-Q
//     improved policy as the training target; sigma(q) = (CVisit + max
//     visits) * CScale * (q+1)/2. The completed q of an unvisited move is
//     v_mix, from the node's own network value (stored at its expansion).
//     GumbelRescaleQ min-max normalises a node's completed q to [0, 1]
//     first, so sigma = (CVisit + max visits) * CScale * q-hat (mctx).
//   - GumbelInterior: in a Gumbel search, the nodes below the root pick
//     argmax pi'(a) - N(a)/(1 + sum N) (pi' the node's improved policy, N
//     counting paths in flight); false: PUCT there.
//   - ReuseTree: the next Run on a game that continues the searched one keeps
//     the subtree of the moves played (compacted into a fresh arena).
//
// Terminal positions are scored by the rules (royal captured, bare King,
// repetition verdicts, no legal move, MaxPlies): the game's Result for the
// side to move. Values are win minus loss, in [-1, 1]. Result.Q holds the
// completed value of every root move and Result.NetValue the root's raw
// network value (for resignation and analysis).
//
// Cache wraps any Evaluator with a bounded clock cache keyed by what the
// network reads: position, rules config, the history it encodes (all of a
// request's with NewCache, the spec's HistoryPlies with NewSpecCache),
// repetition count and ply progress as encoded, and the moves asked about. Uniform and
// Random are evaluators for tests: uniform priors with a drawn value, and
// deterministic pseudo-random priors and values from the position's hash.
package mcts
