package model

import (
	"math/rand/v2"

	"chuzero/encode"
	"chuzero/rules"
)

// appendRandomAux appends random auxiliary targets for g's position to
// b, from rng: a reply target over the legal moves after a random move
// (none when that move ends the game), material and short-term values in
// [-1, 1], ownership in {-1, 0, +1}. Shapes are realistic, values are
// not (benchmarks and tests).
func appendRandomAux(b *Batch, spec *encode.Spec, g *rules.Game, rng *rand.Rand) error {
	var legal []int32
	var probs []float32
	moves := g.LegalMoves()
	if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
		return err
	}
	if !g.Result().Over() {
		var err error
		if legal, err = spec.LegalIndices(g.Position(), g.LegalMoves(), nil); err != nil {
			return err
		}
		probs = randomDistribution(rng, len(legal))
	}
	g.Undo()
	u := func() float32 { return 2*rng.Float32() - 1 }
	b.HasAux = append(b.HasAux, true)
	b.ReplyLegal, b.ReplyPolicy = append(b.ReplyLegal, legal), append(b.ReplyPolicy, probs)
	b.Material = append(b.Material, [2]float32{u(), u()})
	b.ShortValue = append(b.ShortValue, [3]float32{u(), u(), u()})
	for s := 0; s < spec.Height*spec.Width; s++ {
		b.Ownership = append(b.Ownership, float32(rng.IntN(3)-1))
	}
	return nil
}
