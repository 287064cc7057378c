package model

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/bits"
	"math/rand/v2"
	"time"

	"chuzero/checkpoints"
	"chuzero/encode"
)

// StepInfo reports the loop's progress after a step (or while waiting).
type StepInfo struct {
	Step        int64
	Batch       int // samples per step
	Stats       StepStats
	LR          float64
	Window      int
	Samples     int64   // training samples generated (in the sample files, held-out games excluded)
	Games       int64   // training games generated
	SamplesSeen int64   // samples trained on
	Reuse       float64 // SamplesSeen / Samples
	Waiting     bool    // no step: waiting for self-play data
	Skipped     bool    // the step was skipped (non-finite)
	Seconds     float64 // duration of the step
	ValueQ      float64 // weight of the search value in the value target
	// HeldOut is the loss of a batch of held-out games (the same targets
	// as training, on positions the network never trained on), set on the
	// steps that measure it (HeldOutEvery), else nil.
	HeldOut *StepStats
	// Reanalyse counts the samples re-searched with the newest network
	// over the loop's life (LoopConfig.Reanalyse).
	Reanalyse ReanalyseStats
}

// Loop trains a run: it resumes from the newest checkpoint of its store
// (weights, optimizer state, step, samples seen) or starts a fresh
// network, reads self-play samples into the replay window, takes steps
// under the reuse cap and writes checkpoints.
type Loop struct {
	cfg     LoopConfig
	store   *checkpoints.Store
	log     *slog.Logger
	replay  *Replay
	trainer *Trainer
	step    int64
	seen    int64
	parent  string
	saved   int64     // step of the last checkpoint written
	savedAt time.Time // when the first step after it was taken (by now)
	now     func() time.Time
	batch   Batch
	held    Batch // held-out batch
	skipped int64

	// OnStep is called after every step, and every Poll while waiting.
	OnStep func(StepInfo)
	// OnCheckpoint is called after a checkpoint is written, from the loop's
	// goroutine, between steps (the weights are stable during the call).
	OnCheckpoint func(e checkpoints.Entry, w *Weights)
	// OnRefresh is called after a refresh of the window that skipped
	// damaged files or invalid samples, or pruned files, with the counts of
	// that refresh (the loop logs the errors).
	OnRefresh func(RefreshInfo)
}

// RefreshInfo counts what one refresh of the replay window skipped and
// pruned.
type RefreshInfo struct {
	CorruptFiles   int   // damaged sample files, skipped whole
	InvalidSamples int64 // samples that failed validation, skipped
	PrunedFiles    int64 // sample files deleted as older than the window
	Quarantined    int64 // damaged sample files moved to samples/quarantine
}

// refresh loads new sample files into the window, logging what it skipped;
// bad data never stops training.
func (l *Loop) refresh() {
	corrupt, invalid, pruned, quarantined := len(l.replay.Corrupt()), l.replay.Invalid(), l.replay.Pruned(), l.replay.Quarantined()
	_, err := l.replay.Refresh()
	if err != nil {
		l.log.Error("sample data skipped", "err", err)
	}
	d := RefreshInfo{CorruptFiles: len(l.replay.Corrupt()) - corrupt, InvalidSamples: l.replay.Invalid() - invalid,
		PrunedFiles: l.replay.Pruned() - pruned, Quarantined: l.replay.Quarantined() - quarantined}
	if d.PrunedFiles > 0 {
		l.log.Info("pruned sample files older than the replay window", "files", d.PrunedFiles, "pruned_total", l.replay.Pruned())
	}
	if d != (RefreshInfo{}) && l.OnRefresh != nil {
		l.OnRefresh(d)
	}
}

