package arena

import (
	"context"

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
	return &SearchPlayer{mcts.Timed{Search: search, Budget: s.Budget, Gumbel: s.Gumbel}}, nil
}

// SearchPlayer is the Player of a Searcher: a budgeted search
// (mcts.Timed) that plays its best move.
type SearchPlayer struct {
	mcts.Timed
}

// Move implements Player: a search of the budget, then its best move.
func (p *SearchPlayer) Move(ctx context.Context, g *rules.Game) (Reply, error) {
	res, err := p.Think(ctx, g)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Move: res.Best, Value: res.RootValue, Nodes: int64(res.Simulations)}, nil
}

// Close implements Player.
func (p *SearchPlayer) Close() error { return nil }
