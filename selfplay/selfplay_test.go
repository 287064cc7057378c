package selfplay

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"chuzero/encode"
	"chuzero/mcts"
	"chuzero/rules"
)

func testConfig(t *testing.T, v rules.VariantID) Config {
	cfg := DefaultConfig(v)
	cfg.Dir = t.TempDir()
	cfg.Games = 2
	cfg.FullSimulations, cfg.CheapSimulations = 8, 2
	cfg.FullSearchFraction = 0.5
	cfg.GamesPerFile = 2
	return cfg
}

// readRun reads every sample and record a run wrote.
func readRun(t *testing.T, dir string) ([]encode.Sample, []Record) {
	t.Helper()
	var samples []encode.Sample
	var recs []Record
	files, _ := filepath.Glob(filepath.Join(dir, SamplesDir, "*"+encode.SampleFileExt))
	for _, f := range files {
		s, err := encode.ReadSampleFile(f)
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, s...)
	}
	files, _ = filepath.Glob(filepath.Join(dir, GamesDir, "*.jsonl"))
	for _, f := range files {
		r, err := ReadRecords(f)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r...)
	}
	return samples, recs
}

func TestShoGamesToTheEnd(t *testing.T) {
	cfg := testConfig(t, rules.Sho)
	r, err := New(cfg, mcts.Random{Seed: 1}, "random")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), 3); err != nil {
		t.Fatal(err)
	}
	samples, recs := readRun(t, cfg.Dir)
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	plies := 0
	spec := encode.MustSpec(rules.Sho, encode.DefaultOptions())
	for _, rec := range recs {
		g, err := rec.Replay()
		if err != nil {
			t.Fatal(err)
		}
		if rec.Plies == 0 || rec.Plies > cfg.Rules.MaxPlies || len(rec.Values) != rec.Plies || len(rec.Moves) != rec.Plies {
			t.Errorf("game %s: %d plies, reason %s", rec.ID, rec.Plies, rec.Reason)
		}
		if rec.Reason != rules.ReasonResign.String() && !g.Result().Over() {
			t.Errorf("game %s did not end", rec.ID)
		}
		plies += rec.Plies
	}
	if len(samples) != plies {
		t.Errorf("%d samples for %d plies", len(samples), plies)
	}
	full := 0
	for i := range samples {
		if err := samples[i].Validate(spec); err != nil {
			t.Fatal(err)
		}
		if samples[i].FullSearch {
			full++
			var sum float32
			for _, e := range samples[i].Policy {
				sum += e.Prob
			}
			if sum < 0.99 || sum > 1.01 {
				t.Errorf("policy target sums to %v", sum)
			}
		} else if len(samples[i].Policy) != 0 {
			t.Errorf("a cheap search recorded a policy target")
		}
	}
	if full == 0 || full == len(samples) {
		t.Errorf("%d of %d samples had full searches; want a mix", full, len(samples))
	}
	st := r.Stats()
	if st.Games != 3 || st.Positions != int64(plies) || st.Files < 2 {
		t.Errorf("stats %+v", st)
	}
}

