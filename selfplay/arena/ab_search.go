package arena

import (
	"context"
	"math/rand/v2"
	"time"

	"chuzero/mcts/qsearch"
	"chuzero/rules"
)

// Scores are qsearch's: for the side to move, in hundredths of a
// PieceValues point (material); mates are qsearch.Mate minus the distance
// in plies from the root, so a faster mate scores higher.
const (
	abMate      = qsearch.Mate
	abInf       = qsearch.Inf
	abMaxPly    = qsearch.MaxPly // nominal plies + quiescence plies, at most
	abCheckMask = 1023           // clock, context and node cap are checked every 1024 nodes
)

func abIsMate(score int32) bool { return qsearch.IsMate(score) }

// abSearch is the search state of one player: the game walked down and up
// by Push and Undo, the table, killers and history, the limits; at the
// horizon, the capture search of qsearch (one implementation with the
// tree search's leaf value).
type abSearch struct {
	r      *rules.Rules
	q      *qsearch.Search
	values []int32   // by Kind, in score units (q's table)
	army   int32     // a whole army's material (a royal's value), for Reply.Value
	tt     []abEntry // nil: no table
	ttMask uint64

	killers [abMaxPly][2]rules.Move
	history [128][512]int32 // by piece (colour and kind) and destination square
	buf     [abMaxPly][]qsearch.Move

	g        *rules.Game
	ctx      context.Context
	begin    time.Time
	deadline time.Time // zero: none
	nodeCap  int64     // 0: none
	nodes    int64
	stopped  bool
}

// newABSearch returns the search of a player; qdepth < 0 turns the
// quiescence off (the horizon scores the static balance).
func newABSearch(r *rules.Rules, ttBits, qdepth int) *abSearch {
	s := &abSearch{r: r, q: qsearch.New(r, qdepth)}
	s.values, s.army = s.q.Table.Values, s.q.Table.Royal
	s.q.Tick = s.tick
	if ttBits > 0 {
		s.tt = make([]abEntry, 1<<ttBits)
		s.ttMask = 1<<ttBits - 1
	}
	return s
}

// start prepares a search of g's current position.
func (s *abSearch) start(ctx context.Context, g *rules.Game, limit time.Duration, nodes int64) {
	s.g, s.ctx, s.nodeCap, s.nodes, s.stopped = g, ctx, nodes, 0, false
	s.q.Reset()
	s.begin = time.Now()
	s.deadline = time.Time{}
	if limit > 0 {
		s.deadline = s.begin.Add(limit)
	}
	s.killers = [abMaxPly][2]rules.Move{}
	for i := range s.history {
		for j := range s.history[i] {
			s.history[i][j] /= 2
		}
	}
}

// outOfTime reports whether another iteration is not worth starting: half
// the time is spent, and the next one takes several times longer.
func (s *abSearch) outOfTime(limit time.Duration) bool {
	return limit > 0 && time.Since(s.begin) > limit/2
}

// tick counts a node and reports whether the search must stop.
func (s *abSearch) tick() bool {
	s.nodes++
	if s.nodes&abCheckMask == 0 && !s.stopped {
		s.stopped = s.ctx.Err() != nil || (s.nodeCap > 0 && s.nodes >= s.nodeCap) ||
			(!s.deadline.IsZero() && time.Now().After(s.deadline))
	}
	return s.stopped
}

// balance is the material of the side to move minus its opponent's;
// search keeps it incrementally from here.
func (s *abSearch) balance() int32 { return s.q.Table.Balance(s.g.Position()) }

// terminal scores a finished game for the side to move at ply.
func terminal(res rules.Result, side rules.Color, ply int) int32 {
	return qsearch.Terminal(res, side, ply)
}

