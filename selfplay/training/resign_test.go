package training

import (
	"context"
	"errors"
	"path/filepath"
	"sort"
	"testing"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay"
)

// TestRunResign: the trainer's calibration publishes the threshold a
// calibrator of the same records finds, retries a failed publication at
// the next batch, and a restarted one, seeded from the run's games, goes
// on with the same value.
func TestRunResign(t *testing.T) {
	spc := selfplay.DefaultConfig(rules.Sho)
	run := checkpoints.Run{Dir: t.TempDir()}
	spc.Run, spc.Games, spc.GamesPerFile, spc.Seed = run, 2, 1, 7
	spc.FullSimulations, spc.CheapSimulations, spc.MaxPlies = 4, 2, 40
	spc.NoResignFraction, spc.ResignMinGames = 1, 2
	spc.ResignCeiling = 0.9 // not the ceiling: the games decide
	r, err := selfplay.New(spc, mcts.Random{Seed: 7}, "random")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), 6); err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(run.Games(), "*"+checkpoints.RecordExt))
	sort.Strings(names)
	var recs []selfplay.Record
	for _, n := range names {
		rs, err := selfplay.ReadRecords(n)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rs...)
	}
	ref, want := selfplay.NewResignCalibrator(spc), 2.0
	for i := range recs {
		if th, ok := ref.Add(&recs[i]); ok {
			want = th
		}
	}
	if want == 2 {
		t.Fatalf("the %d games never calibrated a threshold", len(recs))
	}
	var published []float64
	fail := true
	publish := func(_ context.Context, th float64) error {
		if fail {
			fail = false
			return errors.New("no connection")
		}
		published = append(published, th)
		return nil
	}
	rr := newRunResign(spc, run, publish, nil)
	for i := range recs {
		rr.add(context.Background(), recs[i:i+1])
	}
	if len(published) == 0 || published[len(published)-1] != want || rr.published != want {
		t.Errorf("published %v, want the last to be %v", published, want)
	}
	again := newRunResign(spc, run, func(_ context.Context, th float64) error { published = append(published, th); return nil }, nil)
	if err := again.seed(context.Background()); err != nil || again.published != want {
		t.Errorf("seeded from the run: %v (%v), want %v", again.published, err, want)
	}
}
