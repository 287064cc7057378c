package training

import (
	"chuzero/encode"
	"chuzero/mcts"
	"chuzero/mcts/qsearch"
	"chuzero/model"
	"chuzero/rules"
)

// captureBaseline returns the capture search's value of a sample's
// position for its side to move, as the search of sc blends it at a leaf
// (mcts.Config.CaptureSearch, scaled by QuiescenceScale): what a residual
// value head (model.Config.ValueResidual) is trained on top of. The
// position is rebuilt from the sample's SFEN, so the value is the same one
// the search computes there. Not safe for concurrent use: the training
// loop calls it from its one goroutine.
func captureBaseline(sc mcts.Config) model.Baseline {
	var q *qsearch.Search
	return func(s *encode.Sample) (float64, error) {
		pos, _, err := s.Position(nil)
		if err != nil {
			return 0, err
		}
		g := rules.NewGame(pos)
		if q == nil || q.Rules() != g.Rules() {
			q = sc.CaptureSearch(g.Rules())
		}
		return q.Scaled(g, sc.QuiescenceScale), nil
	}
}
