package main

import (
	"context"
	"fmt"
	"io"
	"sync"

	"chuzero/checkpoints"
	"chuzero/model"
)

func init() {
	register(command{name: "train", summary: "the training job: self-play and training in one process", run: runTrain})
}

// runTrain implements "chuzero train -variant chu -run DIR": self-play
// workers and the trainer, concurrently, on the run directory; it resumes
// whatever the directory holds.
func runTrain(args []string, stdout, stderr io.Writer) int {
	j := newJob("train", "train [-variant chu] [-run DIR] [-config FILE] [-duration D] [-max-steps N] [flags]", true, true, stdout, stderr)
	maxSteps := j.fs.Int64("max-steps", 0, "stop, cleanly with exit status 0, once training reaches this step (0: no limit)")
	if code, done := j.open(args, maxSteps); done {
		return code
	}
	defer j.close()
	cfg := j.cfg
	j.log.Info("training run", "dir", j.dir, "variant", cfg.Variant, "model", cfg.Model.Preset, "blas", model.BLAS,
		"selfplay_games", cfg.Self.Games, "train_threads", cfg.Train.Threads, "selfplay_threads", cfg.Self.Threads)
	ts, err := newTrainSide(cfg, j.dir, j.m, j.log)
	if err != nil {
		return j.fail(err)
	}
	defer ts.close()
	sp, err := newTrainSelfPlayer(j, ts)
	if err != nil {
		return j.fail(err)
	}
	wireCheckpoints(j, ts, sp)
	if err := j.serve(); err != nil {
		return j.fail(err)
	}
	if err := runHalves(j, ts, sp, *maxSteps); err != nil {
		return j.fail(err)
	}
	st := sp.runner.Stats()
	j.log.Info("stopped", "step", ts.loop.Step(), "games", st.Games, "positions", st.Positions)
	fmt.Fprintf(stdout, "stopped at step %d; %d games, %d positions this session\n", ts.loop.Step(), st.Games, st.Positions)
	return 0
}

// newTrainSelfPlayer builds the self-play half of "train" beside ts, after
// the judge has read the run's evaluations: it plays the training loop's
// own network, or under gating the best checkpoint (the latest until one
// is promoted).
func newTrainSelfPlayer(j *job, ts *trainSide) (*selfPlayer, error) {
	cfg, m := j.cfg, j.m
	if err := ts.judge.Init(); err != nil {
		return nil, err
	}
	if best, ok := ts.judge.Best(); ok {
		m.bestStep.Set(float64(best.Step))
	}
	latest, err := playNetwork(j.dir, ts.store, cfg.Gating.Enabled)
	if err != nil {
		return nil, err
	}
	net := model.NewNet(ts.loop.Weights())
	if cfg.Gating.Enabled {
		if net, err = loadNet(latest, cfg.Variant); err != nil {
			return nil, err
		}
	}
	if j.prog != nil {
		j.prog.checkpoint(latest.Name)
	}
	ts.prog = j.prog
	sp, err := newSelfPlayer(cfg, j.dir, net, latest.Name, latest.Step, m, j.prog, j.log)
	if err != nil {
		return nil, err
	}
	m.evaluatorSteps.Set(float64(latest.Step))
	m.ckptStep.Set(float64(latest.Step))
	return sp, nil
}

// wireCheckpoints switches self-play to each new checkpoint of the
// training loop, or under gating to each one the judge promotes.
func wireCheckpoints(j *job, ts *trainSide, sp *selfPlayer) {
	cfg := j.cfg
	ts.afterCheckpoint = func(e checkpoints.Entry, w *model.Weights) {
		if cfg.Gating.Enabled {
			return // self-play changes network when the judge promotes one
		}
		if err := sp.use(model.NewNet(w), e.Name, e.Step); err != nil {
			j.log.Error("switching self-play to the new network failed", "err", err)
		}
	}
	ts.judge.Promote = func(e checkpoints.Entry) error {
		net, err := loadNet(e, cfg.Variant)
		if err != nil {
			return err
		}
		return sp.use(net, e.Name, e.Step)
	}
}

// runHalves runs training and self-play side by side, with the progress
// line, until j.ctx ends or training reaches maxSteps; training ending, or
// either half failing, stops the other. Both halves and the progress line
// have finished when it returns.
func runHalves(j *job, ts *trainSide, sp *selfPlayer, maxSteps int64) error {
	runCtx, cancel := context.WithCancel(j.ctx)
	defer cancel()
	j.startProgress(runCtx)
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	wg.Add(2)
	go func() {
		defer wg.Done()
		errs <- ts.run(runCtx, maxSteps)
		cancel() // the step bound, or an error: stop self-play too
	}()
	go func() {
		defer wg.Done()
		if err := playErr(runCtx, sp.run(runCtx, 0)); err != nil {
			errs <- fmt.Errorf("self-play: %w", err)
			cancel()
		}
	}()
	wg.Wait()
	j.stopProgress()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
