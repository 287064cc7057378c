package training

import (
	"context"
	"fmt"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/mcts"
	"chuzero/mcts/eval"
	"chuzero/model"
	"chuzero/rules"
	"chuzero/selfplay"
)

// reanalyser re-searches stored positions with the newest checkpoint's
// network, as a self-play full search would (the run's search, playouts,
// Gumbel and capture-value weight at the checkpoint's step): MuZero's
// Reanalyse, so each stored position teaches the current network's
// search. The position is rebuilt from the sample's SFEN, without the
// moves before it, so a repetition earlier in the game is not seen. It is
// not safe for concurrent use: the training goroutine calls set (at each
// checkpoint) and reanalyse (before each step).
type reanalyser struct {
	sp      selfplay.Config
	threads int
	step    int64
	ev      *singleEvaluator // nil before the first network
}

// newReanalyser returns a reanalyser searching as self-play config sp
// does, its network's layers on threads goroutines.
func newReanalyser(sp selfplay.Config, threads int) *reanalyser {
	return &reanalyser{sp: sp, threads: threads}
}

// reanalyser returns the reanalyser of a run whose training section asks
// for reanalysis (train.reanalyse > 0), set as lc's; nil otherwise.
func (c *Config) reanalyser(run checkpoints.Run, lc *model.LoopConfig) (*reanalyser, error) {
	if lc.Reanalyse <= 0 {
		return nil, nil
	}
	sp, err := c.SelfPlayConfig(run)
	if err != nil {
		return nil, err
	}
	ra := newReanalyser(sp, lc.Train.Threads)
	lc.Reanalyser = ra.reanalyse
	return ra, nil
}

// set makes w, the network of the checkpoint at step, the one searched
// with (copied: later training does not change it).
func (r *reanalyser) set(step int64, w *model.Weights) {
	r.step, r.ev = step, &singleEvaluator{model.NewSingle(model.NewNet(w), r.threads)}
}

// reanalyse is a model.Reanalyser.
func (r *reanalyser) reanalyse(s *encode.Sample) (model.ReanalysedTargets, bool, error) {
	if r.ev == nil {
		return model.ReanalysedTargets{}, false, nil
	}
	if v := r.ev.s.Net.Spec.Variant; s.Config.Variant != v {
		return model.ReanalysedTargets{}, false, fmt.Errorf("a %s sample for a %s network", s.Config.Variant, v)
	}
	pos, _, err := s.Position(nil)
	if err != nil {
		return model.ReanalysedTargets{}, false, err
	}
	g := rules.NewGame(pos)
	if res := g.Result(); res.Over() {
		return model.ReanalysedTargets{}, false, fmt.Errorf("the position is over (%s)", res.Reason)
	}
	sc := r.sp.Search
	sc.Quiescence = r.sp.QuiescenceAt(r.step)
	search, err := mcts.New(sc, r.ev, rules.Mix64(s.GameID^uint64(s.Ply)*rules.Golden))
	if err != nil {
		return model.ReanalysedTargets{}, false, err
	}
	full, _ := r.sp.SimulationsAt(r.step)
	res, err := search.Run(context.Background(), g, mcts.Options{Simulations: full, Noise: !r.sp.Gumbel, Gumbel: r.sp.Gumbel})
	if err != nil {
		return model.ReanalysedTargets{}, false, err
	}
	pol, err := selfplay.PolicyTarget(r.ev.s.Net.Spec, g.Position(), res)
	if err != nil {
		return model.ReanalysedTargets{}, false, err
	}
	return model.ReanalysedTargets{Policy: pol, RootValue: selfplay.RootValue(res), RootVisits: selfplay.RootVisits(res)}, true, nil
}

// singleEvaluator answers a search's requests one at a time with one
// network (the trainer's goroutine has no batcher).
type singleEvaluator struct{ s *model.Single }

// Evaluate implements mcts.Evaluator.
func (e *singleEvaluator) Evaluate(ctx context.Context, reqs []*eval.Request) error {
	for _, req := range reqs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := e.s.Evaluate(req); err != nil {
			return err
		}
	}
	return nil
}
