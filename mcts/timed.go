package mcts

import (
	"context"
	"time"

	"chuzero/rules"
)

// Timed is a search within a budget (playouts, time or both), as matches
// and the protocol engines search: the arena's players and
// selfplay/engine's core both run it.
type Timed struct {
	Search *Search
	Budget Budget
	Gumbel bool
	// Chunk is the number of simulations between clock checks of a timed
	// search (default 16).
	Chunk int
	// MaxNodes, if > 0, stops a timed search once the tree holds this
	// many nodes (the engine's "memory" limit; see NodeBytes).
	MaxNodes int
	// Last is the result of the last search (its root statistics).
	Last *Result
}

// Think searches the current position of g within the budget and returns
// the root statistics; Best is the move to play. A timed search runs in
// chunks on the same tree until the time is spent, and always completes at
// least one chunk; a later chunk stops at the deadline, between two
// batches of leaves. Cancelling ctx stops a timed search early with what it
// has; an untimed search returns ctx's error.
func (p *Timed) Think(ctx context.Context, g *rules.Game) (*Result, error) {
	if err := p.Budget.Validate(); err != nil {
		return nil, err
	}
	if p.Budget.Time == 0 {
		res, err := p.Search.Run(ctx, g, Options{Simulations: p.Budget.Simulations, Gumbel: p.Gumbel})
		if err == nil {
			p.Last = res
		}
		return res, err
	}
	// Timed: PUCT chunks accumulate in the reused tree (a Gumbel search
	// shares a fixed budget among its candidates, so it is not chunked:
	// it gets the simulation budget, or 64, within the time).
	deadline := time.Now().Add(p.Budget.Time)
	chunk := p.Chunk
	if chunk <= 0 {
		chunk = 16
	}
	if p.Gumbel {
		n := p.Budget.Simulations
		if n == 0 {
			n = 64
		}
		tctx, cancel := context.WithDeadline(ctx, deadline)
		defer cancel()
		res, err := p.Search.Run(tctx, g, Options{Simulations: n, Gumbel: true})
		if err == nil {
			p.Last = res
		}
		return res, err
	}
	var last *Result
	total, depth := 0, 0
	// the deadline is a hard one: a chunk that would run past it stops
	// between two batches of leaves and plays the tree as it stands (a
	// loaded machine, or leaves whose quiescence search is slow, make a
	// chunk's time vary; the root's own evaluation is always made)
	hard, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	for {
		n := chunk
		if p.Budget.Simulations > 0 {
			n = min(n, p.Budget.Simulations-total)
		}
		res, err := p.Search.Run(hard, g, Options{Simulations: n, Partial: true})
		if err != nil {
			return nil, err
		}
		total += res.Simulations
		depth = max(depth, res.SelDepth)
		last = res
		if hard.Err() != nil || (p.Budget.Simulations > 0 && total >= p.Budget.Simulations) ||
			(p.MaxNodes > 0 && p.Search.NodeCount() >= p.MaxNodes) {
			break
		}
	}
	last.Simulations, last.SelDepth = total, depth
	p.Last = last
	return last, nil
}
