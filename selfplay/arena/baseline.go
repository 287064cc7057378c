package arena

import (
	"context"
	"math"
	"math/rand/v2"

	"chuzero/rules"
)

// Random is the uniformly random player: every legal move equally likely,
// drawn from the game's seed.
type Random struct{}

// Name implements Entrant.
func (Random) Name() string { return "random" }

// Open implements Entrant.
func (Random) Open(_ context.Context, _ *rules.Rules, seed uint64) (Player, error) {
	return &randomPlayer{rng: rand.New(rand.NewPCG(seed, 0x72616e646f6d))}, nil
}

type randomPlayer struct{ rng *rand.Rand }

func (p *randomPlayer) Move(_ context.Context, g *rules.Game) (Reply, error) {
	moves := g.LegalMoves()
	if len(moves) == 0 {
		return Reply{}, errNoMove
	}
	return Reply{Move: moves[p.rng.IntN(len(moves))]}, nil
}

func (p *randomPlayer) Close() error { return nil }

// Greedy is the one-ply material-greedy player: it plays a move that wins
// the game at once if there is one, otherwise the move that leaves the most
// material (captures, promotions) for its side, ties broken at random. It
// looks no further, so it hangs pieces freely: a floor that any learning
// player must soon pass.
//
// Piece values come from the variant's piece table: 1 + the number of
// moves the piece has from the centre of an empty board (so a Lion, with
// its double moves, is worth far more than a Pawn), and a royal is worth
// the whole army (its loss is the game's).
type Greedy struct{}

// Name implements Entrant.
func (Greedy) Name() string { return "greedy" }

// Open implements Entrant.
func (Greedy) Open(_ context.Context, r *rules.Rules, seed uint64) (Player, error) {
	return &greedyPlayer{values: r.PieceValues(), rng: rand.New(rand.NewPCG(seed, 0x677265656479))}, nil
}

type greedyPlayer struct {
	values []float64 // by Kind
	rng    *rand.Rand
}

func (p *greedyPlayer) Move(_ context.Context, g *rules.Game) (Reply, error) {
	moves := append([]rules.Move(nil), g.LegalMoves()...)
	if len(moves) == 0 {
		return Reply{}, errNoMove
	}
	me := g.Position().SideToMove()
	best, ties := math.Inf(-1), 0
	var choice rules.Move
	for _, m := range moves {
		g.Push(m)
		var score float64
		if r := g.Result(); r.Over() {
			score = r.ValueFor(me) * 1e9
		} else {
			score = g.Position().Balance(p.values, me)
		}
		g.Undo()
		switch {
		case score > best:
			best, choice, ties = score, m, 1
		case score == best:
			ties++
			if p.rng.IntN(ties) == 0 { // reservoir: uniform among the ties
				choice = m
			}
		}
	}
	return Reply{Move: choice}, nil
}

func (p *greedyPlayer) Close() error { return nil }
