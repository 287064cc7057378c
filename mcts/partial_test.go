package mcts

import (
	"context"
	"testing"

	"chuzero/rules"
)

// A Partial search whose context has ended still answers: the root is
// evaluated, and the move is the tree's (here the prior's best); without
// Partial the error comes back.
func TestPartialSearch(t *testing.T) {
	g := rules.NewGame(rules.MustNew(rules.DefaultConfig(rules.Sho)).StartPosition())
	s, err := New(DefaultConfig(), Random{Seed: 3}, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Run(ctx, g, Options{Simulations: 64}); err == nil {
		t.Fatal("a cancelled search without Partial returned no error")
	}
	res, err := s.Run(ctx, g, Options{Simulations: 64, Partial: true})
	if err != nil || res.Simulations != 0 || !g.Position().IsLegal(res.Best) {
		t.Fatalf("Partial on a cancelled context: %v, %+v", err, res)
	}
	// with a tree already there, the partial answer is that tree's
	full, err := s.Run(context.Background(), g, Options{Simulations: 64})
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.Run(ctx, g, Options{Simulations: 64, Partial: true})
	if err != nil || again.Best != full.Best || again.Simulations != 0 {
		t.Errorf("Partial over a searched tree: %v, best %v, want %v", err, again.Best, full.Best)
	}
}
