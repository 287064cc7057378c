package training

import (
	"context"
	"log/slog"
	"os"

	"chuzero/checkpoints"
	"chuzero/model"
)

// trainSide is the training half of a run, shared by "train" and
// "trainer": the checkpoint store, the training loop, the judge
// (evaluation and gating) and the training log, wired to the metrics and
// the progress display.
type trainSide struct {
	store *checkpoints.Store
	loop  *model.Loop
	judge *Judge
	// obs is shown checkpoints and steps.
	obs Observer
	// afterCheckpoint, if set, runs after each new checkpoint has been
	// counted, shown and handed to the judge (train: self-play switches).
	afterCheckpoint func(checkpoints.Entry, *model.Weights)
}

// newTrainSide opens the run's store and training loop and builds the
// judge, with the loop's checkpoints and steps wired to the metrics, the
// training log, the judge and obs; close releases it.
func newTrainSide(cfg Config, run checkpoints.Run, m *Metrics, obs Observer, log *slog.Logger) (*trainSide, error) {
	lc, err := cfg.LoopConfig(run)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(lc.Samples, 0o755); err != nil {
		return nil, err
	}
	store, err := run.Store()
	if err != nil {
		return nil, err
	}
	ra, err := cfg.reanalyser(run, &lc)
	if err != nil {
		return nil, err
	}
	loop, err := model.NewLoop(lc, store, log)
	if err != nil {
		return nil, err
	}
	if ra != nil {
		ra.set(loop.Step(), loop.Weights()) // the checkpoint resumed from, or the fresh step 0
	}
	j, err := newJudge(cfg, run, store, m, log)
	if err != nil {
		loop.Close()
		return nil, err
	}
	t := &trainSide{store: store, loop: loop, judge: j, obs: obs}
	trainLog := newTrainLog(run)
	loop.OnCheckpoint = func(e checkpoints.Entry, w *model.Weights) {
		m.checkpoint(e.Step)
		if ra != nil {
			ra.set(e.Step, w)
		}
		t.obs.Checkpoint(e.Name)
		j.Checkpoint(e)
		if t.afterCheckpoint != nil {
			t.afterCheckpoint(e, w)
		}
	}
	loop.OnRefresh = func(d model.RefreshInfo) { // the loop logs the errors
		m.corruptFiles.Add(float64(d.CorruptFiles))
		m.invalidSamples.Add(float64(d.InvalidSamples))
		m.prunedFiles.Add(float64(d.PrunedFiles))
		m.quarantinedFiles.Add(float64(d.Quarantined))
	}
	loop.OnStep = func(i model.StepInfo) {
		m.step(i)
		trainLog.step(i, log)
		t.obs.TrainStep(i)
	}
	return t, nil
}

// run trains until ctx ends or the loop reaches maxSteps, with the judge
// beside it; the judge stops with the loop.
func (t *trainSide) run(ctx context.Context, maxSteps int64) error {
	jctx, stopJudge := context.WithCancel(ctx)
	judged := make(chan struct{})
	go func() { t.judge.Run(jctx); close(judged) }()
	err := t.loop.Run(ctx, maxSteps)
	stopJudge()
	<-judged
	return err
}

// close releases the loop.
func (t *trainSide) close() { t.loop.Close() }