// searchRoot runs one iteration of the given depth over the root moves
// (ordered best first from the last iteration) and moves the best to the
// front. ok is false when the search stopped before the iteration ended.
func (s *abSearch) searchRoot(moves []qsearch.Move, depth int) (best rules.Move, score int32, ok bool) {
	alpha, beta := -abInf, abInf
	mat := s.balance()
	bestIdx := 0
	score = -abInf
	for i := range moves {
		sc := s.child(moves[i], i == 0, depth, 0, alpha, beta, mat)
		if s.stopped {
			return rules.NoMove, 0, false
		}
		if sc > score {
			score, bestIdx = sc, i
		}
		alpha = max(alpha, sc)
	}
	bm := moves[bestIdx]
	copy(moves[1:bestIdx+1], moves[:bestIdx])
	moves[0] = bm
	s.store(s.g.Position().Hash(), depth, 0, score, abExact, bm.M)
	return bm.M, score, true
}

// breakTie returns a move drawn uniformly by rng among the root moves that
// score best at depth (moves[0] is one): each other move is searched with
// the null window (best-1, best). A search stopped by its limits keeps the
// ties found so far.
func (s *abSearch) breakTie(moves []qsearch.Move, depth int, best int32, rng *rand.Rand) rules.Move {
	choice, ties := moves[0].M, 1
	mat := s.balance()
	for _, am := range moves[1:] {
		sc := s.child(am, false, depth, 0, best-1, best, mat)
		if s.stopped {
			break
		}
		if sc >= best {
			ties++
			if rng.IntN(ties) == 0 {
				choice = am.M
			}
		}
	}
	return choice
}

// child plays am at ply and returns its score for the mover: a full
// window for the first move, a null window (re-searched if it fails high)
// for the others.
func (s *abSearch) child(am qsearch.Move, first bool, depth, ply int, alpha, beta, mat int32) int32 {
	s.g.Push(am.M)
	next := -(mat + am.Delta)
	var sc int32
	if first {
		sc = -s.negamax(depth-1, ply+1, -beta, -alpha, next)
	} else {
		sc = -s.negamax(depth-1, ply+1, -alpha-1, -alpha, next)
		if sc > alpha && sc < beta && !s.stopped {
			sc = -s.negamax(depth-1, ply+1, -beta, -alpha, next)
		}
	}
	s.g.Undo()
	return sc
}

// negamax returns the score of the current position for the side to move
// (fail-soft), searched depth plies and then by quiescence; mat is its
// material balance.
func (s *abSearch) negamax(depth, ply int, alpha, beta, mat int32) int32 {
	if s.tick() {
		return 0
	}
	pos := s.g.Position()
	if res := s.g.Result(); res.Over() {
		return terminal(res, pos.SideToMove(), ply)
	}
	if depth <= 0 || ply >= abMaxPly-1 {
		return s.quiesce(ply, 0, alpha, beta, mat)
	}
	// A position that occurred before since the last capture or
	// promotion takes no score from the table and leaves none: its value
	// depends on the path (one more repetition can end the game), and an
	// entry stored when the game had one occurrence fewer is stale.
	key, repeated := pos.Hash(), s.g.RepetitionCount() > 1
	ttMove, sc, hit := s.probe(key, depth, ply, alpha, beta)
	if hit && !repeated {
		return sc
	}
	moves := s.order(ply, s.g.LegalMoves(), ttMove)
	alpha0, best, bestMove := alpha, -abInf, rules.NoMove
	for i := range moves {
		am := qsearch.Pick(moves, i)
		sc := s.child(am, i == 0, depth, ply, alpha, beta, mat)
		if s.stopped {
			return 0
		}
		if sc > best {
			best, bestMove = sc, am.M
		}
		alpha = max(alpha, sc)
		if alpha >= beta {
			s.cutoff(am, ply, depth)
			break
		}
	}
	bound := abExact
	switch {
	case best <= alpha0:
		bound = abUpper
	case best >= beta:
		bound = abLower
	}
	if !repeated {
		s.store(key, depth, ply, best, bound, bestMove)
	}
	return best
}

// quiesce is qsearch's capture search below the horizon.
func (s *abSearch) quiesce(ply, qply int, alpha, beta, mat int32) int32 {
	sc := s.q.Quiesce(s.g, ply, qply, alpha, beta, mat)
	if s.q.Stopped() {
		s.stopped = true
	}
	return sc
}
