package model

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"chuzero/checkpoints"
	"chuzero/checkpoints/jsondur"
	"chuzero/encode"
	"chuzero/rules"
)

// writeSampleFile writes one file of samples from a seeded random game.
func writeSampleFile(t *testing.T, dir string, v rules.VariantID, seed uint64, plies int) {
	t.Helper()
	samples := gameSamples(t, v, seed, plies)
	w, err := encode.CreateSampleFile(filepath.Join(dir, "f"+string(rune('a'+seed))+encode.SampleFileExt), v)
	if err != nil {
		t.Fatal(err)
	}
	w.WriteChunk(samples)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func testLoopConfig(dir string) LoopConfig {
	cfg := DefaultLoopConfig(rules.Sho)
	cfg.Model = Presets["tiny"]
	cfg.Train.Batch = 8
	cfg.Samples = dir
	cfg.MinSamples = 16
	cfg.MaxReuse = 100
	cfg.CheckpointEvery = 3
	cfg.Poll = jsondur.Duration(10 * time.Millisecond)
	cfg.Replay.WindowMin = 50
	cfg.MinGames = 0
	return cfg
}

// loopFixture returns a fresh run's store, a silent log and the test loop
// config over three sample files of 30 plies.
func loopFixture(t *testing.T) (*checkpoints.Store, *slog.Logger, LoopConfig) {
	t.Helper()
	run := t.TempDir()
	samples := filepath.Join(run, "samples")
	store, _ := checkpoints.Open(filepath.Join(run, "checkpoints"))
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for i := uint64(0); i < 3; i++ {
		writeSampleFile(t, mustDir(t, samples), rules.Sho, i, 30)
	}
	cfg := testLoopConfig(samples)
	return store, log, cfg
}

func TestLoopResumes(t *testing.T) {
	store, log, cfg := loopFixture(t)
	l, err := NewLoop(cfg, store, log)
	if err != nil {
		t.Fatal(err)
	}
	if e, err := store.Latest(); err != nil || e.Step != 0 {
		t.Fatalf("a fresh run should save step 0: %+v %v", e, err)
	}
	var infos []StepInfo
	l.OnStep = func(i StepInfo) { infos = append(infos, i) }
	if err := l.Run(context.Background(), 5); err != nil {
		t.Fatal(err)
	}
	l.Close()
	l2, err := NewLoop(cfg, store, log)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if l2.Step() != 5 || l2.trainer.OptimizerStep() != 5 {
		t.Errorf("resumed at step %d (optimizer %d), want 5", l2.Step(), l2.trainer.OptimizerStep())
	}
	list, _ := store.List()
	if len(list) < 3 {
		t.Errorf("checkpoints: %+v", list)
	}
	if len(infos) < 5 || infos[len(infos)-1].Step != 5 || infos[len(infos)-1].LR <= 0 {
		t.Errorf("step reports: %+v", infos[len(infos)-1])
	}
	// the reuse cap makes the loop wait for data
	cfg.MaxReuse = 0.01
	l3, _ := NewLoop(cfg, store, log)
	defer l3.Close()
	waiting := false
	l3.OnStep = func(i StepInfo) { waiting = waiting || i.Waiting }
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	l3.Run(ctx, 100)
	if !waiting || l3.Step() != 5 {
		t.Errorf("with the reuse cap reached the loop stepped to %d (waiting %v)", l3.Step(), waiting)
	}
}

func mustDir(t *testing.T, dir string) string {
	t.Helper()
	if err := osMkdirAll(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLearningRateSchedule(t *testing.T) {
	cfg := DefaultLoopConfig(rules.Chu)
	cfg.Schedule = []LRStep{{0, 1e-3}, {100, 1e-4}}
	cfg.WarmupSteps = 10
	for _, c := range []struct {
		step int64
		want float64
	}{{0, 1e-4}, {9, 1e-3}, {50, 1e-3}, {100, 1e-4}, {1000, 1e-4}} {
		if got := cfg.LearningRate(c.step); got < c.want*0.999 || got > c.want*1.001 {
			t.Errorf("LearningRate(%d) = %v, want %v", c.step, got, c.want)
		}
	}
}

// TestCheckpointInterval: with slow steps (a fake clock advancing a minute
// a step) a checkpoint is written every CheckpointInterval, between the
// CheckpointEvery ones; the time spent waiting for the first data (ten
// minutes here, with no step since the last checkpoint) does not count.
func TestCheckpointInterval(t *testing.T) {
	run := t.TempDir()
	samples := mustDir(t, filepath.Join(run, "samples"))
	store, _ := checkpoints.Open(filepath.Join(run, "checkpoints"))
	cfg := testLoopConfig(samples)
	cfg.CheckpointEvery, cfg.CheckpointInterval, cfg.KeepLast = 5, jsondur.Duration(3*time.Minute), 100
	l, err := NewLoop(cfg, store, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	clock := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	l.now = func() time.Time { return clock }
	wrote := false
	l.OnStep = func(i StepInfo) {
		switch {
		case !i.Waiting:
			clock = clock.Add(time.Minute)
		case !wrote:
			clock = clock.Add(10 * time.Minute)
			for i := uint64(0); i < 3; i++ {
				writeSampleFile(t, samples, rules.Sho, i, 30)
			}
			wrote = true
		}
	}
	if err := l.Run(context.Background(), 11); err != nil {
		t.Fatal(err)
	}
	list, _ := store.List()
	var steps []int64
	for _, e := range list {
		steps = append(steps, e.Step)
	}
	// 3 by time, 5 by steps (each resets the clock), 8 by time, 10 by
	// steps, 11 at the end
	want := []int64{0, 3, 5, 8, 10, 11}
	if !wrote || fmt.Sprint(steps) != fmt.Sprint(want) {
		t.Errorf("checkpoints at steps %v, want %v (waited for data: %v)", steps, want, wrote)
	}
}

// A residual value head: the loop refuses to train it without a baseline,
// draws the baseline for every sample of a batch, and keeps the residual
// in its checkpoints, so a resumed run (configured without one) trains the
// same head.
func TestLoopResidual(t *testing.T) {
	store, log, cfg := loopFixture(t)
	cfg.Model.ValueResidual = 0.75
	if _, err := NewLoop(cfg, store, log); err == nil {
		t.Fatal("a residual head without a baseline was accepted")
	}
	calls := 0
	cfg.Baseline = func(s *encode.Sample) (float64, error) { calls++; return 0.5, nil }
	l, err := NewLoop(cfg, store, log)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Run(context.Background(), 3); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if calls < 3*cfg.Train.Batch {
		t.Errorf("the baseline was drawn %d times in 3 steps of %d", calls, cfg.Train.Batch)
	}
	cfg.Model.ValueResidual = 0
	l2, err := NewLoop(cfg, store, log)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if r := l2.Weights().Config.ValueResidual; r != 0.75 || l2.Step() != 3 {
		t.Errorf("resumed at step %d with residual %v, want 3 and the checkpoint's 0.75", l2.Step(), r)
	}
}
