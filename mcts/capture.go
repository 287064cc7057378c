package mcts

import (
	"chuzero/mcts/qsearch"
	"chuzero/rules"
)

// CaptureSearch returns the capture search of the config's leaves under
// rules r: QuiescenceDepth plies of captures, at most QuiescenceBudget
// nodes a call. Every user of the capture search a run's settings
// describe (the tree's leaves, the labels of capped games, the probe, the
// position page) builds it here.
func (c *Config) CaptureSearch(r *rules.Rules) *qsearch.Search {
	q := qsearch.New(r, c.QuiescenceDepth)
	q.Budget = int64(c.QuiescenceBudget)
	return q
}

// Blend returns the value a leaf backs up: the network's value v blended
// with the capture search's value q by lambda (Config.Quiescence, or its
// schedule at a step: selfplay.Config.QuiescenceAt).
func Blend(v, q, lambda float64) float64 { return (1-lambda)*v + lambda*q }

// Residual returns the value a leaf backs up when the network's value v
// is a residual of the capture search's value q with weight r
// (model.Config.ValueResidual): v + r·q, clamped to [-1, 1]. The search's
// own blend weight only switches the capture search on; the network was
// trained for r.
func Residual(v, q, r float64) float64 { return max(-1, min(1, v+r*q)) }
