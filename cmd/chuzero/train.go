package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"chuzero/checkpoints"
	"chuzero/model"
	"chuzero/selfplay"
)

func init() {
	register(command{name: "train", summary: "the training job: self-play and training in one process", run: runTrain})
}

// runTrain implements "chuzero train -variant chu -run DIR": self-play
// workers and the trainer, concurrently, on the run directory; it resumes
// whatever the directory holds.
func runTrain(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("train", "train [-variant chu] [-run DIR] [-config FILE] [-duration D] [-max-steps N] [flags]", stderr)
	var rf runFlags
	rf.register(fs, true, true)
	maxSteps := fs.Int64("max-steps", 0, "stop, cleanly with exit status 0, once training reaches this step (0: no limit)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "chuzero train: %v\n", err)
		return 1
	}
	log, err := newLogger(stderr, rf.logFormat)
	if err != nil {
		return fail(err)
	}
	cfg, dir, err := rf.setup(fs)
	if err != nil {
		return fail(err)
	}
	ctx, stop := signalContext(rf.duration)
	defer stop()
	reg, m := newRegistry()
	log.Info("training run", "dir", dir, "variant", cfg.Variant, "model", cfg.Model.Preset, "blas", model.BLAS,
		"selfplay_games", cfg.Self.Games, "train_threads", cfg.Train.Threads, "selfplay_threads", cfg.Self.Threads)
	ts, err := newTrainSide(cfg, dir, m, log)
	if err != nil {
		return fail(err)
	}
	defer ts.close()
	if err := ts.judge.Init(); err != nil {
		return fail(err)
	}
	if best, ok := ts.judge.Best(); ok {
		m.bestStep.Set(float64(best.Step))
	}
	latest, err := playNetwork(dir, ts.store, cfg.Gating.Enabled)
	if err != nil {
		return fail(err)
	}
	net := model.NewNet(ts.loop.Weights())
	if cfg.Gating.Enabled {
		if net, err = loadNet(latest, cfg.Variant); err != nil {
			return fail(err)
		}
	}
	var prog *progress
	if !rf.quiet {
		prog = newProgress(os.Stderr, log, rf.duration, *maxSteps)
		prog.checkpoint(latest.Name)
	}
	ts.prog = prog
	sp, err := newSelfPlayer(cfg, dir, net, latest.Name, m, prog, log)
	if err != nil {
		return fail(err)
	}
	m.evaluatorSteps.Set(float64(latest.Step))
	m.ckptStep.Set(float64(latest.Step))
	ts.afterCheckpoint = func(e checkpoints.Entry, w *model.Weights) {
		if cfg.Gating.Enabled {
			return // self-play changes network when the judge promotes one
		}
		if err := sp.use(model.NewNet(w), e.Name, e.Step); err != nil {
			log.Error("switching self-play to the new network failed", "err", err)
		}
	}
	ts.judge.Promote = func(e checkpoints.Entry) error {
		net, err := loadNet(e, cfg.Variant)
		if err != nil {
			return err
		}
		return sp.use(net, e.Name, e.Step)
	}
	addr, stopMetrics, err := serveMetrics(cfg.Metrics, rf.set["metrics-addr"], reg, func() error { return ctx.Err() }, log)
	if err != nil {
		return fail(err)
	}
	defer stopMetrics()
	if addr != "" {
		log.Info("metrics", "url", "http://"+addr+"/metrics")
		fmt.Fprintf(stdout, "metrics: http://%s/metrics\n", addr)
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	if prog != nil {
		wg.Add(1)
		go func() { defer wg.Done(); prog.run(runCtx) }()
	}
	wg.Add(2)
	go func() {
		defer wg.Done()
		errs <- ts.run(runCtx, *maxSteps)
		cancel() // the step bound, or an error: stop self-play too
	}()
	go func() {
		defer wg.Done()
		// a write error counts even when it comes at shutdown
		if err := sp.run(runCtx, 0); err != nil && (runCtx.Err() == nil || errors.Is(err, selfplay.ErrWrite)) {
			errs <- fmt.Errorf("self-play: %w", err)
			cancel()
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return fail(err)
		}
	}
	st := sp.runner.Stats()
	log.Info("stopped", "step", ts.loop.Step(), "games", st.Games, "positions", st.Positions)
	fmt.Fprintf(stdout, "stopped at step %d; %d games, %d positions this session\n", ts.loop.Step(), st.Games, st.Positions)
	return 0
}
