package training

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/arena"
	"chuzero/selfplay/runconfig"
)

// MatchNetworks are the checkpoints of one evaluation or gating match, loaded
// as evaluators (batched across the match's concurrent games); Close
// frees them.
type MatchNetworks interface {
	Evaluator(e checkpoints.Entry) (mcts.Evaluator, error)
	Close()
}

// EvalResult is one evaluation match of a checkpoint against an anchor.
type EvalResult struct {
	Checkpoint checkpoints.Entry
	Opponent   string      // the anchor's name: "first", "greedy", "hachu-d1", ...
	Score      arena.Score // of the checkpoint
	Elo        float64
	EloLow     float64 // 95% interval
	EloHigh    float64
}

// GateResult is one gating decision.
type GateResult struct {
	Candidate, Best checkpoints.Entry
	Score           arena.Score // of the candidate
	LLR             float64
	Decision        string // "accept" (promoted), "reject", "inconclusive"
}

// Promoted reports whether the candidate became the best.
func (g GateResult) Promoted() bool { return g.Decision == "accept" }

// Judge runs a training run's evaluations and gating decisions beside
// training: it is told of each new checkpoint, evaluates the latest one
// against the anchors every Eval.Interval, and under gating plays each new
// checkpoint against the best by SPRT and promotes the winner. It plays on
// its own networks and goroutines; what it finds goes to the callbacks.
type Judge struct {
	Eval   runconfig.EvalConfig
	Gating runconfig.GatingConfig
	Rules  rules.Config
	Dir    checkpoints.Run
	Store  *checkpoints.Store
	// Networks opens the networks of one match, batching up to batch
	// positions with threads goroutines per layer.
	Networks func(batch, threads int) (MatchNetworks, error)
	Log      *slog.Logger
	// LastEvaluated is the step of the last evaluated checkpoint (-1:
	// none); the judge does not evaluate it again.
	LastEvaluated int64

	OnEval  func(EvalResult) error             // after each evaluation match (a log, metrics)
	OnGate  func(GateResult) error             // after each gating decision
	Promote func(best checkpoints.Entry) error // under gating: the new best, for self-play

	newCkpt chan checkpoints.Entry
	mu      sync.Mutex
	best    checkpoints.Entry
	hasBest bool
}

// Open reads the run's best checkpoint; call it before the others.
func (j *Judge) Open() error {
	j.newCkpt = make(chan checkpoints.Entry, 1)
	if j.Log == nil {
		j.Log = slog.New(slog.DiscardHandler)
	}
	var err error
	j.best, j.hasBest, err = j.Dir.ReadBest()
	return err
}

// Active reports whether the judge has anything to do.
func (j *Judge) Active() bool { return j.Gating.Enabled || j.Eval.Interval > 0 }

// Checkpoint tells the judge about a new checkpoint (never blocks: a
// newer one replaces one not yet seen).
func (j *Judge) Checkpoint(e checkpoints.Entry) {
	for {
		select {
		case j.newCkpt <- e:
			return
		default:
			select {
			case <-j.newCkpt:
			default:
			}
		}
	}
}

// Best returns the checkpoint self-play should use under gating.
func (j *Judge) Best() (checkpoints.Entry, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.best, j.hasBest
}

// Init pins the first checkpoint as an anchor and, under gating, makes
// the latest checkpoint the best if there is none yet (a fresh run, or
// gating turned on in a running one). Call it before self-play picks its
// network.
func (j *Judge) Init() error {
	if !j.Active() {
		return nil
	}
	if err := j.Dir.PinFirst(j.Store); err != nil {
		return fmt.Errorf("keeping the first checkpoint as an anchor: %w", err)
	}
	if j.Gating.Enabled && !j.hasBest {
		latest, err := j.Store.Latest()
		if errors.Is(err, checkpoints.ErrNone) {
			return nil
		}
		if err != nil {
			return err
		}
		return j.setBest(latest, false)
	}
	return nil
}

// Run evaluates and gates until ctx ends.
func (j *Judge) Run(ctx context.Context) {
	if !j.Active() {
		return
	}
	if err := j.Init(); err != nil {
		j.Log.Warn("evaluation setup failed", "err", err)
	}
	var tick <-chan time.Time
	if iv := j.Eval.Interval.D(); iv > 0 {
		t := time.NewTicker(iv)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case e := <-j.newCkpt:
			if j.Gating.Enabled {
				if err := j.gate(ctx, e); err != nil && ctx.Err() == nil {
					j.Log.Error("gating failed", "candidate", e.Name, "err", err)
				}
			}
		case <-tick:
			latest, err := j.Store.Latest()
			if err != nil || latest.Step == j.LastEvaluated {
				continue
			}
			if err := j.evaluate(ctx, latest); err != nil && ctx.Err() == nil {
				j.Log.Error("evaluation failed", "checkpoint", latest.Name, "err", err)
			}
		}
	}
}

// setBest records a new best checkpoint (best.json and its copy) and,
// when promote is set, hands it to self-play.
func (j *Judge) setBest(e checkpoints.Entry, promote bool) error {
	kept, err := j.Dir.SetBest(e)
	if err != nil {
		return err
	}
	j.mu.Lock()
	j.best, j.hasBest = kept, true
	j.mu.Unlock()
	if promote && j.Promote != nil {
		return j.Promote(e)
	}
	return nil
}

// gatingSPRT returns the gating test of c.
func gatingSPRT(c runconfig.GatingConfig) *arena.SPRT {
	return &arena.SPRT{Elo0: c.Elo0, Elo1: c.Elo1, Alpha: c.Alpha, Beta: c.Beta}
}

// validateGating checks the gating section, its SPRT included.
func validateGating(c runconfig.GatingConfig) error {
	if err := c.Validate(); err != nil || !c.Enabled {
		return err
	}
	return gatingSPRT(c).Validate()
}