// NewLoop opens the training state of a run.
func NewLoop(cfg LoopConfig, store *checkpoints.Store, log *slog.Logger) (*Loop, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	l := &Loop{cfg: cfg, store: store, log: log, now: time.Now}
	var w *Weights
	var ckpt *checkpoints.Checkpoint
	latest, c, damaged, err := store.LatestSound()
	for _, d := range damaged { // never the only copy: a sound older one is there
		if err == nil {
			log.Warn("the newest checkpoint is damaged: resuming from the previous one, the damaged file moved aside",
				"damaged", d.Name, "resume", latest.Name, "err", d.Err)
			if qerr := store.Quarantine(d.Entry); qerr != nil {
				return nil, qerr
			}
		}
	}
	switch {
	case errors.Is(err, checkpoints.ErrNone):
		spec, err := encode.NewSpec(cfg.Rules.Variant, cfg.Encode)
		if err != nil {
			return nil, err
		}
		if w, err = NewWeights(cfg.Model, spec, cfg.Seed); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	default:
		if w, ckpt, err = checkpointWeights(c, latest.Path, cfg.Rules.Variant); err != nil {
			return nil, err
		}
		if ckpt.Meta.Rules != "" && ckpt.Meta.Rules != cfg.Rules.String() {
			return nil, fmt.Errorf("model: %s was trained under %q, this run is configured for %q: %w",
				latest.Path, ckpt.Meta.Rules, cfg.Rules.String(), checkpoints.ErrMismatch)
		}
		if w.Config != cfg.Model {
			log.Warn("resuming with the checkpoint's architecture, not the configured one", "checkpoint", w.Config.String(), "configured", cfg.Model.String())
		}
		l.step, l.seen, l.parent, l.saved = ckpt.Meta.Step, ckpt.Meta.SamplesSeen, latest.Name, ckpt.Meta.Step
	}
	if l.replay, err = NewReplay(cfg.Samples, w.Spec, cfg.Replay); err != nil {
		return nil, err
	}
	if r := w.Config.ValueResidual; r > 0 {
		if cfg.Baseline == nil {
			return nil, fmt.Errorf("model: the network's value is a residual (value_residual %v) and the loop has no capture value to add it to", r)
		}
		l.replay.SetResidual(r, cfg.Baseline)
	}
	if l.trainer, err = NewTrainer(w, cfg.Train); err != nil {
		return nil, err
	}
	if ckpt != nil {
		ok, err := l.trainer.LoadOptimizer(ckpt)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", latest.Path, err)
		}
		if !ok {
			log.Warn("the checkpoint has no state for this optimizer: starting it fresh", "checkpoint", latest.Name, "optimizer", cfg.Train.Optimizer)
		}
		log.Info("resumed training", "checkpoint", latest.Name, "step", l.step, "samples_seen", l.seen)
	} else {
		if _, err := l.save(); err != nil {
			return nil, err
		}
		log.Info("started a fresh network", "model", w.Config.String(), "params", w.NumParams(), "variant", cfg.Rules.Variant)
	}
	return l, nil
}

// Step returns the number of training steps taken.
func (l *Loop) Step() int64 { return l.step }

// Weights returns the trained weights (owned by the loop: read them only
// from OnCheckpoint or after Run returns).
func (l *Loop) Weights() *Weights { return l.trainer.W }

// Close releases the trainer.
func (l *Loop) Close() error { return l.trainer.Close() }

// save writes a checkpoint of the current state and prunes old ones.
func (l *Loop) save() (checkpoints.Entry, error) {
	meta := checkpoints.Meta{Rules: l.cfg.Rules.String(), Step: l.step, Parent: l.parent,
		SamplesSeen: l.seen, Created: time.Now().UTC()}
	c, err := l.trainer.W.Checkpoint(meta)
	if err != nil {
		return checkpoints.Entry{}, err
	}
	if err := l.trainer.SaveOptimizer(c); err != nil {
		return checkpoints.Entry{}, err
	}
	e, err := l.store.Save(c)
	if err != nil {
		return checkpoints.Entry{}, err
	}
	l.parent, l.saved, l.savedAt = e.Name, l.step, l.now()
	if gone, err := l.store.Prune(l.cfg.KeepLast, l.cfg.KeepEvery); err != nil {
		l.log.Warn("pruning checkpoints failed", "err", err)
	} else if len(gone) > 0 {
		l.log.Debug("pruned checkpoints", "deleted", len(gone))
	}
	if l.OnCheckpoint != nil {
		l.OnCheckpoint(e, l.trainer.W)
	}
	return e, nil
}

// Run trains until ctx is done or the run reaches maxSteps (0: no limit),
// then writes a final checkpoint if there were steps since the last one.
func (l *Loop) Run(ctx context.Context, maxSteps int64) error {
	err := l.run(ctx, maxSteps)
	if l.step != l.saved {
		if _, serr := l.save(); serr != nil && err == nil {
			err = serr
		}
	}
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		err = nil // asked to stop: a clean end
	}
	return err
}

