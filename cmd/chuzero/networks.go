package main

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
	"chuzero/selfplay/arena"
)

// matchBatchWait is how long a match's partial batch waits for more
// positions: a batch of arena.MatchBatch fills at once when every game is
// on a network's move, and a game on an anchor's move sends none.
const matchBatchWait = 250 * time.Microsecond

// networks loads checkpoints once each and runs one batcher per network
// for the evaluators of the players that use it.
type networks struct {
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

// newNetworks returns the networks of the players of a match: checkpoint
// references are looked up in the run directory runDir when it has
// checkpoints, else taken as file paths; batch and threads configure each
// batcher.
func newNetworks(runDir, variant string, batch, threads int) (*networks, error) {
	n := &networks{variant: variant, batch: batch, threads: threads, batchers: map[string]*model.Batcher{}, names: map[string]string{}}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	if run := (checkpoints.Run{Dir: runDir}); runDir != "" && exists(run.Checkpoints()) {
		s, err := run.Store()
		if err != nil {
			return nil, err
		}
		n.store = s
	}
	return n, nil
}

// evaluator returns the batched evaluator of checkpoint ref and its name.
func (n *networks) evaluator(ref string) (mcts.Evaluator, string, checkpoints.Entry, error) {
	var e checkpoints.Entry
	var err error
	switch {
	case n.store != nil:
		e, err = n.store.Find(ref)
	case exists(ref):
		e = checkpoints.Entry{Path: ref, Name: strings.TrimSuffix(filepath.Base(ref), filepath.Ext(ref))}
	default:
		err = fmt.Errorf("checkpoint %q: no run directory with checkpoints (-run) and no such file", ref)
	}
	if err != nil {
		return nil, "", e, err
	}
	if b, ok := n.batchers[e.Path]; ok {
		return b, n.names[e.Path], e, nil
	}
	net, err := loadNet(e, n.variant)
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

// close stops the batchers (after the games).
func (n *networks) close() {
	n.cancel()
	n.wg.Wait()
}

// entrant builds the arena player of a spec.
func (n *networks) entrant(p playerSpec, engineLog *os.File) (arena.Entrant, error) {
	switch p.kind {
	case "random":
		return arena.Random{}, nil
	case "greedy":
		return arena.Greedy{}, nil
	case "ab":
		return p.alphaBeta(), nil
	case "uniform", "material":
		var eval mcts.Evaluator = mcts.Uniform{}
		if p.kind == "material" {
			eval = mcts.Material{Scale: 3}
		}
		s := arena.NewSearcher(p.label(""), eval, p.budget)
		s.Gumbel = p.gumbel
		s.Config.Quiescence = p.quiescence()
		return s, p.budget.Validate()
	case "xboard":
		e := &arena.Engine{Label: p.label(""), Command: strings.Fields(p.ref), Depth: p.depth, Memory: p.memory,
			MoveTime: p.mtime, Timeout: p.tmout, Options: p.opts}
		if engineLog != nil {
			e.Log = engineLog
		}
		if _, err := arena.LookPath(e.Command[0]); err != nil {
			return nil, fmt.Errorf("engine %q: %w", p.ref, err)
		}
		return e, nil
	}
	eval, name, _, err := n.evaluator(p.ref)
	if err != nil {
		return nil, err
	}
	s := arena.NewSearcher(p.label(name), eval, p.budget)
	s.Gumbel = p.gumbel
	s.Config.MaterialUtility = p.utility
	s.Config.Quiescence = p.quiescence()
	return s, p.budget.Validate()
}
