package selfplay

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/mcts"
	"chuzero/mcts/eval"
	"chuzero/rules"
)

func testConfig(t *testing.T, v rules.VariantID) Config {
	cfg := DefaultConfig(v)
	cfg.Run = checkpoints.Run{Dir: t.TempDir()}
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
	files, _ := filepath.Glob(filepath.Join(dir, checkpoints.SamplesDir, "*"+encode.SampleFileExt))
	for _, f := range files {
		s, err := encode.ReadSampleFile(f)
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, s...)
	}
	files, _ = filepath.Glob(filepath.Join(dir, checkpoints.GamesDir, "*.jsonl"))
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
	samples, recs := readRun(t, cfg.Run.Dir)
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	plies, written := 0, 0
	spec := encode.MustSpec(rules.Sho, encode.DefaultOptions())
	for _, rec := range recs {
		g, err := rec.Replay()
		if err != nil {
			t.Fatal(err)
		}
		if rec.Plies == 0 || rec.Plies > cfg.MaxPlies || len(rec.Values) != rec.Plies || len(rec.Moves) != rec.Plies {
			t.Errorf("game %s: %d plies, reason %s", rec.ID, rec.Plies, rec.Reason)
		}
		if rec.Reason != rules.ReasonResign.String() && !rec.Truncated && !g.Result().Over() {
			t.Errorf("game %s did not end", rec.ID)
		}
		plies += rec.Plies
		written += rec.Samples
	}
	if len(samples) != written || written >= plies {
		t.Errorf("%d samples, records say %d, for %d plies", len(samples), written, plies)
	}
	full := 0
	for i := range samples {
		if err := samples[i].Validate(spec); err != nil {
			t.Fatal(err)
		}
		if samples[i].Aux == nil {
			t.Fatalf("sample %d has no auxiliary targets", i)
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
	if st.Games != 3 || st.Positions != int64(written) || st.Plies != int64(plies) || st.Files < 2 {
		t.Errorf("stats %+v", st)
	}
}

// TestSampleWritingRule: every full search is written, and a cheap search
// only at the CheapSampleFraction share (none at 0, all at 1); the records
// keep every ply.
func TestSampleWritingRule(t *testing.T) {
	for _, frac := range []float64{0, 0.3, 1} {
		cfg := testConfig(t, rules.Sho)
		cfg.CheapSampleFraction = frac
		cfg.MaxPlies = 60
		r, _ := New(cfg, mcts.Random{Seed: 2}, "random")
		if err := r.Run(context.Background(), 2); err != nil {
			t.Fatal(err)
		}
		samples, recs := readRun(t, cfg.Run.Dir)
		byGame := map[uint64]map[uint32]*encode.Sample{}
		for i := range samples {
			s := &samples[i]
			if byGame[s.GameID] == nil {
				byGame[s.GameID] = map[uint32]*encode.Sample{}
			}
			byGame[s.GameID][s.Ply] = s
		}
		cheap, cheapWritten := 0, 0
		for _, rec := range recs {
			if len(rec.Full) != len(rec.Values) || len(rec.Full) < rec.Plies {
				t.Fatalf("record of %d plies has %d searches", rec.Plies, len(rec.Full))
			}
			for ply, full := range rec.Full {
				s, ok := byGame[rec.Seed][uint32(ply)]
				switch {
				case full && (!ok || !s.FullSearch):
					t.Errorf("fraction %v, game %s ply %d: full search not written as one", frac, rec.ID, ply)
				case !full:
					cheap++
					if ok {
						cheapWritten++
						if s.FullSearch || len(s.Policy) != 0 {
							t.Errorf("cheap sample with a policy target")
						}
					}
				}
			}
		}
		share := float64(cheapWritten) / float64(max(cheap, 1))
		if (frac == 0 && cheapWritten != 0) || (frac == 1 && cheapWritten != cheap) || (frac == 0.3 && (share < 0.15 || share > 0.45)) {
			t.Errorf("fraction %v: %d of %d cheap searches written", frac, cheapWritten, cheap)
		}
	}
}

func TestChuGameCapped(t *testing.T) {
	cfg := testConfig(t, rules.Chu)
	cfg.Rules.MaxPlies = 40 // below the self-play cap: the rules end the game
	cfg.Games = 1
	r, err := New(cfg, mcts.NewCache(mcts.Uniform{}, 10000), "uniform")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	samples, recs := readRun(t, cfg.Run.Dir)
	if len(recs) != 1 || recs[0].Plies > 40 || len(samples) != recs[0].Samples || recs[0].Truncated {
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
		if want := encode.OutcomeFor(res, pos.SideToMove()); s.Outcome != want || s.Truncated {
			t.Errorf("sample %d: outcome %v truncated %v, want %v (game %v)", i, s.Outcome, s.Truncated, want, res)
		}
	}
}

// TestTruncatedGame: a game stopped by the self-play cap is a draw by
// "max plies" marked truncated in its record, its samples are truncated
// draws whose end value is the final search's root value for their side.
func TestTruncatedGame(t *testing.T) {
	cfg := testConfig(t, rules.Sho)
	noQuiescence(&cfg) // the root values are the evaluator's
	cfg.Games = 1
	cfg.MaxPlies = 15
	cfg.NoResignFraction = 1
	cfg.CheapSampleFraction = 1
	cfg.CappedMaterialWeight = 0 // the search's value alone (the blend: TestCappedValue)
	r, _ := New(cfg, senteWins{}, "biased")
	if err := r.Run(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	samples, recs := readRun(t, cfg.Run.Dir)
	rec := recs[0]
	last := rec.Values[len(rec.Values)-1] // ply 14: Sente's search
	if !rec.Truncated || rec.Plies != 15 || rec.Result != "1/2-1/2" || rec.Reason != "max plies" || rec.Winner != "" ||
		rec.EndValue != last || last < 0.9 {
		t.Fatalf("record: truncated %v, %d plies, %s (%s), winner %q, end value %v (last value %v)",
			rec.Truncated, rec.Plies, rec.Result, rec.Reason, rec.Winner, rec.EndValue, last)
	}
	if _, err := rec.Replay(); err != nil {
		t.Error(err)
	}
	if len(samples) != 15 {
		t.Fatalf("%d samples, want 15", len(samples))
	}
	for i, s := range samples {
		want := last
		if i%2 == 1 {
			want = -last
		}
		if !s.Truncated || s.Outcome != encode.Draw || s.EndValue != want {
			t.Errorf("sample %d: truncated %v outcome %v end value %v, want a draw with %v", i, s.Truncated, s.Outcome, s.EndValue, want)
		}
	}
	if st := r.Stats(); st.Truncated != 1 || st.Reasons["max plies"] != 1 {
		t.Errorf("stats %+v", st)
	}
}

// senteWins is an evaluator convinced that Sente is winning.
type senteWins struct{ mcts.Uniform }

func (e senteWins) Evaluate(ctx context.Context, reqs []*eval.Request) error {
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
	noQuiescence(&cfg) // the values are the biased evaluator's
	cfg.Rules.MaxPlies = 30
	cfg.NoResignFraction = 1
	cfg.ResignConsecutive = 2
	r, _ := New(cfg, senteWins{}, "biased")
	if err := r.Run(context.Background(), 4); err != nil {
		t.Fatal(err)
	}
	st := r.Stats()
	_, recs := readRun(t, cfg.Run.Dir)
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
	noQuiescence(&cfg)
	cfg.NoResignFraction = 0
	cfg.ResignConsecutive = 2
	r, _ = New(cfg, senteWins{}, "biased")
	if err := r.Run(context.Background(), 2); err != nil {
		t.Fatal(err)
	}
	if st := r.Stats(); st.Resigned != 2 || st.Results["1-0"] != 2 {
		t.Errorf("stats %+v: want two Gote resignations", st)
	}
	_, recs = readRun(t, cfg.Run.Dir)
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
		_, recs := readRun(t, cfg.Run.Dir)
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
	var moves atomic.Int64 // OnMove runs on every game's goroutine
	r.OnMove = func(bool, int) {
		if moves.Add(1) == 30 {
			cancel()
		}
	}
	if err := r.Run(ctx, 0); err != nil && err != context.Canceled {
		t.Fatal(err)
	}
	for _, d := range []string{checkpoints.SamplesDir, checkpoints.GamesDir} {
		entries, _ := os.ReadDir(filepath.Join(cfg.Run.Dir, d))
		if len(entries) != 0 {
			t.Errorf("%s has %d files after stopping mid-game", d, len(entries))
		}
	}
}

// countingEval counts the positions it is asked about.
type countingEval struct {
	mcts.Evaluator
	n atomic.Int64
}

func (c *countingEval) Evaluate(ctx context.Context, reqs []*eval.Request) error {
	c.n.Add(int64(len(reqs)))
	return c.Evaluator.Evaluate(ctx, reqs)
}

// TestSwapEvaluator swaps the evaluator during the first of two games
// played one at a time: the second game must search with the new one.
func TestSwapEvaluator(t *testing.T) {
	cfg := testConfig(t, rules.Sho)
	cfg.Games, cfg.GamesPerFile = 1, 1
	cfg.Rules.MaxPlies = 10
	second := &countingEval{Evaluator: mcts.Random{}}
	r, _ := New(cfg, mcts.Uniform{}, "first")
	var swapped atomic.Bool
	r.OnMove = func(bool, int) {
		if !swapped.Swap(true) {
			r.SetEvaluator(second, "second", 0)
		}
	}
	if err := r.Run(context.Background(), 2); err != nil {
		t.Fatal(err)
	}
	_, recs := readRun(t, cfg.Run.Dir)
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	for _, rec := range recs {
		want := map[uint64]string{0: "first", 1: "second"}[rec.Index]
		if rec.Evaluator != want {
			t.Errorf("game %d played by %q, want %q", rec.Index, rec.Evaluator, want)
		}
	}
	if second.n.Load() == 0 {
		t.Error("the second evaluator was never asked")
	}
}
