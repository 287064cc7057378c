package training

import (
	"context"
	"os"
	"sync"
	"time"

	"chuzero/checkpoints"
	"chuzero/mcts/eval"
	"chuzero/model"
)

// PositionNetworks answers questions about single positions from a run's
// checkpoints (the web UI's position page: it implements web.Networks):
// it loads the checkpoint asked for, keeps the last one (reloaded when its
// file changes) and runs one forward pass a position on one thread
// (model.Single), beside whatever the process is doing. It is safe for
// concurrent use; the questions take turns.
type PositionNetworks struct {
	mu     sync.Mutex
	path   string
	mod    time.Time
	single *model.Single
}

// Evaluate fills req's priors and win/draw/loss from the network of
// checkpoint e, which must be of the position's variant.
func (n *PositionNetworks) Evaluate(ctx context.Context, e checkpoints.Entry, req *eval.Request) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if err := n.load(e, req.Pos.Rules().Variant().Name); err != nil {
		return err
	}
	return n.single.Evaluate(req)
}

// load makes the network of e the current one, unless it already is and
// its file has not changed since.
func (n *PositionNetworks) load(e checkpoints.Entry, variant string) error {
	fi, err := os.Stat(e.Path)
	if err != nil {
		return err
	}
	if s := n.single; s != nil && n.path == e.Path && n.mod.Equal(fi.ModTime()) && s.Net.Spec.Variant.String() == variant {
		return nil
	}
	net, err := LoadNet(e, variant)
	if err != nil {
		return err
	}
	n.single, n.path, n.mod = model.NewSingle(net, 1), e.Path, fi.ModTime()
	return nil
}
