package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"chuzero/checkpoints"
	"chuzero/model"
	"chuzero/selfplay"
)

func init() {
	register(command{name: "selfplay", summary: "self-play only, into a run directory shared with a trainer", run: runSelfPlay})
}

// runSelfPlay implements "chuzero selfplay -run DIR": games with the
// newest checkpoint of DIR (the uniform evaluator until one exists),
// switching to each new checkpoint between games. Several such processes,
// on several machines sharing DIR, can feed one "chuzero trainer".
func runSelfPlay(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("selfplay", "selfplay [-run DIR] [-variant chu] [-games N] [-max-games N] [-duration D] [flags]", stderr)
	var rf runFlags
	rf.register(fs, false, true)
	maxGames := fs.Int("max-games", 0, "stop after this many games (0: no limit)")
	poll := fs.Duration("poll", 10*time.Second, "how often to look for a new checkpoint")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "chuzero selfplay: %v\n", err)
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
	store, err := checkpoints.Run{Dir: dir}.Store()
	if err != nil {
		return fail(err)
	}
	var prog *progress
	if !rf.quiet {
		prog = newProgress(os.Stderr, log, rf.duration, 0)
	}
	// a network if there is one; otherwise wait for the first (the
	// uniform evaluator plays meanwhile)
	var sp *selfPlayer
	latest, err := playNetwork(dir, store, cfg.Gating.Enabled)
	switch {
	case errors.Is(err, checkpoints.ErrNone):
		log.Info("no checkpoint yet: playing with the uniform evaluator until one appears")
		sp, err = newSelfPlayer(cfg, dir, nil, "", m, prog, log)
	case err != nil:
		return fail(err)
	default:
		var net *model.Net
		if net, err = loadNet(latest, cfg.Variant); err != nil {
			return fail(err)
		}
		sp, err = newSelfPlayer(cfg, dir, net, latest.Name, m, prog, log)
		if prog != nil {
			prog.checkpoint(latest.Name)
		}
		m.evaluatorSteps.Set(float64(latest.Step))
	}
	if err != nil {
		return fail(err)
	}
	addr, stopMetrics, err := serveMetrics(cfg.Metrics, rf.set["metrics-addr"], reg, func() error { return ctx.Err() }, log)
	if err != nil {
		return fail(err)
	}
	defer stopMetrics()
	if addr != "" {
		fmt.Fprintf(stdout, "metrics: http://%s/metrics\n", addr)
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if prog != nil {
		progDone := make(chan struct{})
		go func() { prog.run(runCtx); close(progDone) }()
		defer func() { cancel(); <-progDone }()
	}
	// a uniform self-player cannot switch networks: when the first
	// checkpoint appears it stops, and the loop starts a network one
	for {
		watchCtx, stopWatch := context.WithCancel(runCtx)
		watched := make(chan struct{})
		go func() { sp.watch(watchCtx, dir, store, cfg, *poll, stopWatch); close(watched) }()
		err := sp.run(watchCtx, *maxGames)
		stopWatch()
		<-watched // no switch after the games have stopped
		if err != nil && (watchCtx.Err() == nil || errors.Is(err, selfplay.ErrWrite)) {
			return fail(err)
		}
		if runCtx.Err() != nil || sp.batcher != nil || (*maxGames > 0 && int(sp.runner.Stats().Games) >= *maxGames) {
			break
		}
		latest, err := playNetwork(dir, store, cfg.Gating.Enabled)
		if err != nil {
			continue
		}
		net, err := loadNet(latest, cfg.Variant)
		if err != nil {
			return fail(err)
		}
		if sp, err = newSelfPlayer(cfg, dir, net, latest.Name, m, prog, log); err != nil {
			return fail(err)
		}
		log.Info("self-play switched from the uniform evaluator to a network", "checkpoint", latest.Name)
	}
	st := sp.runner.Stats()
	fmt.Fprintf(stdout, "stopped: %d games, %d positions\n", st.Games, st.Positions)
	return 0
}

// playNetwork returns the checkpoint self-play should use: the latest, or
// under gating the best (best.json), the latest until there is one.
func playNetwork(dir string, store *checkpoints.Store, gating bool) (checkpoints.Entry, error) {
	if gating {
		if e, ok, err := (checkpoints.Run{Dir: dir}).ReadBest(); err != nil || ok {
			return e, err
		}
	}
	return store.Latest()
}

// watch polls the store and switches new games to each new checkpoint; a
// self-player without a network calls restart instead when the first one
// appears.
func (s *selfPlayer) watch(ctx context.Context, dir string, store *checkpoints.Store, cfg RunConfig, poll time.Duration, restart func()) {
	variant := cfg.Variant
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		e, err := playNetwork(dir, store, cfg.Gating.Enabled)
		if err != nil || e.Step <= s.step {
			continue
		}
		if s.batcher == nil {
			restart()
			return
		}
		net, err := loadNet(e, variant)
		if err != nil {
			s.log.Error("cannot load the new checkpoint", "checkpoint", e.Name, "err", err)
			s.step = e.Step // do not retry it every poll
			continue
		}
		if err := s.use(net, e.Name, e.Step); err != nil {
			s.log.Error("switching network failed", "err", err)
		}
	}
}
