package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"chuzero/checkpoints"
	"chuzero/selfplay/training"
)

func init() {
	register(command{name: "selfplay", summary: "self-play only, into a run directory shared with a trainer", run: runSelfPlay})
}

// runSelfPlay implements "chuzero selfplay -run DIR": games with the
// newest checkpoint of DIR (the uniform evaluator until one exists),
// switching to each new checkpoint between games (run.Worker). Several
// such processes, on several machines sharing DIR or over NATS, can feed
// one "chuzero trainer".
func runSelfPlay(args []string, stdout, stderr io.Writer) int {
	j := newJob("selfplay", "selfplay [-run DIR] [-variant chu] [-games N] [-max-games N] [-duration D] [flags]", false, true, stdout, stderr)
	maxGames := j.fs.Int("max-games", 0, "stop after this many games (0: no limit)")
	poll := j.fs.Duration("poll", 10*time.Second, "how often to look for a new checkpoint (-nats: 1s)")
	var nf natsFlags
	nf.register(j.fs, false)
	j.beforeSetup = func() error {
		if !nf.on() {
			return nil
		}
		// the run config the trainer published, waiting for it until
		// SIGINT or SIGTERM (flags and -config still override it)
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		run := checkpoints.RunAt(j.rf.run, j.rf.variant)
		return training.FetchConfig(ctx, nf.options(nil).ClientConfig(run), run)
	}
	if code, done := j.open(args, nil); done {
		return code
	}
	defer j.close()
	o := j.options()
	wo := training.WorkerOptions{KeepSeed: j.rf.set["seed"]}
	if j.rf.set["poll"] {
		wo.Poll = *poll
	}
	if nf.on() {
		o.NATS = nf.options(nil)
	}
	w, err := training.NewWorker(j.ctx, o, wo)
	if err != nil {
		return j.fail(err)
	}
	defer w.Close()
	if err := j.serve(); err != nil {
		return j.fail(err)
	}
	j.startProgress(j.ctx)
	if err := w.Run(j.ctx, *maxGames); err != nil {
		return j.fail(err)
	}
	st := w.Stats()
	fmt.Fprintf(stdout, "stopped: %d games, %d positions\n", st.Games, st.Positions)
	return 0
}
