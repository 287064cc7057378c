package training

import "context"

// Trainer is the training half of a run alone: it trains on the samples
// that workers write into the run directory (or, with Options.NATS,
// publish to the stream it receives from) and writes checkpoints there
// (and publishes them) for the workers to play.
type Trainer struct {
	ts *trainSide
	nt *natsTrainer // nil without NATS
}

// NewTrainer opens the run in o.Run: the checkpoint store, the training
// loop and the judge; with o.NATS also the embedded server if asked, the
// stream, and the config and current network published (Run receives the
// batches). ctx bounds the NATS side's publications (the process's life).
// Close releases it.
func NewTrainer(ctx context.Context, o Options) (*Trainer, error) {
	p := newProc(o)
	ts, err := newTrainSide(p.cfg, p.run, p.m, p.obs, p.log)
	if err != nil {
		return nil, err
	}
	t := &Trainer{ts: ts}
	if o.NATS != nil {
		if t.nt, err = startNatsTrainer(ctx, p, o.NATS, ts); err != nil {
			ts.close()
			return nil, err
		}
	}
	return t, nil
}

// Run trains until ctx ends or the loop reaches maxSteps (0: no bound),
// with the judge beside it and, over NATS, the batches received.
func (t *Trainer) Run(ctx context.Context, maxSteps int64) error {
	if t.nt != nil {
		stop := t.nt.receive(ctx)
		defer stop()
	}
	return t.ts.run(ctx, maxSteps)
}

// Step is the training loop's step.
func (t *Trainer) Step() int64 { return t.ts.loop.Step() }

// Close closes the NATS side, then the loop.
func (t *Trainer) Close() {
	if t.nt != nil {
		t.nt.close()
	}
	t.ts.close()
}
