package main

import (
	"context"
	"fmt"
	"io"
	"os"
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
	ctx, stop := signalContext(rf.duration)
	defer stop()
	reg, m := newRegistry()
	ts, err := newTrainSide(cfg, dir, m, log)
	if err != nil {
		return fail(err)
	}
	defer ts.close()
	if !rf.quiet {
		ts.prog = newProgress(os.Stderr, log, rf.duration, *maxSteps)
		progCtx, stopProg := context.WithCancel(ctx)
		progDone := make(chan struct{})
		go func() { ts.prog.run(progCtx); close(progDone) }()
		defer func() { stopProg(); <-progDone }()
	}
	addr, stopMetrics, err := serveMetrics(cfg.Metrics, rf.set["metrics-addr"], reg, func() error { return ctx.Err() }, log)
	if err != nil {
		return fail(err)
	}
	defer stopMetrics()
	if addr != "" {
		fmt.Fprintf(stdout, "metrics: http://%s/metrics\n", addr)
	}
	if err := ts.run(ctx, *maxSteps); err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "stopped at step %d\n", ts.loop.Step())
	return 0
}
