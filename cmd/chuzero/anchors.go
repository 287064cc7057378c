package main

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/arena"
)

// The evaluation's anchors: "first" (the run's first checkpoint, kept as
// anchors/first.ckpt), "previous" (the checkpoint evaluated before, kept
// as anchors/previous.ckpt: a rolling anchor that measures progress per
// interval), "greedy", "random", "abN" (the alpha-beta player at depth N,
// 1..9) and "hachu" (Chu, when Debian's hachu is installed).

// validAnchor reports whether a names an anchor.
func validAnchor(a string) bool {
	switch a {
	case "first", "previous", "greedy", "random", "hachu":
		return true
	}
	_, ok := abAnchorDepth(a)
	return ok
}

// abAnchorDepth reads "abN" (N in 1..9).
func abAnchorDepth(a string) (int, bool) {
	d, err := strconv.Atoi(strings.TrimPrefix(a, "ab"))
	if !strings.HasPrefix(a, "ab") || err != nil || d < 1 || d > 9 {
		return 0, false
	}
	return d, true
}

// anchor returns the entrant of anchor a for evaluating latest, or nil
// when it does not apply (the checkpoint is the anchor itself, or the
// variant or machine lacks it).
func (j *judge) anchor(a string, latest checkpoints.Entry, nets *networks, b mcts.Budget) (arena.Entrant, error) {
	switch a {
	case "greedy":
		return arena.Greedy{}, nil
	case "random":
		return arena.Random{}, nil
	case "first", "previous":
		e, err := j.anchorEntry(a)
		if err != nil || e.Step == latest.Step {
			return nil, nil // none yet (no earlier evaluation), or the same network
		}
		ev, _, _, err := nets.evaluator(e.Path)
		if err != nil {
			return nil, err
		}
		return arena.NewSearcher(a, ev, b), nil
	case "hachu":
		if j.rules.Variant != rules.Chu {
			return nil, nil // Debian's HaChu 0.21 plays Chu only (its Sho setup fails)
		}
		if _, err := arena.LookPath("hachu"); err != nil {
			return nil, nil
		}
		ev := j.cfg.Eval
		return &arena.Engine{Label: fmt.Sprintf("hachu-d%d", ev.HaChuDepth), Command: []string{"hachu"}, Depth: ev.HaChuDepth}, nil
	}
	if d, ok := abAnchorDepth(a); ok {
		return arena.AlphaBeta{Depth: d}, nil
	}
	return nil, fmt.Errorf("eval: unknown anchor %q", a)
}

// anchorEntry returns the kept checkpoint of anchor name (first or
// previous) under anchors/.
func (j *judge) anchorEntry(name string) (checkpoints.Entry, error) {
	p := filepath.Join(j.dir, anchorsDir, name+".ckpt")
	c, err := checkpoints.ReadFile(p)
	if err != nil {
		return checkpoints.Entry{}, err
	}
	return checkpoints.Entry{Name: checkpoints.Name(c.Meta.Step), Step: c.Meta.Step, Path: p}, nil
}

// keepFirst copies the oldest checkpoint to anchors/first.ckpt once.
func (j *judge) keepFirst() error {
	p := filepath.Join(j.dir, anchorsDir, "first.ckpt")
	if exists(p) {
		return nil
	}
	list, err := j.store.List()
	if err != nil || len(list) == 0 {
		return err
	}
	return copyAtomic(list[0].Path, p)
}

// keepPrevious makes the checkpoint just evaluated the next evaluation's
// "previous" anchor (a copy, safe from pruning).
func (j *judge) keepPrevious(e checkpoints.Entry) error {
	return copyAtomic(e.Path, filepath.Join(j.dir, anchorsDir, "previous.ckpt"))
}

// finiteElo maps ±Inf to ±1e9 (JSON has no infinities; report plots
// them at the edge).
func finiteElo(x float64) float64 {
	switch {
	case x > 1e9:
		return 1e9
	case x < -1e9:
		return -1e9
	case x != x:
		return 0
	}
	return x
}
