package arena

import (
	"context"
	"math/rand/v2"
	"time"

	"chuzero/rules"
)

// Scores are for the side to move, in hundredths of a PieceValues point
// (material); mates are abMate minus the distance in plies from the root,
// so a faster mate scores higher.
const (
	abMate      int32 = 1_000_000_000
	abMateBound       = abMate - 1000 // scores beyond it are mates
	abInf             = abMate + 1
	abMaxPly          = 128  // nominal plies + quiescence plies, at most
	abCheckMask       = 1023 // clock, context and node cap are checked every 1024 nodes
)

func abIsMate(score int32) bool { return score > abMateBound || score < -abMateBound }

// abSearch is the search state of one player: the game walked down and up
// by Push and Undo, the table, killers and history, the limits.
type abSearch struct {
	r      *rules.Rules
	values []int32 // by Kind, in score units
	army   int32   // a whole army's material, for Reply.Value
	qdepth int
	tt     []abEntry // nil: no table
	ttMask uint64

	killers [abMaxPly][2]rules.Move
	history [128][512]int32 // by piece (colour and kind) and destination square
	buf     [abMaxPly][]abMove

	g        *rules.Game
	ctx      context.Context
	begin    time.Time
	deadline time.Time // zero: none
	nodeCap  int64     // 0: none
	nodes    int64
	stopped  bool
}

func newABSearch(r *rules.Rules, ttBits, qdepth int) *abSearch {
	s := &abSearch{r: r, qdepth: qdepth}
	for _, v := range r.PieceValues() {
		cp := int32(v*100 + 0.5)
		s.values = append(s.values, cp)
		s.army = max(s.army, cp) // a royal is worth the army
	}
	s.army = max(s.army, 1)
	if ttBits > 0 {
		s.tt = make([]abEntry, 1<<ttBits)
		s.ttMask = 1<<ttBits - 1
	}
	return s
}

// start prepares a search of g's current position.
func (s *abSearch) start(ctx context.Context, g *rules.Game, limit time.Duration, nodes int64) {
	s.g, s.ctx, s.nodeCap, s.nodes, s.stopped = g, ctx, nodes, 0, false
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

// balance is the material of the side to move minus its opponent's
// (rules.Position.Balance in score units); search keeps it incrementally.
func (s *abSearch) balance() int32 {
	pos := s.g.Position()
	side := pos.SideToMove()
	var sum int32
	for _, sq := range s.r.Squares() {
		if pc := pos.At(sq); pc.IsPiece() {
			if pc.Color() == side {
				sum += s.values[pc.Kind()]
			} else {
				sum -= s.values[pc.Kind()]
			}
		}
	}
	return sum
}

// terminal scores a finished game for the side to move at ply.
func terminal(res rules.Result, side rules.Color, ply int) int32 {
	return int32(res.ValueFor(side)) * (abMate - int32(ply))
}

// searchRoot runs one iteration of the given depth over the root moves
// (ordered best first from the last iteration) and moves the best to the
// front. ok is false when the search stopped before the iteration ended.
func (s *abSearch) searchRoot(moves []abMove, depth int) (best rules.Move, score int32, ok bool) {
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
	s.store(s.g.Position().Hash(), depth, 0, score, abExact, bm.m)
	return bm.m, score, true
}

// breakTie returns a move drawn uniformly by rng among the root moves that
// score best at depth (moves[0] is one): each other move is searched with
// the null window (best-1, best). A search stopped by its limits keeps the
// ties found so far.
func (s *abSearch) breakTie(moves []abMove, depth int, best int32, rng *rand.Rand) rules.Move {
	choice, ties := moves[0].m, 1
	mat := s.balance()
	for _, am := range moves[1:] {
		sc := s.child(am, false, depth, 0, best-1, best, mat)
		if s.stopped {
			break
		}
		if sc >= best {
			ties++
			if rng.IntN(ties) == 0 {
				choice = am.m
			}
		}
	}
	return choice
}

// child plays am at ply and returns its score for the mover: a full
// window for the first move, a null window (re-searched if it fails high)
// for the others.
func (s *abSearch) child(am abMove, first bool, depth, ply int, alpha, beta, mat int32) int32 {
	s.g.Push(am.m)
	next := -(mat + am.delta)
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
	key := pos.Hash()
	ttMove, sc, hit := s.probe(key, depth, ply, alpha, beta)
	if hit {
		return sc
	}
	moves := s.order(ply, s.g.LegalMoves(), false, ttMove)
	alpha0, best, bestMove := alpha, -abInf, rules.NoMove
	for i := range moves {
		am := pick(moves, i)
		sc := s.child(am, i == 0, depth, ply, alpha, beta, mat)
		if s.stopped {
			return 0
		}
		if sc > best {
			best, bestMove = sc, am.m
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
	s.store(key, depth, ply, best, bound, bestMove)
	return best
}

// quiesce searches captures only, up to qdepth plies, with the static
// material as a stand-pat bound.
func (s *abSearch) quiesce(ply, qply int, alpha, beta, mat int32) int32 {
	if qply > 0 && s.tick() { // the qply 0 node was counted by negamax
		return 0
	}
	if res := s.g.Result(); res.Over() {
		return terminal(res, s.g.Position().SideToMove(), ply)
	}
	best := mat
	if best >= beta || qply >= s.qdepth || ply >= abMaxPly-1 {
		return best
	}
	alpha = max(alpha, best)
	moves := s.order(ply, s.g.LegalMoves(), true, rules.NoMove)
	for i := range moves {
		am := pick(moves, i)
		s.g.Push(am.m)
		sc := -s.quiesce(ply+1, qply+1, -beta, -alpha, -(mat + am.delta))
		s.g.Undo()
		if s.stopped {
			return 0
		}
		best = max(best, sc)
		alpha = max(alpha, sc)
		if alpha >= beta {
			break
		}
	}
	return best
}
