package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/model"
	"chuzero/selfplay/arena"
)

// playerSpecHelp documents the player arguments of "chuzero arena".
const playerSpecHelp = `Players (two or more):
  latest, step-000001000, 1000, path/to/file.ckpt
                      a checkpoint of the run (-run) or a checkpoint file
  uniform             tree search with uniform priors (no network)
  random, greedy      uniform random moves; one-ply material greed
  ab                  alpha-beta on material (default depth=2; Sho/Heian anchors)
  hachu               Debian's HaChu (XBoard engine; same as xboard:hachu)
  xboard:CMD ARGS     any XBoard (CECP) engine, by its command line
Each may be followed by options, comma-separated:
  name=N              the name in tables and records
  sims=N, time=D      search budget of a checkpoint or uniform (default -sims/-movetime)
  gumbel              Gumbel root search instead of PUCT
  depth=N, time=D     an engine's depth ("sd") and time per move ("st")
  depth=N, time=D, nodes=N   ab: plies (1-64), time per move, node cap per move
  memory=MB, timeout=D, opt:NAME=VALUE   engine hash, move timeout, engine option
Example: chuzero arena -games 20 latest,sims=200 hachu,depth=2`

// playerSpec is a parsed player argument.
type playerSpec struct {
	kind   string // checkpoint, uniform, random, greedy, ab, xboard
	ref    string // checkpoint reference, or the engine command line
	name   string
	budget mcts.Budget
	gumbel bool
	depth  int
	memory int
	mtime  time.Duration
	tmout  time.Duration
	nodes  int64 // ab's node cap
	opts   map[string]string
}

// parsePlayer reads one player argument (see playerSpecHelp).
func parsePlayer(s string, def mcts.Budget) (playerSpec, error) {
	parts := strings.Split(s, ",")
	p := playerSpec{ref: strings.TrimSpace(parts[0]), budget: def, opts: map[string]string{}}
	switch {
	case p.ref == "":
		return p, fmt.Errorf("player %q: empty", s)
	case p.ref == "uniform" || p.ref == "random" || p.ref == "greedy" || p.ref == "ab":
		p.kind = p.ref
	case p.ref == "hachu":
		p.kind, p.ref = "xboard", "hachu"
	case strings.HasPrefix(p.ref, "xboard:"):
		p.kind, p.ref = "xboard", strings.TrimSpace(strings.TrimPrefix(p.ref, "xboard:"))
		if p.ref == "" {
			return p, fmt.Errorf("player %q: xboard: needs a command", s)
		}
	default:
		p.kind = "checkpoint"
	}
	budgetSet := false
	for _, o := range parts[1:] {
		if err := p.setOption(o, &budgetSet); err != nil {
			return p, fmt.Errorf("player %q: option %q: %v", s, o, err)
		}
	}
	if p.kind == "xboard" && (p.budget != def && !budgetSet) {
		p.budget = def
	}
	if p.kind == "ab" {
		if err := p.alphaBeta().Validate(); err != nil {
			return p, fmt.Errorf("player %q: %v", s, err)
		}
	}
	return p, nil
}

// setOption applies one option of a player spec ("key=value"); the first
// sims= or time= replaces the default budget, whose flag budgetSet keeps.
func (p *playerSpec) setOption(o string, budgetSet *bool) error {
	k, v, _ := strings.Cut(strings.TrimSpace(o), "=")
	var err error
	switch {
	case p.kind == "ab" && !abOptions[k]:
		err = errors.New("not an option of ab (name, depth, time, nodes)")
	case k == "name" && v != "":
		p.name = v
	case k == "sims":
		var n int
		n, err = strconv.Atoi(v)
		if err == nil && n < 1 {
			err = errors.New("must be at least 1")
		}
		if !*budgetSet {
			p.budget, *budgetSet = mcts.Budget{}, true
		}
		p.budget.Simulations = n
	case k == "time":
		var d time.Duration
		d, err = time.ParseDuration(v)
		if err == nil && d <= 0 {
			err = errors.New("must be positive")
		}
		if !*budgetSet {
			p.budget, *budgetSet = mcts.Budget{}, true
		}
		p.budget.Time, p.mtime = d, d
	case k == "gumbel" && v == "":
		p.gumbel = true
	case k == "depth":
		p.depth, err = strconv.Atoi(v)
		if err == nil && p.kind == "ab" && p.depth < 1 {
			err = errors.New("must be at least 1")
		}
	case k == "nodes" && p.kind == "ab":
		p.nodes, err = strconv.ParseInt(v, 10, 64)
		if err == nil && p.nodes < 1 {
			err = errors.New("must be at least 1")
		}
	case k == "memory":
		p.memory, err = strconv.Atoi(v)
	case k == "timeout":
		p.tmout, err = time.ParseDuration(v)
	case strings.HasPrefix(k, "opt:"):
		var name, value string
		name, value, err = arena.ParseEngineOption(strings.TrimPrefix(o, "opt:"))
		p.opts[name] = value
	default:
		err = errors.New("unknown option")
	}
	return err
}

// abOptions are the options an ab player takes.
var abOptions = map[string]bool{"name": true, "depth": true, "time": true, "nodes": true}

// alphaBeta is the arena player of an ab spec: depth 2 unless a depth,
// time or node cap is given.
func (p playerSpec) alphaBeta() arena.AlphaBeta {
	a := arena.AlphaBeta{Label: p.name, Depth: p.depth, Time: p.mtime, Nodes: p.nodes}
	if a.Depth == 0 && a.Time == 0 && a.Nodes == 0 {
		a.Depth = 2
	}
	return a
}

// label is the player's default name: "hachu-d2", "step-000001000",
// "uniform-200".
func (p playerSpec) label(ckptName string) string {
	if p.name != "" {
		return p.name
	}
	switch p.kind {
	case "random", "greedy":
		return p.kind
	case "ab":
		return p.alphaBeta().Name()
	case "uniform":
		return "uniform-" + budgetLabel(p.budget)
	case "xboard":
		base := filepath.Base(strings.Fields(p.ref)[0])
		if p.depth > 0 {
			base += fmt.Sprintf("-d%d", p.depth)
		}
		return base
	}
	return ckptName + "-" + budgetLabel(p.budget)
}

func budgetLabel(b mcts.Budget) string {
	if b.Time > 0 && b.Simulations == 0 {
		return b.Time.String()
	}
	return strconv.Itoa(b.Simulations)
}

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
	b, err := model.NewBatcher(net, model.BatcherConfig{MaxBatch: n.batch, MaxWait: time.Millisecond, Workers: 1, Threads: n.threads})
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
	case "uniform":
		s := arena.NewSearcher(p.label(""), mcts.Uniform{}, p.budget)
		s.Gumbel = p.gumbel
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
	return s, p.budget.Validate()
}
