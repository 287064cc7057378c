package mcts

import "math"

// Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant,
// "Monte Carlo Tree Search with Heuristic Evaluations using Implicit
// Minimax Backups", 2014): beside its mean, every node keeps the negamax
// value of the tree below it, its leaves valued by the evaluator (with the
// quiescence blend). Selection and the Gumbel q's read
// (1-α)·mean + α·minimax, α = Config.MinimaxWeight: an averaging search
// whose few visits each carry the refutation found below them, where the
// mean dilutes a found refutation with the child's own optimistic value.
//
// A node's minimax value for its side to move is the best of its own
// value (standing pat: the quiescence value already resolves the
// captures, and in shogi a move is nearly always worth at least passing)
// and its evaluated children's, so an unexplored or a bad explored reply
// never makes a move look better than its own evaluation.

// minimaxOne is the int16 of a value of 1 (the value is kept in the
// node's padding: 3e-5 resolution).
const minimaxOne = math.MaxInt16

// packMinimax returns v in [-1, 1] as a node's mm.
func packMinimax(v float64) int16 {
	return int16(math.Round(max(-1, min(1, v)) * minimaxOne))
}

// minimax returns the node's implicit minimax value for the player who
// moved into it.
func (n *node) minimax() float64 { return float64(n.mm) / minimaxOne }

// blendMinimax returns q, a value of child n for the player who moved
// into it, blended with n's minimax value by Config.MinimaxWeight.
func (s *Search) blendMinimax(q float64, n *node) float64 {
	if a := s.cfg.MinimaxWeight; a > 0 && (n.state == expanded || n.state == terminal) {
		return (1-a)*q + a*n.minimax()
	}
	return q
}

// minimaxBackup recomputes the minimax value of the nodes of path above
// its leaf (whose own value is set at its expansion), stopping where one
// is unchanged: the ones above it are unchanged too.
func (s *Search) minimaxBackup(path []int32) {
	for i := len(path) - 2; i >= 0; i-- {
		n := s.t.nodes.at(path[i])
		if n.state != expanded {
			return
		}
		best := float64(n.value) // for the side to move at n
		for _, c := range s.t.nodes.span(n.first, n.n) {
			if c.state == expanded || c.state == terminal {
				best = max(best, c.minimax())
			}
		}
		mm := packMinimax(-best)
		if mm == n.mm {
			return
		}
		n.mm = mm
	}
}
