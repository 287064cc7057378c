package arena

import (
	"strings"
	"testing"
	"time"

	"chuzero/mcts"
)

// The ab player: its options, its default depth, its names and errors.
func TestParsePlayerAlphaBeta(t *testing.T) {
	def := mcts.Budget{Simulations: 100}
	for _, tc := range []struct {
		in    string
		want  AlphaBeta
		label string
	}{
		{"ab", AlphaBeta{Depth: 2}, "ab-d2"},
		{"ab,depth=3", AlphaBeta{Depth: 3}, "ab-d3"},
		{"ab,time=200ms", AlphaBeta{Time: 200 * time.Millisecond}, "ab-200ms"},
		{"ab,depth=4,time=1s,nodes=5000", AlphaBeta{Depth: 4, Time: time.Second, Nodes: 5000}, "ab-d4"},
		{"ab,nodes=100000", AlphaBeta{Nodes: 100000}, "ab-n100000"},
		{"ab,depth=1,name=anchor", AlphaBeta{Label: "anchor", Depth: 1}, "anchor"},
	} {
		p, err := ParsePlayer(tc.in, def)
		if err != nil {
			t.Errorf("ParsePlayer(%q): %v", tc.in, err)
			continue
		}
		if got := p.alphaBeta(); p.kind != "ab" || got != tc.want || p.label("") != tc.label {
			t.Errorf("ParsePlayer(%q) = %s %+v %q, want ab %+v %q", tc.in, p.kind, got, p.label(""), tc.want, tc.label)
		}
		e, err := p.Entrant(nil, nil)
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
		_, err := ParsePlayer(tc.in, def)
		if err == nil || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), tc.in) {
			t.Errorf("ParsePlayer(%q) = %v, want an error naming it and saying %q", tc.in, err, tc.says)
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
		{"material,mm=0.5,qs=1", 1, "material-64-mm0.5-qs1"},
		{"latest,mm=1", mcts.MatchConfig().Quiescence, "step-1-64-mm1"},
		{"latest,wide,qs=1", 1, "step-1-64-qs1-wide"},
		{"material,wide", 0, "material-64-wide"},
	} {
		p, err := ParsePlayer(tc.in, def)
		if err != nil {
			t.Errorf("ParsePlayer(%q): %v", tc.in, err)
			continue
		}
		if p.quiescence() != tc.qs || p.label("step-1") != tc.label {
			t.Errorf("ParsePlayer(%q): quiescence %v, label %q; want %v, %q", tc.in, p.quiescence(), p.label("step-1"), tc.qs, tc.label)
		}
	}
	if p, _ := ParsePlayer("latest", def); p.quiescence() != deflt {
		t.Errorf("a checkpoint without qs= searches with %v, want the match default %v", p.quiescence(), deflt)
	}
	for _, in := range []string{"latest,qs=1.5", "material,qs=-1", "greedy,qs=1", "ab,qs=1", "latest,qs=x",
		"latest,mm=2", "material,mm=-0.5", "ab,mm=1", "greedy,mm=0.5",
		"greedy,wide", "ab,wide", "latest,wide=1"} {
		if _, err := ParsePlayer(in, def); err == nil {
			t.Errorf("ParsePlayer(%q) accepted", in)
		}
	}
}

// FuzzParsePlayer: any player argument is parsed or refused with a
// message naming it; an accepted one has a name and a valid budget.
func FuzzParsePlayer(f *testing.F) {
	for _, s := range []string{"latest", "latest,sims=200", "hachu,depth=2,time=1s", "xboard:/usr/games/hachu -x,name=h,opt:Allow repeats=0",
		"uniform,gumbel", "greedy,name=", "5,sims=0", ",", "xboard:"} {
		f.Add(s)
	}
	def := mcts.Budget{Simulations: 100}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePlayer(s, def)
		if err != nil {
			if !strings.Contains(err.Error(), "player") {
				t.Fatalf("error %v does not say which player", err)
			}
			return
		}
		if p.label("step-1") == "" {
			t.Fatalf("%q: empty name", s)
		}
		if p.kind != "xboard" && p.budget.Validate() != nil {
			t.Fatalf("%q: invalid budget %+v accepted", s, p.budget)
		}
	})
}

func TestParsePlayer(t *testing.T) {
	def := mcts.Budget{Simulations: 100}
	for _, tc := range []struct {
		in, kind, label string
		budget          mcts.Budget
	}{
		{"latest", "checkpoint", "step-1-100", def},
		{"latest,sims=20,name=net", "checkpoint", "net", mcts.Budget{Simulations: 20}},
		{"uniform,time=2s", "uniform", "uniform-2s", mcts.Budget{Time: 2 * time.Second}},
		{"hachu,depth=3", "xboard", "hachu-d3", def},
		{"xboard:/usr/games/hachu,depth=1,opt:Okazaki rule=1", "xboard", "hachu-d1", def},
		{"greedy", "greedy", "greedy", def},
		{"material,sims=64,gumbel", "material", "material-64", mcts.Budget{Simulations: 64}},
		{"latest,sims=64,utility=0.5", "checkpoint", "step-1-64-u0.5", mcts.Budget{Simulations: 64}},
	} {
		p, err := ParsePlayer(tc.in, def)
		if err != nil || p.kind != tc.kind || p.label("step-1") != tc.label || p.budget != tc.budget {
			t.Errorf("%q: %+v %q, %v", tc.in, p, p.label("step-1"), err)
		}
	}
	if p, _ := ParsePlayer("xboard:hachu,opt:Okazaki rule=1", def); p.opts["Okazaki rule"] != "1" {
		t.Errorf("engine option: %+v", p.opts)
	}
	for _, bad := range []string{"", "latest,sims=0", "latest,sims=x", "hachu,colour=red", "xboard:", "uniform,time=-1s",
		"latest,utility=2", "latest,utility=-0.1", "latest,utility=NaN", "uniform,utility=0.5", "ab,utility=0.5"} {
		if _, err := ParsePlayer(bad, def); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
