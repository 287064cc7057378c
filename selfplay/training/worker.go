package training

import (
	"context"
	"errors"
	"time"

	"chuzero/checkpoints"
	"chuzero/selfplay"
	"chuzero/selfplay/transport"
)

// Worker is self-play alone: games with the run's network (the uniform
// evaluator until there is one), switching to each new network between
// games. Several workers, on machines sharing the run directory or over
// NATS, feed one Trainer.
type Worker struct {
	p      *proc
	store  *checkpoints.Store
	source networkSource
	pub    transport.Publisher // nil: the run directory
	nw     *natsWorker         // nil without NATS
	sp     *selfPlayer
	poll   time.Duration
	// before counts the games and positions of the self-players before sp
	// (the uniform one a fresh run starts with)
	before selfplay.Stats
}

// WorkerOptions are a Worker's settings beside the run's Options.
type WorkerOptions struct {
	// Poll is how often the worker looks for a new network (0: 10 s; over
	// NATS 1 s, the local store that the followed network fills).
	Poll time.Duration
	// KeepSeed plays a NATS worker's games from the config's seed as it
	// is; by default it is mixed with the worker's name (WorkerSeed), so
	// that every worker plays its own games.
	KeepSeed bool
}

// NewWorker opens the run in o.Run; with o.NATS it connects (naming the
// worker host-pid unless o.NATS.Client.Worker is set) and republishes
// what a crash left in the outbox (within ctx); Run follows the trainer's
// network and resignation threshold. Close closes the connection.
func NewWorker(ctx context.Context, o Options, wo WorkerOptions) (*Worker, error) {
	if o.NATS != nil {
		if o.NATS.Client.Worker == "" {
			o.NATS.Client.Worker = workerName()
		}
		if !wo.KeepSeed {
			o.Config.Seed = WorkerSeed(o.Config.Seed, o.NATS.Client.Worker)
		}
		if wo.Poll == 0 {
			wo.Poll = time.Second
		}
	}
	if wo.Poll == 0 {
		wo.Poll = 10 * time.Second
	}
	p := newProc(o)
	store, err := p.run.Store()
	if err != nil {
		return nil, err
	}
	w := &Worker{p: p, store: store, source: dirNetwork(p.run, store, p.cfg.Gating.Enabled), poll: wo.Poll}
	if o.NATS != nil {
		if w.nw, err = startNatsWorker(ctx, p, o.NATS.ClientConfig(p.run)); err != nil {
			return nil, err
		}
		w.pub, w.source = w.nw, w.nw.network
	}
	if w.sp, err = w.firstSelfPlayer(); err != nil {
		w.Close()
		return nil, err
	}
	w.attach(w.sp)
	return w, nil
}

// firstSelfPlayer returns the self-player at start: with the network
// self-play should use if there is one; otherwise with the uniform
// evaluator, which plays until the first network appears.
func (w *Worker) firstSelfPlayer() (*selfPlayer, error) {
	latest, err := w.source()
	switch {
	case errors.Is(err, checkpoints.ErrNone):
		w.p.log.Info("no checkpoint yet: playing with the uniform evaluator until one appears")
		return newSelfPlayer(w.p.cfg, w.p.run, nil, "", -1, w.p.m, w.p.obs, w.p.log)
	case err != nil:
		return nil, err
	}
	return w.networkSelfPlayer(latest)
}

// networkSelfPlayer returns a self-player with the network of e, and
// shows it (observer, evaluator-step gauge).
func (w *Worker) networkSelfPlayer(e checkpoints.Entry) (*selfPlayer, error) {
	net, err := LoadNet(e, w.p.cfg.Variant)
	if err != nil {
		return nil, err
	}
	sp, err := newSelfPlayer(w.p.cfg, w.p.run, net, e.Name, e.Step, w.p.m, w.p.obs, w.p.log) // the watcher switches to the source's next network
	if err != nil {
		return nil, err
	}
	w.p.obs.Checkpoint(e.Name)
	w.p.m.evaluatorSteps.Set(float64(e.Step))
	return sp, nil
}

// attach hands sp's batches to the worker's publisher (nil: the run
// directory); a NATS worker's games use the run's resignation threshold.
func (w *Worker) attach(sp *selfPlayer) {
	sp.runner.Publisher = w.pub
	if w.nw != nil {
		sp.runner.RunResign = w.nw.runResign
	}
}

// Run plays until ctx ends or the worker has played maxGames games (0: no
// limit). A uniform self-player cannot switch networks: when the first
// network appears its round stops, and the next round plays the rest of
// the games with it.
func (w *Worker) Run(ctx context.Context, maxGames int) error {
	if w.nw != nil {
		stop := w.nw.follow(ctx, w.store, w.p.log)
		defer stop()
	}
	for {
		sp, left := w.sp, 0
		if maxGames > 0 {
			left = maxGames - int(w.before.Games)
		}
		if err := sp.playWatched(ctx, w.source, w.p.cfg.Variant, w.poll, left); err != nil {
			return err
		}
		if ctx.Err() != nil || sp.batcher != nil || (maxGames > 0 && int(w.Stats().Games) >= maxGames) {
			return nil
		}
		latest, err := w.source()
		if err != nil {
			continue
		}
		if sp, err = w.networkSelfPlayer(latest); err != nil {
			return err
		}
		w.attach(sp)
		st := w.sp.runner.Stats()
		w.before.Games += st.Games
		w.before.Positions += st.Positions
		w.sp = sp
		w.p.log.Info("self-play switched from the uniform evaluator to a network", "checkpoint", latest.Name)
	}
}

// Stats are the worker's games and positions, and the other counts of
// the self-player that plays now.
func (w *Worker) Stats() selfplay.Stats {
	st := w.sp.runner.Stats()
	st.Games += w.before.Games
	st.Positions += w.before.Positions
	return st
}

// Close closes the NATS side's connection.
func (w *Worker) Close() {
	if w.nw != nil {
		w.nw.stop()
	}
}
