package main

import (
	"strings"
	"testing"
	"time"

	"chuzero/mcts"
	"chuzero/selfplay/arena"
)

// The ab player: its options, its default depth, its names and errors.
func TestParsePlayerAlphaBeta(t *testing.T) {
	def := mcts.Budget{Simulations: 100}
	for _, tc := range []struct {
		in    string
		want  arena.AlphaBeta
		label string
	}{
		{"ab", arena.AlphaBeta{Depth: 2}, "ab-d2"},
		{"ab,depth=3", arena.AlphaBeta{Depth: 3}, "ab-d3"},
		{"ab,time=200ms", arena.AlphaBeta{Time: 200 * time.Millisecond}, "ab-200ms"},
		{"ab,depth=4,time=1s,nodes=5000", arena.AlphaBeta{Depth: 4, Time: time.Second, Nodes: 5000}, "ab-d4"},
		{"ab,nodes=100000", arena.AlphaBeta{Nodes: 100000}, "ab-n100000"},
		{"ab,depth=1,name=anchor", arena.AlphaBeta{Label: "anchor", Depth: 1}, "anchor"},
	} {
		p, err := parsePlayer(tc.in, def)
		if err != nil {
			t.Errorf("parsePlayer(%q): %v", tc.in, err)
			continue
		}
		if got := p.alphaBeta(); p.kind != "ab" || got != tc.want || p.label("") != tc.label {
			t.Errorf("parsePlayer(%q) = %s %+v %q, want ab %+v %q", tc.in, p.kind, got, p.label(""), tc.want, tc.label)
		}
		e, err := (&networks{}).entrant(p, nil)
		if err != nil || e.Name() != tc.label {
			t.Errorf("entrant(%q) = %v, %v", tc.in, e, err)
		}
	}
	for _, tc := range []struct{ in, says string }{
		{"ab,depth=0", "at least 1"},
		{"ab,depth=-2", "at least 1"},
		{"ab,depth=x", "invalid syntax"},
		{"ab,depth=65", "out of range"},
		{"ab,time=0s", "positive"},
		{"ab,time=fast", "invalid duration"},
		{"ab,nodes=0", "at least 1"},
		{"ab,sims=100", "not an option of ab"},
		{"ab,gumbel", "not an option of ab"},
		{"greedy,nodes=5", "unknown option"},
	} {
		_, err := parsePlayer(tc.in, def)
		if err == nil || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), tc.in) {
			t.Errorf("parsePlayer(%q) = %v, want an error naming it and saying %q", tc.in, err, tc.says)
		}
	}
}

// The quiescence blend of a player: qs= on a checkpoint, uniform or
// material; the match default for a checkpoint without it, none for the
// yardsticks; in the label when it is given.
func TestParsePlayerQuiescence(t *testing.T) {
	def := mcts.Budget{Simulations: 64}
	deflt := mcts.MatchConfig().Quiescence
	for _, tc := range []struct {
		in    string
		qs    float64
		label string
	}{
		{"material,qs=1", 1, "material-64-qs1"},
		{"material", 0, "material-64"},
		{"uniform,qs=0.5", 0.5, "uniform-64-qs0.5"},
		{"material,qs=0", 0, "material-64-qs0"},
		{"latest", mcts.MatchConfig().Quiescence, "step-1-64"},
		{"latest,qs=0.25", 0.25, "step-1-64-qs0.25"},
		{"latest,qs=0,sims=32", 0, "step-1-32-qs0"},
	} {
		p, err := parsePlayer(tc.in, def)
		if err != nil {
			t.Errorf("parsePlayer(%q): %v", tc.in, err)
			continue
		}
		if p.quiescence() != tc.qs || p.label("step-1") != tc.label {
			t.Errorf("parsePlayer(%q): quiescence %v, label %q; want %v, %q", tc.in, p.quiescence(), p.label("step-1"), tc.qs, tc.label)
		}
	}
	if p, _ := parsePlayer("latest", def); p.quiescence() != deflt {
		t.Errorf("a checkpoint without qs= searches with %v, want the match default %v", p.quiescence(), deflt)
	}
	for _, in := range []string{"latest,qs=1.5", "material,qs=-1", "greedy,qs=1", "ab,qs=1", "latest,qs=x"} {
		if _, err := parsePlayer(in, def); err == nil {
			t.Errorf("parsePlayer(%q) accepted", in)
		}
	}
}
