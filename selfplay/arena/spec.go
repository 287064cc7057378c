package arena

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"chuzero/mcts"
)

// PlayerSpecHelp documents the player arguments of "chuzero arena".
const PlayerSpecHelp = `Players (two or more):
  latest, step-000001000, 1000, path/to/file.ckpt
                      a checkpoint of the run (-run) or a checkpoint file
  uniform             tree search with uniform priors (no network)
  material            tree search with uniform priors and a material value
                      (tanh(3·balance/army): what knowing material alone buys)
  random, greedy      uniform random moves; one-ply material greed
  ab                  alpha-beta on material (default depth=2; Sho/Heian anchors)
  hachu               Debian's HaChu (XBoard engine; same as xboard:hachu)
  xboard:CMD ARGS     any XBoard (CECP) engine, by its command line
Each may be followed by options, comma-separated:
  name=N              the name in tables and records
  sims=N, time=D      search budget of a checkpoint or uniform (default -sims/-movetime)
  gumbel              Gumbel root search instead of PUCT
  wide                a checkpoint, uniform or material: PUCT visits every root
                      move once, in prior order, before any twice (mcts
                      root_full_width; the name says -wide)
  utility=U           a checkpoint: add U x its material head's forecast to the
                      value in search (0-1; selfplay.material_utility)
  qs=L                a checkpoint, uniform or material: blend the capture
                      search into the value of every leaf with weight L (0-1;
                      selfplay.quiescence; material,qs=1 searches on it alone;
                      default: a checkpoint the match default, the others 0;
                      the name says -qsL when it is given)
  mm=A                a checkpoint, uniform or material: blend each child's
                      implicit minimax value into its mean with weight A (0-1;
                      mcts minimax_weight; the name says -mmA)
  depth=N, time=D     an engine's depth ("sd") and time per move ("st")
  depth=N, time=D, nodes=N   ab: plies (1-64), time per move, node cap per move
  memory=MB, timeout=D, opt:NAME=VALUE   engine hash, move timeout, engine option
Example: chuzero arena -games 20 latest,sims=200 hachu,depth=2`

// PlayerSpec is a parsed player argument.
type PlayerSpec struct {
	kind   string // checkpoint, uniform, material, random, greedy, ab, xboard
	ref    string // checkpoint reference, or the engine command line
	name   string
	budget mcts.Budget
	gumbel bool
	wide   bool // mcts.Config.RootFullWidth
	depth  int
	memory int
	mtime  time.Duration
	tmout  time.Duration
	nodes  int64 // ab's node cap
	opts   map[string]string
	// utility is a checkpoint's material utility in search
	// (mcts.Config.MaterialUtility)
	utility float64
	// qs is the quiescence blend in search (mcts.Config.Quiescence), set
	// by qs= (qsSet); without it a checkpoint searches with the match
	// default and uniform and material with none (the yardsticks).
	qs    float64
	qsSet bool
	// mm is the implicit minimax weight in search (mcts.Config.MinimaxWeight)
	mm float64
}

// quiescence returns the player's quiescence blend.
func (p PlayerSpec) quiescence() float64 {
	switch {
	case p.qsSet:
		return p.qs
	case p.kind == "checkpoint":
		return mcts.MatchConfig().Quiescence
	}
	return 0
}