func (l *Loop) run(ctx context.Context, maxSteps int64) error {
	b := int64(l.cfg.Train.Batch)
	lastRefresh := time.Time{}
	for maxSteps <= 0 || l.step < maxSteps {
		if err := ctx.Err(); err != nil {
			return err
		}
		if time.Since(lastRefresh) >= l.cfg.Poll.D() {
			l.refresh()
			lastRefresh = time.Now()
		}
		if !l.ready() {
			if l.OnStep != nil {
				l.OnStep(l.info(StepStats{}, true, false, 0))
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(l.cfg.Poll.D()):
			}
			lastRefresh = time.Time{}
			continue
		}
		rng := rand.New(rand.NewPCG(l.cfg.Seed, uint64(l.step)<<8|uint64(l.skipped&0xff)))
		l.replay.SetValueMix(l.cfg.ValueQ(l.step))
		l.reanalyse(rng)
		if err := l.replay.FillBatch(rng, &l.batch, int(b)); err != nil {
			return err
		}
		if l.step == l.saved {
			l.savedAt = l.now() // staleness counts from the first step the last checkpoint lacks
		}
		lr := l.cfg.LearningRate(l.step)
		start := time.Now()
		st, err := l.trainer.Step(&l.batch, lr)
		if errors.Is(err, ErrNonFinite) {
			l.skipped++
			l.log.Warn("skipped a training step with a non-finite loss or gradient", "step", l.step, "skipped", l.skipped)
			if l.OnStep != nil {
				l.OnStep(l.info(st, false, true, time.Since(start).Seconds()))
			}
			continue
		}
		if err != nil {
			return err
		}
		l.step++
		l.seen += b
		if l.OnStep != nil {
			info := l.info(st, false, false, time.Since(start).Seconds())
			info.LR = lr
			if info.HeldOut, err = l.heldOut(); err != nil {
				return err
			}
			l.OnStep(info)
		}
		if l.checkpointDue() {
			if _, err := l.save(); err != nil {
				return err
			}
		}
	}
	return nil
}

// reanalyse re-searches the configured number of window samples with the
// newest network before a step, logging the 1st, 2nd, 4th, ... failure
// (they are counted and skipped, never fatal).
func (l *Loop) reanalyse(rng *rand.Rand) {
	if l.cfg.Reanalyse <= 0 || l.cfg.Reanalyser == nil {
		return
	}
	before, _ := l.replay.ReanalyseStats()
	l.replay.Reanalyse(rng, l.cfg.Reanalyse, l.cfg.Reanalyser)
	if st, err := l.replay.ReanalyseStats(); bits.Len64(uint64(st.Failed)) > bits.Len64(uint64(before.Failed)) && err != nil {
		l.log.Warn("reanalysis failed on a sample: left with its stored targets", "failed", st.Failed, "err", err)
	}
}

// checkpointDue reports whether the step just taken ends with a
// checkpoint: every CheckpointEvery steps, or CheckpointInterval after the
// last one.
func (l *Loop) checkpointDue() bool {
	iv := l.cfg.CheckpointInterval.D()
	return l.step%l.cfg.CheckpointEvery == 0 || (iv > 0 && l.now().Sub(l.savedAt) >= iv)
}

// ready reports whether the data allow a step: enough games and samples,
// and the reuse cap (EarlyReuse while the data are below the window's
// minimum) not reached.
func (l *Loop) ready() bool {
	total, b := l.replay.Total(), l.cfg.Train.Batch
	if total < max(l.cfg.MinSamples, 1) || l.replay.Games() < l.cfg.MinGames {
		return false
	}
	reuse := l.cfg.MaxReuse
	if total < int64(l.cfg.Replay.WindowMin) && l.cfg.EarlyReuse > 0 {
		reuse = min(reuse, l.cfg.EarlyReuse)
	}
	return float64(l.seen+int64(b)) <= reuse*float64(total)
}

// heldOut measures the held-out loss on the steps that ask for it (nil
// otherwise, or while no game is held out). The batch norm runs on batch
// statistics, as in training, so the figure compares with the training
// loss.
func (l *Loop) heldOut() (*StepStats, error) {
	if l.cfg.HeldOutEvery <= 0 || l.step%l.cfg.HeldOutEvery != 0 || l.replay.HeldOut() == 0 {
		return nil, nil
	}
	rng := rand.New(rand.NewPCG(l.cfg.Seed^0x686f6c64, uint64(l.step)))
	if err := l.replay.FillHeldOut(rng, &l.held, l.cfg.Train.Batch); err != nil {
		return nil, err
	}
	st, err := l.trainer.Loss(&l.held)
	if errors.Is(err, ErrNonFinite) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &st, nil
}

func (l *Loop) info(st StepStats, waiting, skipped bool, secs float64) StepInfo {
	total := l.replay.Total()
	reuse := 0.0
	if total > 0 {
		reuse = float64(l.seen) / float64(total)
	}
	info := StepInfo{Step: l.step, Batch: l.cfg.Train.Batch, Stats: st, LR: l.cfg.LearningRate(l.step), Window: l.replay.Window(),
		Samples: total, Games: l.replay.Games(), SamplesSeen: l.seen, Reuse: reuse, Waiting: waiting, Skipped: skipped,
		Seconds: secs, ValueQ: l.cfg.ValueQ(l.step)}
	info.Reanalyse, _ = l.replay.ReanalyseStats()
	return info
}

// Skipped returns the number of skipped (non-finite) steps.
func (l *Loop) Skipped() int64 { return l.skipped }
