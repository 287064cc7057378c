package model

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"chuzero/checkpoints/jsondur"
	"chuzero/encode"
	"chuzero/rules"
)

// LRStep sets the learning rate from step Step on.
type LRStep struct {
	Step int64   `json:"step"`
	LR   float64 `json:"lr"`
}

// LoopConfig configures the training loop of a run.
type LoopConfig struct {
	Rules   rules.Config   `json:"-"` // the run's rules (recorded in checkpoints)
	Model   Config         `json:"-"` // architecture of a fresh run (a resumed run keeps its checkpoint's)
	Encode  encode.Options `json:"-"` // encoding of a fresh run
	Train   TrainConfig    `json:"-"`
	Replay  ReplayConfig   `json:"-"`
	Samples string         `json:"-"` // directory of the sample files
	// Baseline is the capture value of a sample's position, which a
	// residual value head (Config.ValueResidual) is trained on top of; a
	// run whose network has one must set it. It is called from the
	// training goroutine only.
	Baseline Baseline `json:"-"`
	// Reanalyser re-searches stored positions with the newest network;
	// the loop calls it for Reanalyse samples a step (nil: none).
	Reanalyser Reanalyser `json:"-"`
	// Reanalyse is how many samples of the window are re-searched with the
	// newest network before each step, their policy and root-value
	// targets replaced (MuZero's Reanalyse; 0: none). Each costs a full
	// self-play search on the trainer's cores.
	Reanalyse int `json:"reanalyse"`

	Schedule        []LRStep `json:"learning_rate"`    // learning rate by step (piecewise constant)
	WarmupSteps     int64    `json:"warmup_steps"`     // linear warm-up of the learning rate over the first steps
	CheckpointEvery int64    `json:"checkpoint_every"` // steps between checkpoints
	// CheckpointInterval also writes a checkpoint once this long has
	// passed since the first step the last one lacks (0: by steps alone;
	// time waiting for data before that step does not count). Self-play
	// plays the newest checkpoint, so when steps are slow (early in a run,
	// or a big network on few cores) this bounds how stale its network
	// gets.
	CheckpointInterval jsondur.Duration `json:"checkpoint_interval"`
	KeepLast           int              `json:"keep_last"`  // checkpoints kept by pruning: the newest KeepLast...
	KeepEvery          int              `json:"keep_every"` // ... and every KeepEvery-th of the older ones
	// MaxReuse caps training at MaxReuse samples trained per sample
	// generated: the loop waits for self-play rather than overfit.
	MaxReuse float64 `json:"max_reuse"`
	// EarlyReuse is the reuse cap while the data are fewer than the
	// replay's WindowMin samples: the first games come from a network that
	// knows nothing, and training hard on a few of them memorises them.
	EarlyReuse float64 `json:"early_reuse"`
	MinSamples int64   `json:"min_samples"` // samples needed before the first step
	MinGames   int64   `json:"min_games"`   // games needed before the first step
	// The value target is (1-q)*result + q*(the search's root value), with
	// q going linearly from ValueQStart at step 0 to ValueQEnd at step
	// ValueQSteps (and staying there).
	ValueQStart float64 `json:"value_q_start"`
	ValueQEnd   float64 `json:"value_q_end"`
	ValueQSteps int64   `json:"value_q_steps"`
	// HeldOutEvery: every so many steps, the loss of a batch of held-out
	// games (see ReplayConfig.HoldOut) is measured (0: never).
	HeldOutEvery int64            `json:"held_out_every"`
	Seed         uint64           `json:"-"`    // initialisation and minibatch sampling
	Poll         jsondur.Duration `json:"poll"` // how often to look for new sample files
}

// DefaultLoopConfig returns the loop defaults for variant v.
func DefaultLoopConfig(v rules.VariantID) LoopConfig {
	return LoopConfig{Rules: rules.DefaultConfig(v), Model: DefaultConfig(), Encode: encode.DefaultOptions(),
		Train: DefaultTrainConfig(), Replay: DefaultReplayConfig(),
		Schedule: []LRStep{{0, 2e-3}, {100000, 5e-4}, {300000, 1.5e-4}}, WarmupSteps: 200,
		CheckpointEvery: 200, CheckpointInterval: jsondur.Duration(3 * time.Minute), KeepLast: 10, KeepEvery: 10, MaxReuse: 4, EarlyReuse: 2, MinSamples: 2048, MinGames: 64,
		ValueQStart: 0, ValueQEnd: 0.5, ValueQSteps: 1000, HeldOutEvery: 100, Seed: 1, Poll: jsondur.Duration(2 * time.Second)}
}

// ValueQ returns the weight of the search value in the value target at
// step.
func (c LoopConfig) ValueQ(step int64) float64 {
	if c.ValueQSteps <= 0 || step >= c.ValueQSteps {
		return c.ValueQEnd
	}
	return c.ValueQStart + (c.ValueQEnd-c.ValueQStart)*float64(step)/float64(c.ValueQSteps)
}

// Validate reports a problem with c.
func (c LoopConfig) Validate() error {
	if err := c.Rules.Validate(); err != nil {
		return err
	}
	if err := c.Model.Validate(); err != nil {
		return err
	}
	if err := c.Train.Validate(); err != nil {
		return err
	}
	if err := c.Replay.Validate(); err != nil {
		return err
	}
	switch {
	case len(c.Schedule) == 0 || c.Schedule[0].Step != 0:
		return errors.New("model: the learning-rate schedule must start at step 0")
	case c.CheckpointEvery < 1 || c.KeepLast < 1 || c.KeepEvery < 0 || c.CheckpointInterval < 0:
		return errors.New("model: CheckpointEvery and KeepLast must be positive, CheckpointInterval not negative")
	case c.MaxReuse <= 0 || c.EarlyReuse < 0 || c.MinSamples < 0 || c.MinGames < 0 || c.HeldOutEvery < 0 || c.Reanalyse < 0:
		return errors.New("model: MaxReuse must be positive; EarlyReuse, MinSamples, MinGames, HeldOutEvery, Reanalyse not negative")
	case c.ValueQStart < 0 || c.ValueQStart > 1 || c.ValueQEnd < 0 || c.ValueQEnd > 1 || c.ValueQSteps < 0:
		return errors.New("model: the value-target weights must be in [0, 1] and ValueQSteps not negative")
	case c.Samples == "":
		return errors.New("model: no sample directory")
	}
	for _, s := range c.Schedule {
		if s.LR <= 0 {
			return fmt.Errorf("model: learning rate %v at step %d", s.LR, s.Step)
		}
	}
	return nil
}

// LearningRate returns the learning rate at step.
func (c LoopConfig) LearningRate(step int64) float64 {
	sched := append([]LRStep(nil), c.Schedule...)
	sort.Slice(sched, func(i, j int) bool { return sched[i].Step < sched[j].Step })
	lr := sched[0].LR
	for _, s := range sched {
		if step >= s.Step {
			lr = s.LR
		}
	}
	if c.WarmupSteps > 0 && step < c.WarmupSteps {
		lr *= float64(step+1) / float64(c.WarmupSteps)
	}
	return lr
}
