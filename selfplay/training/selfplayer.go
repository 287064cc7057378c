package training

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/model"
	"chuzero/selfplay"
	"chuzero/selfplay/arena"
)

// selfPlayer is the self-play side of a run: the batching network
// evaluator and the game runner.
type selfPlayer struct {
	cfg     Config
	batcher *model.Batcher
	runner  *selfplay.Runner
	metrics *Metrics
	log     *slog.Logger
	step    int64 // network step in use, -1 for the uniform evaluator
	// cache is shared by every network this self-player uses, each in a
	// key space of its own (nets counts them): its memory stays bounded
	// however many networks the games in flight still play with.
	cache *mcts.Cache
	nets  uint64
}

// newSelfPlayer starts with net, the checkpoint name of training step
// step (nil: the uniform evaluator until a network arrives).
func newSelfPlayer(cfg Config, run checkpoints.Run, net *model.Net, name string, step int64, m *Metrics, p Observer, log *slog.Logger) (*selfPlayer, error) {
	spc, err := cfg.SelfPlayConfig(run)
	if err != nil {
		return nil, err
	}
	s := &selfPlayer{cfg: cfg, metrics: m, log: log, step: -1}
	var eval mcts.Evaluator = mcts.Uniform{}
	if net != nil {
		bc := model.BatcherConfig{MaxBatch: cfg.Self.Batch, MaxWait: time.Duration(cfg.Self.BatchWait), Workers: cfg.Self.BatchWorkers, Threads: cfg.Self.Threads}
		if s.batcher, err = model.NewBatcher(net, bc); err != nil {
			return nil, err
		}
		s.batcher.OnBatch = m.batch
		eval = s.evaluator(net)
	} else {
		name = "uniform"
	}
	if s.runner, err = selfplay.New(spc, eval, name); err != nil {
		return nil, err
	}
	if net != nil {
		s.step = step
		s.runner.SetEvaluator(eval, name, step)
	}
	if spc.WarmStartGames > 0 { // opt-in: alpha-beta plays the run's first games
		s.runner.Teacher = arena.AlphaBeta{Depth: spc.WarmStartDepth}.Teacher()
	}
	if spc.CappedPlayout > 0 { // opt-in: alpha-beta plays capped games on to a result
		s.runner.Playout = arena.AlphaBeta{Depth: spc.CappedPlayoutDepth, TTBits: 16}.Teacher()
	}
	s.runner.SetFirstGame(selfplay.NextGameIndex(run.Games()))
	s.runner.OnGame = func(rec *selfplay.Record) {
		m.game(rec, s.runner.Stats())
		m.resignThresh.Set(s.runner.ResignThreshold())
		p.Game(rec)
	}
	s.runner.OnMove = func(full bool, sims int) {
		m.move(full, sims)
		p.Move(sims)
	}
	m.resignThresh.Set(spc.ResignThreshold)
	return s, nil
}

// evaluator returns the cached evaluator of one network.
func (s *selfPlayer) evaluator(net *model.Net) mcts.Evaluator {
	v := s.batcher.View(net)
	if s.cfg.Self.Cache <= 0 {
		return v
	}
	if s.cache == nil { // keyed on exactly what the run's networks read
		s.cache = mcts.NewSpecCache(v, s.cfg.Self.Cache, net.Spec).CountInto(&s.metrics.cacheCounts)
	}
	s.nets++
	return s.cache.With(v, s.nets)
}

// use makes new games play with net (from checkpoint name at step).
func (s *selfPlayer) use(net *model.Net, name string, step int64) error {
	if s.batcher == nil {
		return errors.New("self-play started without a network cannot switch to one")
	}
	if err := s.batcher.SetNet(net); err != nil {
		return err
	}
	s.runner.SetEvaluator(s.evaluator(net), name, step)
	s.step = step
	s.metrics.evaluatorSteps.Set(float64(step))
	s.log.Info("self-play uses a new network", "checkpoint", name)
	return nil
}

// run plays until ctx ends (or maxGames games), with the batcher running
// beside the games.
func (s *selfPlayer) run(ctx context.Context, maxGames int) error {
	if s.batcher == nil {
		return s.runner.Run(ctx, maxGames)
	}
	bctx, stopBatcher := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.batcher.Run(bctx); close(done) }()
	err := s.runner.Run(ctx, maxGames)
	stopBatcher() // after the games: their last searches still need it
	<-done
	return err
}

// playNetwork returns the checkpoint self-play should use: the latest, or
// under gating the best (best.json), the latest until there is one.
func playNetwork(run checkpoints.Run, store *checkpoints.Store, gating bool) (checkpoints.Entry, error) {
	if gating {
		if e, ok, err := run.ReadBest(); err != nil || ok {
			return e, err
		}
	}
	return store.Latest()
}

// networkSource returns the checkpoint self-play should use now:
// playNetwork's for a run directory, the one the trainer published for a
// NATS worker (checkpoints.ErrNone before there is one).
type networkSource func() (checkpoints.Entry, error)

// dirNetwork is the network source of a run directory.
func dirNetwork(run checkpoints.Run, store *checkpoints.Store, gating bool) networkSource {
	return func() (checkpoints.Entry, error) { return playNetwork(run, store, gating) }
}

// watch polls source and switches new games to each network it names
// that differs from the one in use (a newer one, or under NATS whichever
// the trainer published); a self-player without a network calls restart
// instead when the first one appears.
func (s *selfPlayer) watch(ctx context.Context, source networkSource, variant string, poll time.Duration, restart func()) {
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		e, err := source()
		if err != nil || e.Step == s.step {
			continue
		}
		if s.batcher == nil {
			restart()
			return
		}
		net, err := LoadNet(e, variant)
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

// playWatched plays one round: games until ctx ends or the runner has
// played maxGames, while a watcher switches them to each new checkpoint
// (see watch). It returns the error that counts (see playErr).
func (s *selfPlayer) playWatched(ctx context.Context, source networkSource, variant string, poll time.Duration, maxGames int) error {
	watchCtx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() { s.watch(watchCtx, source, variant, poll, stopWatch); close(watched) }()
	err := playErr(watchCtx, s.run(watchCtx, maxGames)) // before stopWatch: an error of live games counts
	stopWatch()
	<-watched // no switch after the games have stopped
	return err
}

// playErr is the error of a self-play run on ctx that counts: any error
// while ctx is live, and a write error (selfplay.ErrWrite) even when it
// comes at shutdown (samples were lost).
func playErr(ctx context.Context, err error) error {
	if err != nil && (ctx.Err() == nil || errors.Is(err, selfplay.ErrWrite)) {
		return err
	}
	return nil
}
