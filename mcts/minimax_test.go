package mcts

import (
	"context"
	"math"
	"testing"

	"chuzero/rules"
)

// TestMinimaxBackup builds a two-ply tree by hand: Sente's move A, Gote's
// replies x (which wins 0.9 for Gote) and y (which loses 0.5 for Gote).
// A's minimax value is Gote's refutation x whatever else is explored, the
// root keeps its own value as its floor, and the blend reads it.
func TestMinimaxBackup(t *testing.T) {
	g := game(t, rules.Sho, "")
	moves := g.LegalMoves()
	cfg := DefaultConfig()
	cfg.MinimaxWeight = 0.5
	s := search(t, cfg, Uniform{}, 1)
	s.t.reset()
	s.t.expand(0, moves[:2], []float32{0.5, 0.5}, 0)
	a := s.t.nodes.at(0).first
	s.t.expand(a, moves[:2], []float32{0.5, 0.5}, 0.2) // Gote to move at A: +0.2 for Gote
	if got := s.t.nodes.at(a).minimax(); !near(got, -0.2) {
		t.Fatalf("A's minimax on expansion %v, want -0.2 (its own value, for Sente)", got)
	}
	x := s.t.nodes.at(a).first
	y := x + 1
	s.t.expand(x, moves[:1], []float32{1}, -0.9) // Sente to move at x: -0.9
	s.minimaxBackup([]int32{0, a, x})
	if got := s.t.nodes.at(a).minimax(); !near(got, -0.9) {
		t.Errorf("A's minimax after the refutation %v, want -0.9", got)
	}
	if got := s.t.nodes.at(0).minimax(); !near(got, 0) {
		t.Errorf("the root's minimax %v, want its own value 0 (A is worse for Sente than standing pat)", got)
	}
	s.t.expand(y, moves[:1], []float32{1}, 0.5)
	s.minimaxBackup([]int32{0, a, y})
	if got := s.t.nodes.at(a).minimax(); !near(got, -0.9) {
		t.Errorf("a bad reply moved A's minimax to %v, want -0.9", got)
	}
	n := s.t.nodes.at(a)
	n.visits, n.valueSum = 3, 0.3 // a mean of +0.1 for Sente
	if got := s.childQ(n); !near(got, 0.5*0.1+0.5*-0.9) {
		t.Errorf("blended q %v, want %v", got, 0.5*0.1+0.5*-0.9)
	}
	s.cfg.MinimaxWeight = 0
	if got := s.childQ(n); !near(got, 0.1) {
		t.Errorf("q without minimax %v, want the mean 0.1", got)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-4 }

// TestMinimaxSearch: a search with the minimax blend plays the hanging
// royal's capture and finds the budget's visits, PUCT and Gumbel, and
// MinimaxWeight is checked.
func TestMinimaxSearch(t *testing.T) {
	for _, gumbel := range []bool{false, true} {
		g := game(t, rules.Chu, royalHangs)
		cfg := DefaultConfig()
		cfg.MinimaxWeight = 1
		s := search(t, cfg, Material{Scale: 3}, 1)
		res, err := s.Run(context.Background(), g, Options{Simulations: 64, Gumbel: gumbel})
		if err != nil {
			t.Fatal(err)
		}
		if res.Simulations != 64 {
			t.Errorf("gumbel %v: %d simulations, want 64", gumbel, res.Simulations)
		}
		if got := moveText(g, s.Choose(res, 100, gumbel)); got[:6] != "b11b12" {
			t.Errorf("gumbel %v: played %s, want b11b12", gumbel, got)
		}
	}
	bad := DefaultConfig()
	bad.MinimaxWeight = 1.5
	if bad.Validate() == nil {
		t.Error("MinimaxWeight 1.5 validates")
	}
}
