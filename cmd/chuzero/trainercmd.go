package main

import (
	"fmt"
	"io"
)

func init() {
	register(command{name: "trainer", summary: "training only, from the samples of a run directory", run: runTrainer})
}

// runTrainer implements "chuzero trainer -run DIR": it trains on the
// samples that self-play processes write into DIR and writes checkpoints
// there, which they pick up.
func runTrainer(args []string, stdout, stderr io.Writer) int {
	j := newJob("trainer", "trainer [-run DIR] [-variant chu] [-max-steps N] [-duration D] [flags]", true, false, stdout, stderr)
	maxSteps := j.fs.Int64("max-steps", 0, "stop, cleanly, once training reaches this step (0: no limit)")
	var nf natsFlags
	nf.register(j.fs, true)
	if code, done := j.open(args, maxSteps); done {
		return code
	}
	defer j.close()
	ts, err := newTrainSide(j.cfg, j.dir, j.m, j.log)
	if err != nil {
		return j.fail(err)
	}
	defer ts.close()
	ts.prog = j.prog
	if nf.on() {
		nt, err := startNatsTrainer(j, &nf, ts)
		if err != nil {
			return j.fail(err)
		}
		defer nt.close()
	}
	j.startProgress(j.ctx)
	if err := j.serve(); err != nil {
		return j.fail(err)
	}
	if err := ts.run(j.ctx, *maxSteps); err != nil {
		return j.fail(err)
	}
	fmt.Fprintf(stdout, "stopped at step %d\n", ts.loop.Step())
	return 0
}
