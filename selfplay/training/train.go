package training

import (
	"context"
	"fmt"
	"sync"

	"chuzero/checkpoints"
	"chuzero/model"
	"chuzero/selfplay"
)

// Train is a whole training run in one process: self-play and the
// trainer side by side on the run directory, resuming whatever it holds.
// Self-play plays the trainer's newest network, or under gating the best
// checkpoint (the latest until one is promoted).
type Train struct {
	p  *proc
	ts *trainSide
	sp *selfPlayer
}

// NewTrain opens the run in o.Run: the checkpoint store, the training
// loop, the judge (which reads the run's evaluations) and self-play with
// the network it should play. Close releases it.
func NewTrain(o Options) (*Train, error) {
	p := newProc(o)
	ts, err := newTrainSide(p.cfg, p.run, p.m, p.obs, p.log)
	if err != nil {
		return nil, err
	}
	sp, err := newTrainSelfPlayer(p, ts)
	if err != nil {
		ts.close()
		return nil, err
	}
	wireCheckpoints(p, ts, sp)
	return &Train{p: p, ts: ts, sp: sp}, nil
}

// Run trains and plays until ctx ends or training reaches maxSteps (0: no
// bound); training ending, or either half failing, stops the other. Both
// halves have finished when it returns.
func (t *Train) Run(ctx context.Context, maxSteps int64) error {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	wg.Add(2)
	go func() {
		defer wg.Done()
		errs <- t.ts.run(runCtx, maxSteps)
		cancel() // the step bound, or an error: stop self-play too
	}()
	go func() {
		defer wg.Done()
		if err := playErr(runCtx, t.sp.run(runCtx, 0)); err != nil {
			errs <- fmt.Errorf("self-play: %w", err)
			cancel()
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Step is the training loop's step.
func (t *Train) Step() int64 { return t.ts.loop.Step() }

// Stats are self-play's counts in this process.
func (t *Train) Stats() selfplay.Stats { return t.sp.runner.Stats() }

// Close releases the training loop.
func (t *Train) Close() { t.ts.close() }

// newTrainSelfPlayer builds the self-play half of a Train beside ts, after
// the judge has read the run's evaluations: it plays the training loop's
// own network, or under gating the best checkpoint (the latest until one
// is promoted).
func newTrainSelfPlayer(p *proc, ts *trainSide) (*selfPlayer, error) {
	cfg, m := p.cfg, p.m
	if err := ts.judge.Init(); err != nil {
		return nil, err
	}
	if best, ok := ts.judge.Best(); ok {
		m.bestStep.Set(float64(best.Step))
	}
	latest, err := playNetwork(p.run, ts.store, cfg.Gating.Enabled)
	if err != nil {
		return nil, err
	}
	net := model.NewNet(ts.loop.Weights())
	if cfg.Gating.Enabled {
		if net, err = LoadNet(latest, cfg.Variant); err != nil {
			return nil, err
		}
	}
	p.obs.Checkpoint(latest.Name)
	sp, err := newSelfPlayer(cfg, p.run, net, latest.Name, latest.Step, m, p.obs, p.log)
	if err != nil {
		return nil, err
	}
	m.evaluatorSteps.Set(float64(latest.Step))
	m.ckptStep.Set(float64(latest.Step))
	return sp, nil
}

// wireCheckpoints switches self-play to each new checkpoint of the
// training loop, or under gating to each one the judge promotes.
func wireCheckpoints(p *proc, ts *trainSide, sp *selfPlayer) {
	cfg := p.cfg
	ts.afterCheckpoint = func(e checkpoints.Entry, w *model.Weights) {
		if cfg.Gating.Enabled {
			return // self-play changes network when the judge promotes one
		}
		if err := sp.use(model.NewNet(w), e.Name, e.Step); err != nil {
			p.log.Error("switching self-play to the new network failed", "err", err)
		}
	}
	ts.judge.Promote = func(e checkpoints.Entry) error {
		net, err := LoadNet(e, cfg.Variant)
		if err != nil {
			return err
		}
		return sp.use(net, e.Name, e.Step)
	}
}
