package model

import (
	"math/rand/v2"

	"chuzero/encode"
	"chuzero/rules"
)

// RandomBatch returns a training batch of n positions from seeded random
// games of the spec's variant (default rules), with random policy targets
// over their legal moves, random outcomes and random auxiliary targets
// (appendRandomAux): input for benchmarks and tests that need realistic
// shapes rather than meaningful targets.
func RandomBatch(spec *encode.Spec, n int, seed uint64) (*Batch, error) {
	r, err := rules.New(rules.DefaultConfig(spec.Variant))
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	auxRNG := rand.New(rand.NewPCG(seed, 2)) // its own stream: the other targets are as without it
	b := &Batch{N: n, Planes: make([]float32, n*spec.PlaneSize())}
	g := rules.NewGame(r.StartPosition())
	var hist [encode.MaxHistory]rules.Move
	for i := 0; i < n; i++ {
		for k := rng.IntN(6); k >= 0 || g.Result().Over(); k-- {
			if g.Result().Over() || g.Len() > 200 {
				g = rules.NewGame(r.StartPosition())
			}
			moves := g.LegalMoves()
			if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
				return nil, err
			}
		}
		st := encode.StateOf(g, hist[:])
		if err := spec.Encode(&st, b.Planes[i*spec.PlaneSize():(i+1)*spec.PlaneSize()]); err != nil {
			return nil, err
		}
		legal, err := spec.LegalIndices(g.Position(), g.LegalMoves(), nil)
		if err != nil {
			return nil, err
		}
		probs := randomDistribution(rng, len(legal))
		var wdl [3]float32
		wdl[rng.IntN(3)] = 1
		b.Legal, b.Policy, b.WDL = append(b.Legal, legal), append(b.Policy, probs), append(b.WDL, wdl)
		if err := appendRandomAux(b, spec, g, auxRNG); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// randomDistribution returns n random probabilities summing to 1, skewed
// towards a few large ones like a search's visit distribution.
func randomDistribution(rng *rand.Rand, n int) []float32 {
	probs := make([]float32, n)
	var sum float32
	for j := range probs {
		probs[j] = rng.Float32() * rng.Float32()
		sum += probs[j]
	}
	for j := range probs {
		probs[j] /= sum
	}
	return probs
}
