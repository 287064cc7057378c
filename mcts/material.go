package mcts

import (
	"context"
	"math"

	"chuzero/mcts/eval"
)

// Material is the evaluator that knows material and nothing else: uniform
// priors and, for the side to move, the value tanh(Scale·b/army), b its
// material balance by the variant's piece table (rules.PieceValues) and
// army one side's starting material without royals. Search with it is the
// yardstick of what a value head that has learnt material alone can do at
// a budget (the "material" arena player).
//
// Scale sets how fast the value saturates (3: a lead of a fifth of the
// army is worth 0.54); the evaluator serves any variant.
type Material struct{ Scale float64 }

// Evaluate implements Evaluator.
func (e Material) Evaluate(_ context.Context, reqs []*eval.Request) error {
	for _, r := range reqs {
		rl := r.Pos.Rules()
		p := 1 / float32(len(r.Moves))
		for i := range r.Priors {
			r.Priors[i] = p
		}
		v := float32(math.Tanh(e.Scale * r.Pos.Balance(rl.PieceValues(), r.Pos.SideToMove()) / rl.Army()))
		r.WDL = [3]float32{max(v, 0), 1 - float32(math.Abs(float64(v))), max(-v, 0)}
	}
	return nil
}
