package arena

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"

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
	return &greedyPlayer{values: PieceValues(r), rng: rand.New(rand.NewPCG(seed, 0x677265656479))}, nil
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
			score = material(g.Position(), p.values, me)
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

// material returns the piece values of c minus those of its opponent.
func material(pos *rules.Position, values []float64, c rules.Color) float64 {
	r := pos.Rules()
	var sum float64
	for _, s := range r.Squares() {
		pc := pos.At(s)
		if !pc.IsPiece() {
			continue
		}
		v := values[pc.Kind()]
		if pc.Color() != c {
			v = -v
		}
		sum += v
	}
	return sum
}

var pieceValues sync.Map // rules.Config -> []float64

// PieceValues returns a material value for each piece kind of r (indexed
// by Kind; index 0 unused): 1 + the kind's moves from the centre of an
// empty board; royals are worth the sum of all other values of the start
// position.
func PieceValues(r *rules.Rules) []float64 {
	if v, ok := pieceValues.Load(r.Config()); ok {
		return v.([]float64)
	}
	n := r.NumKinds()
	values := make([]float64, n+1)
	files, ranks := r.Files(), r.Ranks()
	var royals []rules.Kind
	for k := 1; k <= n; k++ {
		kind := rules.Kind(k)
		pc := rules.MakePiece(kind, rules.Sente)
		if r.IsRoyal(pc) {
			royals = append(royals, kind)
		}
		values[k] = 1 + float64(mobility(r, pc, files, ranks))
	}
	start := r.StartPosition()
	var army float64
	for _, s := range r.Squares() {
		if pc := start.At(s); pc.IsPiece() && pc.Color() == rules.Sente && !r.IsRoyal(pc) {
			army += values[pc.Kind()]
		}
	}
	for _, k := range royals {
		values[k] = army
	}
	pieceValues.Store(r.Config(), values)
	return values
}

// mobility counts the moves of pc alone in the centre of an empty board.
func mobility(r *rules.Rules, pc rules.Piece, files, ranks int) int {
	var b strings.Builder
	cf, cr := files/2, ranks/2 // 0-based from the top-left in SFEN order
	for row := 0; row < ranks; row++ {
		if row > 0 {
			b.WriteByte('/')
		}
		if row != cr {
			fmt.Fprintf(&b, "%d", files)
			continue
		}
		if cf > 0 {
			fmt.Fprintf(&b, "%d", cf)
		}
		b.WriteString(r.PieceString(pc))
		if rest := files - cf - 1; rest > 0 {
			fmt.Fprintf(&b, "%d", rest)
		}
	}
	b.WriteString(" b - 1")
	pos, err := r.ParseSFEN(b.String())
	if err != nil {
		return 0
	}
	return len(pos.GenerateMoves(nil))
}
