package natsjs

import (
	"bytes"
	"context"
	"testing"
	"time"

	"chuzero/mcts"
	"chuzero/selfplay"
)

// TestRunResignThreshold: the trainer calibrates the resignation
// threshold from the games of the batches it writes and publishes it; a
// worker following the key gets the value a calibrator of the same
// records finds; a restarted trainer, seeded from its run directory,
// goes on with the same value.
func TestRunResignThreshold(t *testing.T) {
	s := startServer(t, t.TempDir(), 0)
	defer stopServer(s)
	ctx := context.Background()
	cfg := testConfig(s.ClientURL())
	spc := selfPlayConfig(t, 7)
	spc.NoResignFraction, spc.ResignMinGames = 1, 2
	spc.ResignCeiling = 0.9 // not the ceiling: the games decide
	var c capture
	r, err := selfplay.New(spc, mcts.Random{Seed: 7}, "random")
	if err != nil {
		t.Fatal(err)
	}
	r.Publisher = &c
	if err := r.Run(ctx, 4); err != nil {
		t.Fatal(err)
	}
	ref := selfplay.NewResignCalibrator(spc)
	want := 0.0
	for _, b := range c.batches {
		recs, err := selfplay.DecodeRecords(bytes.NewReader(b.Records), b.Name)
		if err != nil {
			t.Fatal(err)
		}
		for i := range recs {
			if th, ok := ref.Add(&recs[i]); ok {
				want = th
			}
		}
	}
	tdir := t.TempDir()
	tr := newTrainer(t, cfg, tdir, nil)
	tr.Resign = selfplay.NewResignCalibrator(spc)
	stop := receive(tr)
	w := newWorker(t, cfg, nil)
	defer w.Close()
	got := make(chan float64, 16)
	fctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { w.FollowResign(fctx, func(th float64) { got <- th }); close(done) }()
	defer func() { cancel(); <-done }()
	publishAll(t, w, c.batches)
	haveBatches(t, tdir, len(c.batches))
	stop()
	tr.Close()
	last := 2.0
	for timeout := time.After(guard); last != want; {
		select {
		case last = <-got:
		case <-timeout:
			t.Fatalf("the worker got %v, want the run's %v", last, want)
		}
	}
	t.Logf("run-wide threshold %v over %d games", want, len(c.batches))

	tr = newTrainer(t, cfg, tdir, nil)
	defer tr.Close()
	tr.Resign = selfplay.NewResignCalibrator(spc)
	if err := tr.SeedResign(ctx); err != nil || tr.resignPublish != want {
		t.Errorf("restarted trainer: threshold %v (%v), want %v", tr.resignPublish, err, want)
	}
}
