package arena

import (
	"context"
	"time"

	"chuzero/mcts"
	"chuzero/rules"
)

// Searcher plays by tree search with an evaluator (a network, or
// mcts.Uniform for pure rules-scored search): the most visited move (PUCT,
// no noise, temperature 0), or the Gumbel winner with Gumbel on. The tree
// is kept from move to move.
type Searcher struct {
	Label  string         // its name in tables and records
	Eval   mcts.Evaluator // shared by concurrent games (a batcher batches them)
	Config mcts.Config
	Budget mcts.Budget
	Gumbel bool
}

// MatchBatch is the network batch of a match of concurrency games at
// once: the most positions their searches have in flight
// (mcts.DefaultLeavesPerBatch each), at most 64. A larger batch would
// wait out its timeout on every evaluation.
func MatchBatch(concurrency int) int {
	return min(64, mcts.DefaultLeavesPerBatch*max(1, concurrency))
}

// NewSearcher returns a searcher with the deterministic match settings
// (mcts.MatchConfig: no temperature, tree reuse).
func NewSearcher(label string, eval mcts.Evaluator, b mcts.Budget) *Searcher {
	return &Searcher{Label: label, Eval: eval, Config: mcts.MatchConfig(), Budget: b}
}

// Name implements Entrant.
func (s *Searcher) Name() string { return s.Label }

// Open implements Entrant.
func (s *Searcher) Open(_ context.Context, _ *rules.Rules, seed uint64) (Player, error) {
	if err := s.Budget.Validate(); err != nil {
		return nil, err
	}
	cfg := s.Config
	cfg.Gumbel = s.Gumbel
	search, err := mcts.New(cfg, s.Eval, seed)
	if err != nil {
		return nil, err
	}
	return &SearchPlayer{Search: search, Budget: s.Budget, Gumbel: s.Gumbel}, nil
}

// SearchPlayer is the Player of a Searcher; the CECP engine uses it too.
type SearchPlayer struct {
	Search *mcts.Search
	Budget mcts.Budget
	Gumbel bool
	// Chunk is the number of simulations between clock checks of a timed
	// search (default 16).
	Chunk int
	// MaxNodes, if > 0, stops a timed search once the tree holds this
	// many nodes (the engine's "memory" limit; see mcts.NodeBytes).
	MaxNodes int
	// Last is the result of the last search (its root statistics).
	Last *mcts.Result
}

// Move implements Player: a search of the budget, then its best move.
func (p *SearchPlayer) Move(ctx context.Context, g *rules.Game) (Reply, error) {
	res, err := p.Think(ctx, g)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Move: res.Best, Value: res.RootValue, Nodes: int64(res.Simulations)}, nil
}

// Think searches the current position of g within the budget and returns
// the root statistics; Best is the move to play. A timed search runs in
// chunks on the same tree until the time is spent, and always completes at
// least one chunk; a later chunk stops at the deadline, between two
// batches of leaves. Cancelling ctx stops a timed search early with what it
// has; an untimed search returns ctx's error.
func (p *SearchPlayer) Think(ctx context.Context, g *rules.Game) (*mcts.Result, error) {
	if err := p.Budget.Validate(); err != nil {
		return nil, err
	}
	if p.Budget.Time == 0 {
		res, err := p.Search.Run(ctx, g, mcts.Options{Simulations: p.Budget.Simulations, Gumbel: p.Gumbel})
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
		res, err := p.Search.Run(tctx, g, mcts.Options{Simulations: n, Gumbel: true})
		if err == nil {
			p.Last = res
		}
		return res, err
	}
	var last *mcts.Result
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
		res, err := p.Search.Run(hard, g, mcts.Options{Simulations: n, Partial: true})
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

// Close implements Player.
func (p *SearchPlayer) Close() error { return nil }
