package engine

import (
	"context"
	"time"

	"chuzero/mcts"
	"chuzero/rules"
)

// MaxPV bounds a reported line.
const MaxPV = 32

// Bounds bound a search. With neither Think nor Sims it runs until
// cancelled.
type Bounds struct {
	Think    time.Duration // 0: no time bound
	Sims     int           // playouts; 0: no bound
	MaxNodes int           // tree size at which the search stops; 0: none
	// Endless holds the outcome until the search is cancelled, even when
	// a bound ended it (USI's infinite and ponder, analysis).
	Endless bool
	// Until, if not nil, ends the search after the first slice whose
	// report it accepts (USI's "go mate": once a mating line is found).
	Until func(Progress) bool
}

// Progress is a report on a search: after each slice of
// Config.ReportEvery, and in its Outcome.
type Progress struct {
	Game     *rules.Game // the position searched: read it only in the callback
	Lines    []Line      // Lines[0]: the principal variation
	Sims     int         // playouts so far
	SelDepth int         // the deepest playout, in plies
	Nodes    int         // tree nodes
	// RootVisits are the visits of the root's moves: Sims plus those kept
	// from earlier searches of the tree.
	RootVisits int
	Elapsed    time.Duration
}

// Outcome is a search that ended: its result (nil if it failed before
// one: Err says why) and the last Progress.
type Outcome struct {
	Progress
	Res *mcts.Result
	Err error
	// Tag is the protocol's note on the search (see Think).
	Tag any
}

// Thought is a search in progress.
type Thought struct {
	cancel  context.CancelFunc
	discard bool
	done    chan Outcome
	// Game is the game searched, owned by the search until it ends.
	Game *rules.Game
	// Tag is the protocol's note on the search.
	Tag any
}

// Thinking returns the search in progress, or nil.
func (c *Core) Thinking() *Thought { return c.thinking }

// Think searches g within b on a goroutine of its own; report, if not
// nil, gets a Progress after each slice (on the search goroutine). The
// Outcome, carrying tag, goes to the Handler's Finish. A search already in
// progress must have ended first.
func (c *Core) Think(ctx context.Context, g *rules.Game, b Bounds, tag any, report func(Progress)) {
	if c.thinking != nil {
		panic("engine: Think during a search")
	}
	tctx, cancel := context.WithCancel(ctx)
	t := &Thought{cancel: cancel, done: make(chan Outcome, 1), Game: g, Tag: tag}
	c.thinking = t
	player, multiPV, every := c.Player, c.MultiPV, c.Cfg.ReportEvery
	go func() {
		o := search(tctx, player, g, b, multiPV, every, report)
		if b.Endless {
			if tctx.Err() == nil && o.Res != nil && report != nil {
				report(o.Progress) // ended by a bound: its last word before the wait
			}
			<-tctx.Done()
		}
		o.Tag = tag
		t.done <- o
	}()
}

// Cancel asks the search in progress to end; its Outcome still comes to
// Finish.
func (c *Core) Cancel() {
	if c.thinking != nil {
		c.thinking.cancel()
	}
}

// Stop ends the search in progress and waits for it; discard drops its
// Outcome, else Finish gets it.
func (c *Core) Stop(discard bool) {
	if c.thinking == nil {
		return
	}
	c.thinking.discard = discard
	c.thinking.cancel()
	c.finish(<-c.thinking.done)
}

// Wait waits for the search in progress to end by its bounds and hands
// its Outcome to Finish.
func (c *Core) Wait() {
	if c.thinking != nil {
		c.finish(<-c.thinking.done)
	}
}

// finish clears the search in progress and hands o on unless discarded.
func (c *Core) finish(o Outcome) {
	t := c.thinking
	c.thinking = nil
	t.cancel()
	if !t.discard && c.h != nil {
		c.h.Finish(c.ctx, o)
	}
}

// search runs p on g within b, in slices of every with a report after
// each.
func search(ctx context.Context, p *mcts.Timed, g *rules.Game, b Bounds, multiPV int, every time.Duration, report func(Progress)) Outcome {
	start := time.Now()
	var last *mcts.Result
	total, depth := 0, 0
	p.MaxNodes = b.MaxNodes
	progress := func() Progress {
		pr := Progress{Game: g, Lines: TopLines(p.Search, last, g, multiPV), Sims: total, SelDepth: depth, Nodes: p.Search.NodeCount(), Elapsed: time.Since(start)}
		for _, v := range last.Visits {
			pr.RootVisits += int(v)
		}
		return pr
	}
	// once a slice has a result, the time bound is a hard deadline for the
	// slices after it: their first chunk too stops between two batches of
	// leaves when it would run past (a loaded machine makes a chunk's time
	// vary), so the move comes in time
	hard := ctx
	if b.Think > 0 {
		var cancel context.CancelFunc
		hard, cancel = context.WithDeadline(ctx, start.Add(b.Think))
		defer cancel()
	}
	for {
		slice := every
		if b.Think > 0 {
			slice = max(min(slice, b.Think-time.Since(start)), time.Millisecond)
		}
		p.Budget = mcts.Budget{Time: slice}
		if b.Sims > 0 {
			p.Budget.Simulations = b.Sims - total
		}
		sctx := ctx
		if last != nil {
			sctx = hard
		}
		res, err := p.Think(sctx, g)
		if err != nil {
			if last != nil && sctx.Err() != nil {
				break
			}
			return Outcome{Progress: Progress{Game: g, Elapsed: time.Since(start)}, Err: err}
		}
		total += res.Simulations
		depth = max(depth, res.SelDepth)
		last = res
		elapsed := time.Since(start)
		if ctx.Err() != nil || (b.Think > 0 && elapsed >= b.Think) || (b.Sims > 0 && total >= b.Sims) || (b.MaxNodes > 0 && p.Search.NodeCount() >= b.MaxNodes) {
			break
		}
		if report != nil || b.Until != nil {
			pr := progress()
			if b.Until != nil && b.Until(pr) {
				break
			}
			if report != nil {
				report(pr)
			}
		}
	}
	return Outcome{Progress: progress(), Res: last}
}
