package mcts

import (
	"context"
	"testing"

	"chuzero/rules"
)

// The principal variation starts with the most visited move and each
// root move's line with that move; both are legal lines.
func TestPV(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	g := rules.NewGame(r.StartPosition())
	s, err := New(DefaultConfig(), Uniform{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if pv := s.PV(8); len(pv) != 0 {
		t.Errorf("PV before a search: %v", pv)
	}
	res, err := s.Run(context.Background(), g, Options{Simulations: 400})
	if err != nil {
		t.Fatal(err)
	}
	pv := s.PV(8)
	if len(pv) < 2 || pv[0] != res.Best {
		t.Fatalf("PV %v, best %v", pv, res.Best)
	}
	legal := func(line []rules.Move) {
		t.Helper()
		pos := *g.Position()
		for _, m := range line {
			if _, err := pos.ParseUSI(pos.USI(m)); err != nil {
				t.Fatalf("line %v: %v", line, err)
			}
			pos.Make(m)
		}
	}
	legal(pv)
	if res.SelDepth < len(pv) || res.SelDepth > 400 {
		t.Errorf("seldepth %d with a principal variation of %d", res.SelDepth, len(pv))
	}
	for i, m := range res.Moves {
		line := s.Line(m, 8)
		if len(line) == 0 || line[0] != m || (res.Visits[i] > 1 && len(line) < 2) {
			t.Errorf("line of %v (%d visits): %v", m, res.Visits[i], line)
		}
		legal(line)
	}
	if l := s.Line(rules.NoMove, 8); l != nil {
		t.Errorf("line of no move: %v", l)
	}
}
