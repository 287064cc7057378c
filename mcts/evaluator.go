package mcts

import (
	"context"
	"math"

	"chuzero/mcts/eval"
	"chuzero/rules"
)

// Evaluator scores positions for the search: for each request it fills
// Priors (one probability per move of req.Moves, in order) and WDL (win,
// draw and loss probabilities for the side to move). It is called from many
// goroutines at once and may batch their requests; model.Batcher is the
// network's implementation.
type Evaluator interface {
	Evaluate(ctx context.Context, reqs []*eval.Request) error
}

// Uniform is the test evaluator with uniform priors and a zero value (a
// certain draw): search with it is pure rules-scored tree search.
type Uniform struct{}

// Evaluate implements Evaluator.
func (Uniform) Evaluate(_ context.Context, reqs []*eval.Request) error {
	for _, r := range reqs {
		p := 1 / float32(len(r.Moves))
		for i := range r.Priors {
			r.Priors[i] = p
		}
		r.WDL = [3]float32{0, 1, 0}
	}
	return nil
}

// Random is a deterministic pseudo-random evaluator: priors and value are
// derived from a hash of the position (and each move), so search and
// self-play are reproducible and non-trivial without a network. Seed
// varies the function.
type Random struct{ Seed uint64 }

// Evaluate implements Evaluator.
func (e Random) Evaluate(_ context.Context, reqs []*eval.Request) error {
	for _, r := range reqs {
		h := mix(r.Pos.Hash() ^ e.Seed)
		var sum float64
		for i, m := range r.Moves {
			x := float64(mix(h^uint64(m)*rules.Golden)>>11) / (1 << 53)
			p := math.Exp(3 * x) // spread: priors differ by up to e^3
			r.Priors[i] = float32(p)
			sum += p
		}
		for i := range r.Priors {
			r.Priors[i] = float32(float64(r.Priors[i]) / sum)
		}
		w := float32(mix(h+1)>>40) / (1 << 24)
		l := float32(mix(h+2)>>40) / (1 << 24)
		d := float32(mix(h+3)>>40) / (1 << 24) * 0.5
		s := w + l + d
		r.WDL = [3]float32{w / s, d / s, l / s}
	}
	return nil
}

// mix is the splitmix64 finalizer.
func mix(z uint64) uint64 { return rules.Mix64(z) }