// ParsePlayer reads one player argument (see PlayerSpecHelp).
func ParsePlayer(s string, def mcts.Budget) (PlayerSpec, error) {
	parts := strings.Split(s, ",")
	p := PlayerSpec{ref: strings.TrimSpace(parts[0]), budget: def, opts: map[string]string{}}
	switch {
	case p.ref == "":
		return p, fmt.Errorf("player %q: empty", s)
	case p.ref == "uniform" || p.ref == "material" || p.ref == "random" || p.ref == "greedy" || p.ref == "ab":
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
func (p *PlayerSpec) setOption(o string, budgetSet *bool) error {
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
	case k == "wide" && v == "" && (p.kind == "checkpoint" || p.kind == "uniform" || p.kind == "material"):
		p.wide = true
	case k == "utility" && p.kind == "checkpoint":
		p.utility, err = strconv.ParseFloat(v, 64)
		if err == nil && !(p.utility >= 0 && p.utility <= 1) {
			err = errors.New("must be in [0, 1]")
		}
	case k == "qs" && (p.kind == "checkpoint" || p.kind == "uniform" || p.kind == "material"):
		p.qs, err = strconv.ParseFloat(v, 64)
		if err == nil && !(p.qs >= 0 && p.qs <= 1) {
			err = errors.New("must be in [0, 1]")
		}
		p.qsSet = true
	case k == "mm" && (p.kind == "checkpoint" || p.kind == "uniform" || p.kind == "material"):
		p.mm, err = strconv.ParseFloat(v, 64)
		if err == nil && !(p.mm >= 0 && p.mm <= 1) {
			err = errors.New("must be in [0, 1]")
		}
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
		name, value, err = ParseEngineOption(strings.TrimPrefix(o, "opt:"))
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
func (p PlayerSpec) alphaBeta() AlphaBeta {
	a := AlphaBeta{Label: p.name, Depth: p.depth, Time: p.mtime, Nodes: p.nodes}
	if a.Depth == 0 && a.Time == 0 && a.Nodes == 0 {
		a.Depth = 2
	}
	return a
}

// label is the player's default name: "hachu-d2", "step-000001000",
// "uniform-200".
func (p PlayerSpec) label(ckptName string) string {
	if p.name != "" {
		return p.name
	}
	switch p.kind {
	case "random", "greedy":
		return p.kind
	case "ab":
		return p.alphaBeta().Name()
	case "uniform", "material":
		return p.kind + "-" + budgetLabel(p.budget) + p.qsLabel()
	case "xboard":
		base := filepath.Base(strings.Fields(p.ref)[0])
		if p.depth > 0 {
			base += fmt.Sprintf("-d%d", p.depth)
		}
		return base
	}
	l := ckptName + "-" + budgetLabel(p.budget)
	if p.utility > 0 {
		l += "-u" + strconv.FormatFloat(p.utility, 'g', -1, 64)
	}
	return l + p.qsLabel()
}

// qsLabel is the label's mark of a minimax weight (mm=: "-mm0.5") and a
// quiescence blend given with qs= ("-qs0.5"); "" for the player's
// defaults (no minimax; a checkpoint's match blend, none for uniform and
// material).
func (p PlayerSpec) qsLabel() string {
	l := ""
	if p.mm > 0 {
		l = "-mm" + strconv.FormatFloat(p.mm, 'g', -1, 64)
	}
	if p.qsSet {
		l += "-qs" + strconv.FormatFloat(p.qs, 'g', -1, 64)
	}
	if p.wide {
		l += "-wide"
	}
	return l
}

func budgetLabel(b mcts.Budget) string {
	if b.Time > 0 && b.Simulations == 0 {
		return b.Time.String()
	}
	return strconv.Itoa(b.Simulations)
}

// Lookup resolves a checkpoint reference of a player spec to its
// evaluator and the checkpoint's name (the run's networks).
type Lookup func(ref string) (mcts.Evaluator, string, error)

// Entrant builds the arena player of p: lookup resolves a checkpoint
// player's network, and an XBoard engine's traffic goes to engineLog (nil:
// none).
func (p PlayerSpec) Entrant(lookup Lookup, engineLog io.Writer) (Entrant, error) {
	switch p.kind {
	case "random":
		return Random{}, nil
	case "greedy":
		return Greedy{}, nil
	case "ab":
		return p.alphaBeta(), nil
	case "uniform", "material":
		var eval mcts.Evaluator = mcts.Uniform{}
		if p.kind == "material" {
			eval = mcts.Material{Scale: 3}
		}
		s := NewSearcher(p.label(""), eval, p.budget)
		s.Gumbel = p.gumbel
		s.Config.Quiescence = p.quiescence()
		s.Config.MinimaxWeight, s.Config.RootFullWidth = p.mm, p.wide
		return s, p.budget.Validate()
	case "xboard":
		e := &CECPClient{Label: p.label(""), Command: strings.Fields(p.ref), Depth: p.depth, Memory: p.memory,
			MoveTime: p.mtime, Timeout: p.tmout, Options: p.opts, Log: engineLog}
		if _, err := LookPath(e.Command[0]); err != nil {
			return nil, fmt.Errorf("engine %q: %w", p.ref, err)
		}
		return e, nil
	}
	eval, name, err := lookup(p.ref)
	if err != nil {
		return nil, err
	}
	s := NewSearcher(p.label(name), eval, p.budget)
	s.Gumbel = p.gumbel
	s.Config.MaterialUtility = p.utility
	s.Config.Quiescence = p.quiescence()
	s.Config.MinimaxWeight, s.Config.RootFullWidth = p.mm, p.wide
	return s, p.budget.Validate()
}
