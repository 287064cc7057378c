package model

import "chuzero/mcts/eval"

// Single answers one request at a time with one network on its own
// workspace: the evaluator of tools that ask a network about positions
// one by one (the learning probe, a position page). It is not safe for
// concurrent use.
type Single struct {
	Net    *Net
	ws     *Workspace
	planes []float32
	legal  []int32
}

// NewSingle returns a one-position evaluator of net using threads
// goroutines a layer (at least 1).
func NewSingle(net *Net, threads int) *Single {
	ws := net.NewWorkspace(1)
	ws.SetThreads(max(threads, 1))
	return &Single{Net: net, ws: ws, planes: make([]float32, net.Spec.PlaneSize())}
}

// Evaluate fills req's priors and win/draw/loss from one forward pass.
func (s *Single) Evaluate(req *eval.Request) error {
	st := req.State()
	if err := s.Net.Spec.Encode(&st, s.planes); err != nil {
		return err
	}
	var err error
	if s.legal, err = s.Net.Spec.LegalIndices(&req.Pos, req.Moves, s.legal[:0]); err != nil {
		return err
	}
	if err := s.Net.Forward(s.ws, s.planes, 1); err != nil {
		return err
	}
	s.Net.Priors(s.ws, 0, s.legal, req.Priors)
	req.WDL = s.Net.WDL(s.ws, 0)
	req.Residual = float32(s.Net.Config.ValueResidual)
	return nil
}
