package mcts

import (
	"math"

	"chuzero/rules"
)

// Result is what a search found at the root. Values are for the side to
// move at the root, win minus loss, in [-1, 1].
type Result struct {
	Moves  []rules.Move // the legal moves
	Visits []int32      // visits of each move's child
	Prior  []float32    // the evaluator's prior of each move
	Policy []float32    // training target: visit distribution (PUCT) or completed-Q improved policy (Gumbel)
	// Q is each move's completed value: the mean value of its child if
	// visited (Visits[i] > 0), else v_mix, the root's network value mixed
	// with the prior-weighted values of the visited moves (Gumbel's
	// completed Q; the same for PUCT and Gumbel searches).
	Q    []float64
	Best rules.Move // most visited move, ties to the higher prior (PUCT), or the sequential-halving winner (Gumbel)
	// RootValue is the mean value of the root over all its visits.
	RootValue float64
	// NetValue is the evaluator's raw value of the root position, stored
	// when the node was expanded (kept when the tree is reused).
	NetValue    float64
	Simulations int // playouts added by this search
	SelDepth    int // the deepest playout of this search, in plies from the root
	Collisions  int // selections discarded because their leaf was already in flight
}

// ValueOf returns the completed value (Q) of root move m, for the side to
// move at the root, and whether m is one of the root's moves. Visits tells
// whether the value was searched or is v_mix.
func (r *Result) ValueOf(m rules.Move) (float64, bool) {
	for i, x := range r.Moves {
		if x == m {
			return r.Q[i], true
		}
	}
	return 0, false
}

// fillResult sets everything but Best (Gumbel), Simulations and Collisions
// from the root, whose priors are the evaluator's again.
func (s *Search) fillResult(res *Result, gumbel bool) {
	root := s.t.root
	rootNode := s.t.nodes.at(root)
	kids := s.t.children(root)
	res.RootValue = -rootNode.valueSum / float64(rootNode.visits)
	res.NetValue = float64(rootNode.value)
	var maxN int32
	res.Q, maxN = s.completedQ(root, make([]float64, 0, len(kids)))
	var total int32
	best := 0
	res.Moves = make([]rules.Move, len(kids))
	res.Visits = make([]int32, len(kids))
	for i := range kids {
		res.Moves[i] = kids[i].move
		res.Visits[i] = kids[i].visits
		total += kids[i].visits
		if v, b := kids[i].visits, kids[best].visits; v > b || v == b && kids[i].prior > kids[best].prior {
			best = i
		}
	}
	res.Prior = append([]float32(nil), s.origPrior...)
	if gumbel {
		res.Policy = s.improvedPolicy(s.origPrior, res.Q, maxN)
		return
	}
	res.Policy = make([]float32, len(kids))
	for i := range kids {
		res.Policy[i] = float32(kids[i].visits) / float32(max(total, 1))
	}
	res.Best = kids[best].move
}

// Choose picks the move to play from a result: by temperature over the
// visit counts (PUCT; temperature 0 = most visited), or the Gumbel winner.
// ply is the game's ply count, for the temperature schedule.
func (s *Search) Choose(res *Result, ply int, gumbel bool) rules.Move {
	if gumbel || len(res.Moves) == 1 {
		return res.Best
	}
	t := s.cfg.FinalTemperature
	if ply < s.cfg.TemperatureMoves {
		t = s.cfg.Temperature
	}
	if t < 1e-3 {
		return res.Best
	}
	var sum float64
	w := make([]float64, len(res.Visits))
	for i, v := range res.Visits {
		w[i] = math.Pow(float64(v), 1/t)
		sum += w[i]
	}
	if sum == 0 {
		return res.Best
	}
	x := s.rng.Float64() * sum
	for i := range w {
		if x < w[i] {
			return res.Moves[i]
		}
		x -= w[i]
	}
	return res.Moves[len(res.Moves)-1]
}
