package main

import (
	"context"
	"os"
	"sync"
	"time"

	"chuzero/checkpoints"
	"chuzero/mcts/eval"
	"chuzero/model"
	"chuzero/selfplay/training"
	"chuzero/selfplay/web"
)

// webNetworks is the web UI's web.Networks: it loads the checkpoint a
// position page asks for (keeping the last one, reloaded when its file
// changes) and runs one forward pass per position on one thread, beside
// whatever the process is doing.
type webNetworks struct {
	mu   sync.Mutex
	path string
	mod  time.Time
	net  *model.Net
	ws   *model.Workspace
}

// Evaluate implements web.Networks. The network must be of the position's
// variant.
func (n *webNetworks) Evaluate(ctx context.Context, e checkpoints.Entry, req *eval.Request) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if err := n.load(e, req.Pos.Rules().Variant().Name); err != nil {
		return err
	}
	spec := n.net.Spec
	planes := make([]float32, spec.PlaneSize())
	st := req.State()
	if err := spec.Encode(&st, planes); err != nil {
		return err
	}
	legal, err := spec.LegalIndices(&req.Pos, req.Moves, nil)
	if err != nil {
		return err
	}
	if err := n.net.Forward(n.ws, planes, 1); err != nil {
		return err
	}
	n.net.Priors(n.ws, 0, legal, req.Priors)
	req.WDL = n.net.WDL(n.ws, 0)
	return nil
}

// load makes the network of e the current one, unless it already is and
// its file has not changed since.
func (n *webNetworks) load(e checkpoints.Entry, variant string) error {
	fi, err := os.Stat(e.Path)
	if err != nil {
		return err
	}
	if n.net != nil && n.path == e.Path && n.mod.Equal(fi.ModTime()) && n.net.Spec.Variant.String() == variant {
		return nil
	}
	net, err := training.LoadNet(e, variant)
	if err != nil {
		return err
	}
	n.net, n.path, n.mod = net, e.Path, fi.ModTime()
	n.ws = net.NewWorkspace(1)
	n.ws.SetThreads(1)
	return nil
}

var _ web.Networks = (*webNetworks)(nil)
