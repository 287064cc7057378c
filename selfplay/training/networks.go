package training

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/model"
)

// matchBatchWait is how long a match's partial batch waits for more
// positions: a batch of arena.MatchBatch fills at once when every game is
// on a network's move, and a game on an anchor's move sends none.
const matchBatchWait = 250 * time.Microsecond

// Networks loads checkpoints once each and runs one batcher per network
// for the evaluators of the players that use it.
type Networks struct {
	variant  string
	store    *checkpoints.Store // the run's, nil if none
	batch    int
	threads  int
	batchers map[string]*model.Batcher // by checkpoint path
	names    map[string]string
	wg       sync.WaitGroup
	cancel   context.CancelFunc
	ctx      context.Context
}

// NewNetworks returns the networks of the players of a match: checkpoint
// references are looked up in the run directory run when it has
// checkpoints (the zero Run: none), else taken as file paths; batch and threads configure each
// batcher.
func NewNetworks(run checkpoints.Run, variant string, batch, threads int) (*Networks, error) {
	n := &Networks{variant: variant, batch: batch, threads: threads, batchers: map[string]*model.Batcher{}, names: map[string]string{}}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	if run.Dir != "" && exists(run.Checkpoints()) {
		s, err := run.Store()
		if err != nil {
			return nil, err
		}
		n.store = s
	}
	return n, nil
}

// HasStore reports whether the networks come from a run's store (else
// from checkpoint files).
func (n *Networks) HasStore() bool { return n.store != nil }

// SetVariant makes the networks those of variant v (a checkpoint of
// another is refused).
func (n *Networks) SetVariant(v string) { n.variant = v }

// Find resolves checkpoint reference ref: in the run's store (a name,
// step-N, "latest", "best"; see Store.Find), else as a file path.
func (n *Networks) Find(ref string) (checkpoints.Entry, error) {
	if n.store != nil {
		e, err := n.store.Find(ref)
		if err == nil || !exists(ref) {
			return e, err
		}
	}
	if !exists(ref) {
		if n.store == nil {
			return checkpoints.Entry{}, fmt.Errorf("checkpoint %q: no run directory with checkpoints and no such file: %w", ref, os.ErrNotExist)
		}
		return checkpoints.Entry{}, fmt.Errorf("checkpoint %q: %w", ref, os.ErrNotExist)
	}
	return checkpoints.Entry{Path: ref, Name: strings.TrimSuffix(filepath.Base(ref), filepath.Ext(ref))}, nil
}

// Lookup returns the batched evaluator of checkpoint reference ref (see
// Find), its name and its entry; each checkpoint is loaded once.
func (n *Networks) Lookup(ref string) (mcts.Evaluator, string, checkpoints.Entry, error) {
	e, err := n.Find(ref)
	if err != nil {
		return nil, "", e, err
	}
	if b, ok := n.batchers[e.Path]; ok {
		return b, n.names[e.Path], e, nil
	}
	net, err := LoadNet(e, n.variant)
	if err != nil {
		return nil, "", e, err
	}
	b, err := model.NewBatcher(net, model.BatcherConfig{MaxBatch: n.batch, MaxWait: matchBatchWait, Workers: 1, Threads: n.threads})
	if err != nil {
		return nil, "", e, err
	}
	n.wg.Add(1)
	go func() { defer n.wg.Done(); b.Run(n.ctx) }()
	n.batchers[e.Path], n.names[e.Path] = b, e.Name
	return b, e.Name, e, nil
}

// Evaluator implements MatchNetworks.
func (n *Networks) Evaluator(e checkpoints.Entry) (mcts.Evaluator, error) {
	ev, _, _, err := n.Lookup(e.Path)
	return ev, err
}

// Close stops the batchers (after the games).
func (n *Networks) Close() {
	n.cancel()
	n.wg.Wait()
}

// exists reports whether the file or directory p exists.
func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
