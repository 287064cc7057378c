package selfplay

import (
	"context"
	"math"
	"testing"

	"chuzero/rules"
)

// history builds observations: lows of sides that lost, then lows of
// sides that did not.
func history(lost, notLost []float64) []ResignObservation {
	var out []ResignObservation
	for _, l := range lost {
		out = append(out, ResignObservation{Low: l, Lost: true})
	}
	for _, l := range notLost {
		out = append(out, ResignObservation{Low: l})
	}
	return out
}

// repeat returns n copies of v.
func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestCalibrateResign(t *testing.T) {
	cases := []struct {
		name    string
		obs     []ResignObservation
		target  float64
		ceiling float64
		want    float64
	}{
		{"no games: the ceiling", nil, 0.05, -0.8, -0.8},
		{"only losers: the ceiling", history([]float64{-0.99, -0.9, -0.85}, nil), 0.05, -0.8, -0.8},
		{"never low: the ceiling", history(nil, []float64{1, 0.5, -0.2}), 0.05, -0.8, -0.8},
		// a side that came back from -0.9: resigning must stay below it
		{"one comeback", history([]float64{-0.99, -0.98, -0.97}, []float64{-0.9}), 0.05, -0.8, -0.9},
		// 1 false of 20 is 5%, not under 5%; 1 of 21 is under
		{"rate at the target is refused", history(repeat(-0.95, 19), []float64{-0.96}), 0.05, -0.8, -0.96},
		{"rate under the target is taken", history(repeat(-0.95, 20), []float64{-0.96}), 0.05, -0.8, -0.8},
		// the most eager threshold wins even past a few false positives
		{"eager past a dip", history(append(repeat(-0.99, 40), repeat(-0.85, 40)...), []float64{-0.98, -0.7}), 0.05, -0.8, -0.8},
		{"a comeback that everybody shares", history(nil, []float64{-0.99, -0.98}), 0.05, 0, -0.99},
		{"a lax target", history([]float64{-0.99, -0.95}, []float64{-0.97}), 0.5, -0.5, -0.5},
	}
	for _, c := range cases {
		if got := CalibrateResign(c.obs, c.target, c.ceiling); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: CalibrateResign = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestResignTracker: Low is the lowest level a side stayed at or below for
// n searches in a row.
func TestResignTracker(t *testing.T) {
	tr := newResignTracker(3)
	sente := []float64{-0.5, -0.9, -0.95, -0.97, -0.2, -0.99, -0.99}
	wantHigh := []float64{1, 1, -0.5, -0.9, -0.2, -0.2, -0.2}
	for i, q := range sente {
		if got := tr.add(rules.Sente, q); got != wantHigh[i] {
			t.Errorf("search %d: window high %v, want %v", i, got, wantHigh[i])
		}
		tr.add(rules.Gote, 0.9) // the other side's values do not mix in
	}
	obs := tr.observations(rules.WinFor(rules.Gote, rules.ReasonBareKing))
	if obs[rules.Sente] != (ResignObservation{Low: -0.9, Lost: true}) || obs[rules.Gote] != (ResignObservation{Low: 0.9}) {
		t.Errorf("observations %+v", obs)
	}
	if obs := newResignTracker(2).observations(rules.Result{Outcome: rules.Draw}); obs[0].Low != 1 || obs[0].Lost || obs[1].Lost {
		t.Errorf("a side that never searched: %+v", obs)
	}
}

// TestResignCalibrator: the configured threshold until minGames, then the
// calibration over the last window games only.
func TestResignCalibrator(t *testing.T) {
	c := resignCalibrator{window: 4, minGames: 2, target: 0.05, ceiling: -0.8}
	comeback := [2]ResignObservation{{Low: -0.9}, {Low: 1, Lost: true}}
	loss := [2]ResignObservation{{Low: -0.99, Lost: true}, {Low: 1}}
	if _, ok := c.add(comeback); ok {
		t.Fatalf("calibrated after one game")
	}
	if got, ok := c.add(loss); !ok || got != -0.9 {
		t.Errorf("after a comeback: %v, %v; want -0.9", got, ok)
	}
	for range 3 {
		c.add(loss)
	}
	if got, _ := c.add(loss); got != -0.8 || len(c.games) != 4 {
		t.Errorf("after the comeback left the window: %v over %d games; want the ceiling", got, len(c.games))
	}
}

// TestRunnerCalibratesThreshold: games without resignation in which Gote's
// value sits near -0.98 and Gote does not lose (the ply cap draws them)
// push the live threshold below Gote's level once enough games exist.
func TestRunnerCalibratesThreshold(t *testing.T) {
	cfg := testConfig(t, rules.Sho)
	noQuiescence(&cfg) // the values are the evaluator's
	cfg.Games, cfg.GamesPerFile = 1, 1
	cfg.MaxPlies = 12
	cfg.NoResignFraction = 1
	cfg.ResignConsecutive = 2
	cfg.ResignMinGames = 3
	r, err := New(cfg, senteWins{}, "biased")
	if err != nil {
		t.Fatal(err)
	}
	var seen []float64
	r.OnGame = func(rec *Record) { seen = append(seen, r.ResignThreshold()) }
	if err := r.Run(context.Background(), 4); err != nil {
		t.Fatal(err)
	}
	_, recs := readRun(t, cfg.Run.Dir)
	low := 1.0
	for _, rec := range recs {
		if rec.ResignLow == nil || !rec.Truncated {
			t.Fatalf("record %+v: want a truncated game with resign_low", rec)
		}
		low = min(low, float64(rec.ResignLow[rules.Gote]))
	}
	if len(seen) != 4 || seen[0] != cfg.ResignThreshold || seen[1] != cfg.ResignThreshold {
		t.Fatalf("thresholds after each game %v: want the configured %v before 3 games", seen, cfg.ResignThreshold)
	}
	if got := r.ResignThreshold(); got > low || got >= cfg.ResignThreshold {
		t.Errorf("calibrated threshold %v; want at most Gote's level %v, below the configured %v", got, low, cfg.ResignThreshold)
	}
	// the games before the calibration would have resigned at the configured
	// threshold; the last one starts before or after the third is counted
	// (the writer counts games), so it may already play at the lower one
	checked := 0
	for _, rec := range recs {
		if rec.WouldResign != nil {
			checked++
		}
	}
	if st := r.Stats(); checked < 3 || st.ResignChecked != int64(checked) || st.ResignFalse != st.ResignChecked || st.Truncated != 4 {
		t.Errorf("stats %+v; %d records with would_resign", st, checked)
	}
	// a trainer calibrating from the records finds the same threshold
	rc := NewResignCalibrator(cfg)
	var fromRecs float64
	for i, rec := range recs {
		th, ok := rc.Add(&rec)
		if ok != (i >= 2) {
			t.Errorf("record %d: calibrated %v", i, ok)
		}
		fromRecs = th
	}
	if math.Abs(fromRecs-r.ResignThreshold()) > 1e-6 {
		t.Errorf("threshold from the records %v, the runner's %v", fromRecs, r.ResignThreshold())
	}
	// the run's threshold, once there is one, wins over the runner's own
	run := math.NaN()
	r.RunResign = func() (float64, bool) { return run, !math.IsNaN(run) }
	if got := r.ResignThreshold(); math.Abs(got-fromRecs) > 1e-6 {
		t.Errorf("no run threshold yet: %v, want the runner's own", got)
	}
	if run = -0.9; r.ResignThreshold() != -0.9 {
		t.Errorf("with the run's -0.9: %v", r.ResignThreshold())
	}
}
