package mcts

import (
	"context"
	"testing"
	"time"

	"chuzero/rules"
)

// TestTimed: a budgeted search stops at its playouts, at its node cap, or
// when its context ends, whichever comes first, and answers with what it
// has (bounded by counts here: the time budgets are an hour).
func TestTimed(t *testing.T) {
	g := rules.NewGame(rules.MustNew(rules.DefaultConfig(rules.Sho)).StartPosition())
	newTimed := func(b Budget) *Timed {
		cfg := DefaultConfig()
		cfg.ReuseTree = true
		s, err := New(cfg, Random{Seed: 3}, 1)
		if err != nil {
			t.Fatal(err)
		}
		return &Timed{Search: s, Budget: b, Chunk: 8}
	}
	for _, tc := range []struct {
		name   string
		budget Budget
		sims   int
	}{
		{"playouts", Budget{Simulations: 40}, 40},
		{"playouts within an hour", Budget{Simulations: 40, Time: time.Hour}, 40},
	} {
		tm := newTimed(tc.budget)
		res, err := tm.Think(context.Background(), g)
		if err != nil || res.Simulations != tc.sims || tm.Last != res || !g.Position().IsLegal(res.Best) {
			t.Errorf("%s: %v, %d playouts (want %d), best %v", tc.name, err, res.Simulations, tc.sims, res.Best)
		}
	}
	capped := newTimed(Budget{Time: time.Hour})
	capped.MaxNodes = 100
	res, err := capped.Think(context.Background(), g)
	if err != nil || capped.Search.NodeCount() < 100 || res.Simulations == 0 {
		t.Errorf("node cap 100: %v, %d nodes, %d playouts", err, capped.Search.NodeCount(), res.Simulations)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := newTimed(Budget{Time: time.Hour}).Think(ctx, g); err != nil || !g.Position().IsLegal(res.Best) {
		t.Errorf("a timed search whose context ended: %v, %+v", err, res)
	}
	if _, err := newTimed(Budget{Simulations: 40}).Think(ctx, g); err == nil {
		t.Error("an untimed search whose context ended returned no error")
	}
	if _, err := newTimed(Budget{}).Think(context.Background(), g); err == nil {
		t.Error("an empty budget was searched")
	}
}