func TestChuGameCapped(t *testing.T) {
	cfg := testConfig(t, rules.Chu)
	cfg.Rules.MaxPlies = 40
	cfg.Games = 1
	r, err := New(cfg, mcts.NewCache(mcts.Uniform{}, 10000), "uniform")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	samples, recs := readRun(t, cfg.Dir)
	if len(recs) != 1 || recs[0].Plies > 40 || len(samples) != recs[0].Plies {
		t.Fatalf("records %+v, %d samples", recs, len(samples))
	}
	g, err := recs[0].Replay()
	if err != nil {
		t.Fatal(err)
	}
	res := g.Result()
	for i, s := range samples {
		pos, _, err := s.Position(nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := encode.OutcomeFor(res, pos.SideToMove()); s.Outcome != want {
			t.Errorf("sample %d: outcome %v, want %v (game %v)", i, s.Outcome, want, res)
		}
	}
}

// senteWins is an evaluator convinced that Sente is winning.
type senteWins struct{ mcts.Uniform }

func (e senteWins) Evaluate(ctx context.Context, reqs []*encode.Request) error {
	e.Uniform.Evaluate(ctx, reqs)
	for _, r := range reqs {
		r.WDL = [3]float32{0.99, 0, 0.01}
		if r.Pos.SideToMove() == rules.Gote {
			r.WDL = [3]float32{0.01, 0, 0.99}
		}
	}
	return nil
}

func TestResignationBookkeeping(t *testing.T) {
	// nobody may resign: Gote would, and the capped game is drawn, so every
	// check is a false positive
	cfg := testConfig(t, rules.Sho)
	cfg.Rules.MaxPlies = 30
	cfg.NoResignFraction = 1
	cfg.ResignConsecutive = 2
	r, _ := New(cfg, senteWins{}, "biased")
	if err := r.Run(context.Background(), 4); err != nil {
		t.Fatal(err)
	}
	st := r.Stats()
	_, recs := readRun(t, cfg.Dir)
	falses := 0
	for _, rec := range recs {
		if rec.WouldResign == nil || rec.WouldResign.Side != "gote" || rec.ResignAllowed {
			t.Errorf("record %+v: want a would-be Gote resignation", rec.WouldResign)
		}
		if rec.FalsePositive() {
			falses++
		}
	}
	if st.ResignChecked != 4 || st.ResignFalse != int64(falses) || st.Resigned != 0 {
		t.Errorf("stats: checked %d, false %d (records say %d), resigned %d", st.ResignChecked, st.ResignFalse, falses, st.Resigned)
	}
	t.Logf("false-positive rate %.2f", st.ResignFalsePositiveRate())
	// resigning allowed: Gote resigns
	cfg = testConfig(t, rules.Sho)
	cfg.NoResignFraction = 0
	cfg.ResignConsecutive = 2
	r, _ = New(cfg, senteWins{}, "biased")
	if err := r.Run(context.Background(), 2); err != nil {
		t.Fatal(err)
	}
	if st := r.Stats(); st.Resigned != 2 || st.Results["1-0"] != 2 {
		t.Errorf("stats %+v: want two Gote resignations", st)
	}
	_, recs = readRun(t, cfg.Dir)
	for _, rec := range recs {
		if _, err := rec.Replay(); err != nil {
			t.Error(err)
		}
	}
}

func TestReplayFromSeed(t *testing.T) {
	moves := func() []string {
		cfg := testConfig(t, rules.Sho)
		cfg.Games = 1
		cfg.Rules.MaxPlies = 50
		r, _ := New(cfg, mcts.Random{Seed: 3}, "random")
		r.SetFirstGame(7)
		if err := r.Run(context.Background(), 1); err != nil {
			t.Fatal(err)
		}
		_, recs := readRun(t, cfg.Dir)
		if recs[0].Index != 7 || recs[0].Seed != GameSeed(cfg.Seed, 7) {
			t.Errorf("record index %d seed %x", recs[0].Index, recs[0].Seed)
		}
		return recs[0].Moves
	}
	a, b := moves(), moves()
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("replays differ: %d vs %d moves", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("replay differs at ply %d: %s vs %s", i, a[i], b[i])
		}
	}
}

func TestStopDiscardsGamesInFlight(t *testing.T) {
	cfg := testConfig(t, rules.Chu)
	cfg.Games = 2
	r, _ := New(cfg, mcts.Uniform{}, "uniform")
	ctx, cancel := context.WithCancel(context.Background())
	moves := 0
	r.OnMove = func(bool, int) {
		moves++
		if moves == 30 {
			cancel()
		}
	}
	if err := r.Run(ctx, 0); err != nil && err != context.Canceled {
		t.Fatal(err)
	}
	for _, d := range []string{SamplesDir, GamesDir} {
		entries, _ := os.ReadDir(filepath.Join(cfg.Dir, d))
		if len(entries) != 0 {
			t.Errorf("%s has %d files after stopping mid-game", d, len(entries))
		}
	}
	_ = io.EOF
}

func TestSwapEvaluator(t *testing.T) {
	cfg := testConfig(t, rules.Sho)
	cfg.Games = 1
	cfg.Rules.MaxPlies = 10
	r, _ := New(cfg, mcts.Uniform{}, "first")
	r.OnGame = func(rec *Record) { r.SetEvaluator(mcts.Random{}, "second") }
	if err := r.Run(context.Background(), 2); err != nil {
		t.Fatal(err)
	}
	_, recs := readRun(t, cfg.Dir)
	names := map[string]bool{}
	for _, rec := range recs {
		names[rec.Evaluator] = true
	}
	if !names["first"] {
		t.Errorf("evaluators used: %v", names)
	}
}
