package arena

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"chuzero/rules"
)

// AlphaBeta is a classical search baseline: iterative-deepening negamax
// with alpha-beta (principal-variation search), a transposition table keyed
// by the position's Zobrist hash (a position that occurred before since the
// last capture or promotion neither takes a score from it nor stores one:
// one more repetition can end the game), move ordering (table move,
// captures by MVV-LVA, promotions, killers, history), a capture-only
// quiescence search with stand-pat, and the material evaluation of Greedy (rules.PieceValues,
// kept incrementally). Terminal positions are scored by Game.Result: a win
// or loss as a mate at its distance (a faster mate scores higher), a draw
// (repetition, bare royals, the ply cap) as 0.
//
// The search stops at Depth, when Time is spent or at Nodes, whichever
// comes first; a stopped iteration is thrown away and the best move of the
// last complete one is played. Ties are broken at random, as Greedy does:
// after the last iteration each other root move is searched again with a
// null window at the best score, and the move is drawn uniformly from the
// seed's generator among those that reach it (without this, a material-only
// search shuffles the same pieces back and forth into repetition draws).
// With Depth (or Nodes) only, the player is deterministic for a given game
// seed.
type AlphaBeta struct {
	Label string        // the name in tables and records (default "ab-d2", "ab-200ms")
	Depth int           // nominal depth in plies, 1..MaxABDepth; 0: as deep as Time allows
	Time  time.Duration // time per move; 0: none
	Nodes int64         // node cap per move; 0: none
	// TTBits is the log2 of the transposition table's entries (24 bytes
	// each); 0 means DefaultABTTBits, a negative value turns it off.
	TTBits int
	// QDepth bounds the capture plies of the quiescence search (0 means
	// DefaultABQDepth; negative: no quiescence). The bound keeps Lion
	// double captures from blowing it up.
	QDepth int
}

// Limits of AlphaBeta.
const (
	MaxABDepth      = 64 // deepest nominal depth
	DefaultABTTBits = 18 // 256Ki entries, 6 MiB per game
	DefaultABQDepth = 6
	maxABTTBits     = 28
)

// Name implements Entrant: Label, or "ab-d<depth>", "ab-<time>", "ab-n<nodes>".
func (a AlphaBeta) Name() string {
	switch {
	case a.Label != "":
		return a.Label
	case a.Depth > 0:
		return "ab-d" + strconv.Itoa(a.Depth)
	case a.Time > 0:
		return "ab-" + a.Time.String()
	}
	return "ab-n" + strconv.FormatInt(a.Nodes, 10)
}

// Validate reports limits that bound nothing or are out of range.
func (a AlphaBeta) Validate() error {
	switch {
	case a.Depth < 0 || a.Depth > MaxABDepth:
		return fmt.Errorf("arena: alpha-beta depth %d out of range 1..%d", a.Depth, MaxABDepth)
	case a.Time < 0 || a.Nodes < 0:
		return fmt.Errorf("arena: negative alpha-beta limit (time %v, nodes %d)", a.Time, a.Nodes)
	case a.Depth == 0 && a.Time == 0 && a.Nodes == 0:
		return errors.New("arena: an alpha-beta player needs a depth, a time or a node cap")
	case a.TTBits > maxABTTBits:
		return fmt.Errorf("arena: alpha-beta table of 2^%d entries is too large (at most 2^%d)", a.TTBits, maxABTTBits)
	}
	return nil
}

// Open implements Entrant: a player with its own table and copy of the
// game.
func (a AlphaBeta) Open(_ context.Context, r *rules.Rules, seed uint64) (Player, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return newABPlayer(a, r, seed), nil
}

// abPlayer is the Player of AlphaBeta. It searches a private copy of the
// referee's game (kept in step move by move), so the referee's game is
// never touched.
type abPlayer struct {
	cfg  AlphaBeta
	rng  *rand.Rand
	game *rules.Game
	s    *abSearch
}

func newABPlayer(a AlphaBeta, r *rules.Rules, seed uint64) *abPlayer {
	if a.Depth == 0 {
		a.Depth = MaxABDepth
	}
	if a.QDepth == 0 {
		a.QDepth = DefaultABQDepth
	}
	if a.TTBits == 0 {
		a.TTBits = DefaultABTTBits
	}
	return &abPlayer{cfg: a, rng: rand.New(rand.NewPCG(seed, 0x616c70686162)), s: newABSearch(r, a.TTBits, max(a.QDepth, 0))}
}

// abResult is what one search found.
type abResult struct {
	Move  rules.Move
	Score int32 // for the side to move, in abSearch units
	Depth int   // the last complete iteration
	Nodes int64
}

// Move implements Player.
func (p *abPlayer) Move(ctx context.Context, g *rules.Game) (Reply, error) {
	res, err := p.think(ctx, g)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Move: res.Move, Value: p.s.value(res.Score), Nodes: res.Nodes}, nil
}

// think searches the current position of g. An error means ctx ended
// before a move was found, or the game is over.
func (p *abPlayer) think(ctx context.Context, g *rules.Game) (abResult, error) {
	p.sync(g)
	root := append([]rules.Move(nil), p.game.LegalMoves()...)
	if len(root) == 0 {
		return abResult{}, errNoMove
	}
	p.rng.Shuffle(len(root), func(i, j int) { root[i], root[j] = root[j], root[i] })
	s := p.s
	s.start(ctx, p.game, p.cfg.Time, p.cfg.Nodes)
	moves := s.orderRoot(root)
	res := abResult{Move: moves[0].M} // if not even depth 1 completes
	for d := 1; d <= p.cfg.Depth && ctx.Err() == nil; d++ {
		best, score, ok := s.searchRoot(moves, d)
		if !ok {
			break
		}
		res.Move, res.Score, res.Depth = best, score, d
		if abIsMate(score) || s.outOfTime(p.cfg.Time) || (len(moves) == 1 && p.cfg.Time > 0) {
			break // a forced result needs no deeper look, nor a forced move a deeper score; the next iteration would not finish
		}
	}
	if res.Depth > 0 && len(moves) > 1 {
		res.Move = s.breakTie(moves, res.Depth, res.Score, p.rng)
	}
	res.Nodes = s.nodes
	if res.Depth == 0 && ctx.Err() != nil {
		return res, ctx.Err()
	}
	return res, nil
}

// sync brings the private game to the referee's: the new moves are pushed,
// or the game is rebuilt when g is not a continuation of it.
func (p *abPlayer) sync(g *rules.Game) {
	start := g.Start()
	if p.game != nil && p.game.Len() <= g.Len() {
		mine := p.game.Start()
		same := mine.Equal(&start)
		for i := 0; same && i < p.game.Len(); i++ {
			same = p.game.MoveAt(i) == g.MoveAt(i)
		}
		if same {
			for i := p.game.Len(); i < g.Len(); i++ {
				p.game.Push(g.MoveAt(i))
			}
			return
		}
	}
	p.game = rules.NewGame(start)
	for i := 0; i < g.Len(); i++ {
		p.game.Push(g.MoveAt(i))
	}
}

// Close implements Player.
func (p *abPlayer) Close() error { return nil }

// value maps a score to [-1, 1] for Reply.Value: mates are ±1, material
// is the balance as a share of a whole army.
func (s *abSearch) value(score int32) float64 {
	if abIsMate(score) {
		if score > 0 {
			return 1
		}
		return -1
	}
	return math.Max(-1, math.Min(1, float64(score)/float64(s.army)))
}
