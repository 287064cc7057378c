package main

import (
	"fmt"
	"io"

	"chuzero/selfplay/training"
)

func init() {
	register(command{name: "trainer", summary: "training only, from the samples of a run directory", run: runTrainer})
}

// runTrainer implements "chuzero trainer -run DIR": it trains on the
// samples that self-play processes write into DIR (or publish over NATS)
// and writes checkpoints there, which they pick up (run.Trainer).
func runTrainer(args []string, stdout, stderr io.Writer) int {
	j := newJob("trainer", "trainer [-run DIR] [-variant chu] [-max-steps N] [-duration D] [flags]", true, false, stdout, stderr)
	maxSteps := j.fs.Int64("max-steps", 0, "stop, cleanly, once training reaches this step (0: no limit)")
	var nf natsFlags
	nf.register(j.fs, true)
	if code, done := j.open(args, maxSteps); done {
		return code
	}
	defer j.close()
	o := j.options()
	if nf.on() {
		o.NATS = nf.options(stdout)
	}
	t, err := training.NewTrainer(j.ctx, o)
	if err != nil {
		return j.fail(err)
	}
	defer t.Close()
	j.startProgress(j.ctx)
	if err := j.serve(); err != nil {
		return j.fail(err)
	}
	if err := t.Run(j.ctx, *maxSteps); err != nil {
		return j.fail(err)
	}
	fmt.Fprintf(stdout, "stopped at step %d\n", t.Step())
	return 0
}
