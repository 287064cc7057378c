package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"chuzero/checkpoints"
	"chuzero/selfplay/transport"
)

func init() {
	register(command{name: "selfplay", summary: "self-play only, into a run directory shared with a trainer", run: runSelfPlay})
}

// runSelfPlay implements "chuzero selfplay -run DIR": games with the
// newest checkpoint of DIR (the uniform evaluator until one exists),
// switching to each new checkpoint between games. Several such processes,
// on several machines sharing DIR, can feed one "chuzero trainer".
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
		return nf.fetchConfig(runDirOf(j.rf.run, j.rf.variant))
	}
	if code, done := j.open(args, nil); done {
		return code
	}
	defer j.close()
	store, err := checkpoints.Run{Dir: j.dir}.Store()
	if err != nil {
		return j.fail(err)
	}
	var pub transport.Publisher
	source := dirNetwork(j.dir, store, j.cfg.Gating.Enabled)
	if nf.on() {
		if nf.worker == "" {
			host, _ := os.Hostname()
			nf.worker = fmt.Sprintf("%s-%d", host, os.Getpid())
		}
		if !j.rf.set["seed"] {
			j.cfg.Seed = workerSeed(j.cfg.Seed, nf.worker) // every worker its own games
		}
		if !j.rf.set["poll"] {
			*poll = time.Second // the local store, which Follow fills
		}
		nw, err := startNatsWorker(j.ctx, j, &nf, store)
		if err != nil {
			return j.fail(err)
		}
		defer nw.stop()
		pub, source = nw, nw.network
	}
	sp, err := newFirstSelfPlayer(j, source)
	if err != nil {
		return j.fail(err)
	}
	attachPublisher(sp, pub)
	if err := j.serve(); err != nil {
		return j.fail(err)
	}
	runCtx, cancel := context.WithCancel(j.ctx)
	defer cancel()
	j.startProgress(runCtx)
	if sp, err = playRounds(runCtx, j, source, sp, pub, *maxGames, *poll); err != nil {
		return j.fail(err)
	}
	st := sp.runner.Stats()
	fmt.Fprintf(stdout, "stopped: %d games, %d positions\n", st.Games, st.Positions)
	return 0
}

// newFirstSelfPlayer returns the self-player of "selfplay" at start: with
// the network self-play should use if there is one; otherwise with the
// uniform evaluator, which plays until the first checkpoint appears.
func newFirstSelfPlayer(j *job, source networkSource) (*selfPlayer, error) {
	latest, err := source()
	switch {
	case errors.Is(err, checkpoints.ErrNone):
		j.log.Info("no checkpoint yet: playing with the uniform evaluator until one appears")
		return newSelfPlayer(j.cfg, j.dir, nil, "", -1, j.m, j.prog, j.log)
	case err != nil:
		return nil, err
	}
	return newNetworkSelfPlayer(j, latest)
}

// newNetworkSelfPlayer returns a self-player with the network of e, and
// shows it (progress line, evaluator-step gauge).
func newNetworkSelfPlayer(j *job, e checkpoints.Entry) (*selfPlayer, error) {
	net, err := loadNet(e, j.cfg.Variant)
	if err != nil {
		return nil, err
	}
	sp, err := newSelfPlayer(j.cfg, j.dir, net, e.Name, e.Step, j.m, j.prog, j.log) // the watcher switches to the source's next network
	if err != nil {
		return nil, err
	}
	if j.prog != nil {
		j.prog.checkpoint(e.Name)
	}
	j.m.evaluatorSteps.Set(float64(e.Step))
	return sp, nil
}

// playRounds plays until ctx ends or sp has played maxGames games (0: no
// limit), and returns the self-player that played last. A uniform
// self-player cannot switch networks: when the first checkpoint appears
// its round stops, and the next round plays with a network one.
func playRounds(ctx context.Context, j *job, source networkSource, sp *selfPlayer, pub transport.Publisher, maxGames int, poll time.Duration) (*selfPlayer, error) {
	for {
		if err := sp.playWatched(ctx, source, j.cfg.Variant, poll, maxGames); err != nil {
			return nil, err
		}
		if ctx.Err() != nil || sp.batcher != nil || (maxGames > 0 && int(sp.runner.Stats().Games) >= maxGames) {
			return sp, nil
		}
		latest, err := source()
		if err != nil {
			continue
		}
		if sp, err = newNetworkSelfPlayer(j, latest); err != nil {
			return nil, err
		}
		attachPublisher(sp, pub)
		j.log.Info("self-play switched from the uniform evaluator to a network", "checkpoint", latest.Name)
	}
}
