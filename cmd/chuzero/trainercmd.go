package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"chuzero/checkpoints"
	"chuzero/model"
)

func init() {
	register(command{name: "trainer", summary: "training only, from the samples of a run directory", run: runTrainer})
}

// runTrainer implements "chuzero trainer -run DIR": it trains on the
// samples that self-play processes write into DIR and writes checkpoints
// there, which they pick up.
func runTrainer(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("trainer", "trainer [-run DIR] [-variant chu] [-max-steps N] [-duration D] [flags]", stderr)
	var rf runFlags
	rf.register(fs, true, false)
	maxSteps := fs.Int64("max-steps", 0, "stop, cleanly, once training reaches this step (0: no limit)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "chuzero trainer: %v\n", err)
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
	lc, err := cfg.loopConfig(dir)
	if err != nil {
		return fail(err)
	}
	if err := os.MkdirAll(lc.Samples, 0o755); err != nil {
		return fail(err)
	}
	ctx, stop := signalContext(rf.duration)
	defer stop()
	reg, m := newRegistry()
	store, err := checkpoints.Open(filepath.Join(dir, "checkpoints"))
	if err != nil {
		return fail(err)
	}
	loop, err := model.NewLoop(lc, store, log)
	if err != nil {
		return fail(err)
	}
	defer loop.Close()
	judge, err := newJudge(cfg, dir, store, m, log)
	if err != nil {
		return fail(err)
	}
	trainLog := newTrainLog(dir)
	var prog *progress
	if !rf.quiet {
		prog = newProgress(os.Stderr, log, rf.duration, *maxSteps)
		go prog.run(ctx)
	}
	loop.OnCheckpoint = func(e checkpoints.Entry, _ *model.Weights) {
		judge.checkpoint(e)
		m.checkpoint(e.Step)
		if prog != nil {
			prog.checkpoint(e.Name)
		}
	}
	loop.OnStep = func(i model.StepInfo) {
		m.step(i)
		trainLog.step(i, log)
		if prog != nil {
			prog.trainStep(i)
		}
	}
	addr, err := serveMetrics(ctx, cfg.Metrics, rf.set["metrics-addr"], reg, func() error { return ctx.Err() }, log)
	if err != nil {
		return fail(err)
	}
	if addr != "" {
		fmt.Fprintf(stdout, "metrics: http://%s/metrics\n", addr)
	}
	jctx, stopJudge := context.WithCancel(ctx)
	judged := make(chan struct{})
	go func() { judge.run(jctx); close(judged) }()
	err = loop.Run(ctx, *maxSteps)
	stopJudge()
	<-judged
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "stopped at step %d\n", loop.Step())
	return 0
}
