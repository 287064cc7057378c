package selfplay

import (
	"context"
	"fmt"
	"testing"

	"chuzero/mcts"
	"chuzero/rules"
)

// firstMove is a teacher that plays the first legal move with value 0.5.
type firstMove struct{ opened *int }

func (firstMove) Name() string { return "first-move" }

func (t firstMove) Open(context.Context, *rules.Rules, uint64) (TeacherGame, error) {
	*t.opened++
	return t, nil
}

func (firstMove) Move(_ context.Context, g *rules.Game) (rules.Move, float64, error) {
	return g.LegalMoves()[0], 0.5, nil
}

func (firstMove) Close() error { return nil }

// TestWarmStart: the run's first WarmStartGames games are the teacher's:
// every position a sample whose policy is the teacher's move alone and
// whose root value is the teacher's, nobody resigns, the record says so;
// the games after them are searched as usual.
func TestWarmStart(t *testing.T) {
	cfg := testConfig(t, rules.Sho)
	cfg.Games, cfg.GamesPerFile, cfg.WarmStartGames = 1, 1, 2
	cfg.Rules.MaxPlies = 8
	r, err := New(cfg, mcts.Uniform{}, "uniform")
	if err != nil {
		t.Fatal(err)
	}
	opened := 0
	r.Teacher = firstMove{&opened}
	if err := r.Run(context.Background(), 3); err != nil {
		t.Fatal(err)
	}
	samples, recs := readRun(t, cfg.Run.Dir)
	if len(recs) != 3 || opened != 2 {
		t.Fatalf("%d games, the teacher opened %d times; want 3 and 2", len(recs), opened)
	}
	warm := map[string]bool{}
	for _, rec := range recs {
		want := rec.Index < 2
		if rec.WarmStart != want || (want && (rec.Evaluator != "warm start: first-move" || rec.ResignAllowed || rec.Samples != rec.Plies)) {
			t.Errorf("game %d: warm %v, evaluator %q, resign %v, %d samples of %d plies", rec.Index, rec.WarmStart,
				rec.Evaluator, rec.ResignAllowed, rec.Samples, rec.Plies)
		}
		warm[rec.ID] = want
	}
	n := 0
	for _, s := range samples {
		if !warm[fmt.Sprintf("%016x", s.GameID)] {
			continue
		}
		n++
		if !s.FullSearch || s.RootValue != 0.5 || len(s.Policy) != 1 || s.Policy[0].Prob != 1 {
			t.Errorf("warm sample at ply %d: full %v, root %v, policy %v", s.Ply, s.FullSearch, s.RootValue, s.Policy)
		}
	}
	if n != 16 {
		t.Errorf("%d warm samples, want 2 games of 8 plies", n)
	}
	cfg.WarmStartDepth = 0
	if cfg.Validate() == nil {
		t.Error("a warm start at depth 0 validates")
	}
}
