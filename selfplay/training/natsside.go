package training

import (
	"context"
	"log/slog"
	"math"
	"os"
	"sync"
	"sync/atomic"

	"chuzero/checkpoints"
	"chuzero/model"
	"chuzero/rules"
	"chuzero/selfplay/transport/natsjs"
)

// natsWorker is the NATS side of a self-play worker: the worker that
// publishes the batches, keeps the local store at the run's network and
// holds the run's resignation threshold.
type natsWorker struct {
	*natsjs.Worker
	resign atomic.Uint64 // the run's threshold (float64 bits), once hasRun
	hasRun atomic.Bool
	// published is the network the trainer last published, once it is in
	// the local store: the one self-play uses, whatever else the store holds
	published atomic.Pointer[checkpoints.Entry]
	stop      func()
}

// network is the worker's network source: the trainer's published one.
func (n *natsWorker) network() (checkpoints.Entry, error) {
	if e := n.published.Load(); e != nil {
		return *e, nil
	}
	return checkpoints.Entry{}, checkpoints.ErrNone
}

// runResign returns the run's resignation threshold, if the trainer has
// published one (selfplay.Runner.RunResign).
func (n *natsWorker) runResign() (float64, bool) {
	return math.Float64frombits(n.resign.Load()), n.hasRun.Load()
}

// startNatsWorker connects and republishes what a crash left in the
// outbox; follow then follows the run. stop closes the connection.
func startNatsWorker(ctx context.Context, p *proc, c natsjs.Config) (*natsWorker, error) {
	w, err := natsjs.NewWorker(c, p.run, natsjs.NewMetrics(p.reg), p.log)
	if err != nil {
		return nil, err
	}
	if n, err := w.Resend(ctx); err != nil {
		w.Close()
		return nil, err
	} else if n > 0 {
		p.log.Info("republished the batches left in the outbox", "batches", n)
	}
	return &natsWorker{Worker: w, stop: w.Close}, nil
}

// follow follows the run's network into store and the run's resignation
// threshold until ctx ends; the returned stop ends both and waits for
// them.
func (nw *natsWorker) follow(ctx context.Context, store *checkpoints.Store, log *slog.Logger) (stop func()) {
	fctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if err := nw.Follow(fctx, store, func(e checkpoints.Entry) {
			nw.published.Store(&e)
			log.Info("the run's network arrived", "checkpoint", e.Name)
		}); err != nil {
			log.Error("following the run's network stopped", "err", err)
		}
	}()
	go func() {
		defer wg.Done()
		if err := nw.FollowResign(fctx, func(th float64) {
			nw.resign.Store(math.Float64bits(th))
			nw.hasRun.Store(true)
			log.Info("the run's resignation threshold", "threshold", th)
		}); err != nil {
			log.Error("following the run's resignation threshold stopped", "err", err)
		}
	}()
	return func() { cancel(); wg.Wait() }
}

// natsTrainer is the NATS side of a trainer:
// the embedded server if any, and the trainer that receives batches into
// the run directory and publishes the config and checkpoints.
type natsTrainer struct {
	p   *proc
	ctx context.Context // the publications' (the trainer's life)
	srv *natsjs.Server
	t   *natsjs.Trainer
	// publishCkpt publishes a network (t.PublishCheckpoint; a test's own)
	publishCkpt func(context.Context, checkpoints.Entry) error
	mu          sync.Mutex // guards published: the loop and the judge publish
	published   int64      // step of the network last published
}

// startNatsTrainer starts the NATS side of ts: the embedded server if
// asked, the stream, the config and current network published, batches
// received beside training until close; each new checkpoint is published
// after it is written, and under gating each new best as the judge
// promotes it.
func startNatsTrainer(ctx context.Context, p *proc, o *NATS, ts *trainSide) (*natsTrainer, error) {
	n := &natsTrainer{published: -1, p: p, ctx: ctx}
	if o.Embedded != "" {
		srv, err := startEmbedded(o, p.run, p.log)
		if err != nil {
			return nil, err
		}
		n.srv = srv
	}
	v, err := rules.ParseVariant(p.cfg.Variant)
	if err == nil {
		n.t, err = natsjs.NewTrainer(ctx, o.ClientConfig(p.run), p.run, v, natsjs.NewMetrics(p.reg), p.log)
	}
	if err == nil {
		n.publishCkpt = n.t.PublishCheckpoint
		err = n.calibrateResign()
	}
	var config []byte
	if err == nil {
		config, err = os.ReadFile(p.run.Config())
	}
	if err == nil {
		config, err = workerConfig(config)
	}
	if err == nil {
		err = n.t.PublishConfig(ctx, config)
	}
	if err == nil {
		n.publish(ts)
	}
	if err != nil {
		n.close()
		return nil, err
	}
	ts.afterCheckpoint = func(checkpoints.Entry, *model.Weights) { n.publish(ts) }
	n.publishPromotions(ts.judge)
	return n, nil
}

// receive receives batches into the run directory until ctx ends; the
// returned stop ends it and waits.
func (n *natsTrainer) receive(ctx context.Context) (stop func()) {
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { n.t.Receive(rctx); close(done) }()
	return func() { cancel(); <-done }
}

// publish publishes the network self-play should use, if it changed.
func (n *natsTrainer) publish(ts *trainSide) {
	if e, err := playNetwork(n.p.run, ts.store, n.p.cfg.Gating.Enabled); err == nil {
		n.publishEntry(e)
	}
}

// publishEntry publishes network e unless it was the last published.
func (n *natsTrainer) publishEntry(e checkpoints.Entry) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if e.Step == n.published {
		return
	}
	if err := n.publishCkpt(n.ctx, e); err != nil {
		n.p.log.Error("publishing the network failed", "checkpoint", e.Name, "err", err)
		return
	}
	n.published = e.Step
}

// publishPromotions chains the publication of each new best onto the
// judge's Promote (gating): the workers get it at the promotion itself,
// not at the next checkpoint.
func (n *natsTrainer) publishPromotions(judge *Judge) {
	prev := judge.Promote
	judge.Promote = func(best checkpoints.Entry) error {
		var err error
		if prev != nil {
			err = prev(best)
		}
		n.publishEntry(best)
		return err
	}
}

// calibrateResign has the trainer calibrate and publish the run-wide
// resignation threshold (from the run config's settings), starting from
// the newest games of the run directory.
func (n *natsTrainer) calibrateResign() error {
	spc, err := n.p.cfg.SelfPlayConfig(n.p.run)
	if err != nil {
		return err
	}
	r := newRunResign(spc, n.p.run, n.t.PublishResign, n.p.log)
	n.t.OnRecords = r.add
	return r.seed(n.ctx)
}

// close closes the connection and the server.
func (n *natsTrainer) close() {
	if n.t != nil {
		n.t.Close()
	}
	if n.srv != nil {
		n.srv.Close()
	}
}
