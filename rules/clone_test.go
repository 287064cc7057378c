package rules

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCloneIsIndependent plays on a clone and on the original in turn:
// neither sees the other's moves, and both keep their history (undo
// returns each to where it was cloned).
func TestCloneIsIndependent(t *testing.T) {
	for _, v := range Variants {
		r, err := New(DefaultConfig(v))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, uint64(v)))
		g := NewGame(r.StartPosition())
		for range 30 {
			g.Push(randomMove(rng, g.Position(), g.LegalMoves()))
		}
		sfen, n := g.Position().SFEN(), g.Len()
		moves := slices.Clone(g.LegalMoves())
		c := g.Clone()
		for range 10 {
			if c.Result().Over() {
				break
			}
			c.Push(randomMove(rng, c.Position(), c.LegalMoves()))
		}
		if g.Position().SFEN() != sfen || g.Len() != n || !slices.Equal(g.LegalMoves(), moves) {
			t.Fatalf("%v: playing on the clone changed the original", v)
		}
		g.Push(moves[0])
		for c.Len() > n {
			c.Undo()
		}
		if c.Position().SFEN() != sfen || !slices.Equal(c.LegalMoves(), moves) || !slices.Equal(c.Moves(), g.Moves()[:n]) {
			t.Fatalf("%v: the clone lost its history", v)
		}
	}
}
