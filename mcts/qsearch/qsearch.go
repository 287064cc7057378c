// Package qsearch is the capture quiescence search: from a position, the
// side to move may stand pat on its material balance or capture, and so
// may the reply, until no capture is worth making or the depth bound is
// reached. Its score is the material that the exchanges on the board
// resolve to, which a static count gets wrong whenever a piece hangs or an
// exchange is pending.
//
// It is one implementation for two users: the tree search blends it into
// the network's value at every expanded leaf (mcts.Config.Quiescence), and
// the arena's alpha-beta player calls it at the horizon of its full-width
// search. Both walk a rules.Game down and up by Push and Undo, so the
// rules core decides what a capture may be: Lion trading and the
// counter-strike rule, royal captures (the game ends: a mate score), bare
// royals, and the check rule of Sho and Heian all come from the legal
// moves and the game's result.
//
//	q := qsearch.New(g.Rules(), qsearch.DefaultDepth)
//	score := q.Value(g)           // hundredths of a PieceValues point, side to move
//	v := q.Scaled(score, 3)       // tanh(3·score/army), in [-1, 1]
//
// Scores are for the side to move, in hundredths of a rules.PieceValues
// point; a royal is worth the whole army (PieceValues' own rule). Where
// the rules forbid leaving a lone royal attacked (Sho, Heian), a side in
// check may not stand pat: its legal moves, which are then its evasions,
// are all searched, as a check extension within the depth bound, and a
// mate is found as the game's result. Where they do not (Chu, or a Sho
// side with King and Prince), an attacked royal is a hanging piece like
// any other: the side to move may stand pat, as it may with a hanging
// rook, and the opponent's capture of it ends the game with a mate score.
//
// Captures that lose material to the first recapture (the attacker is
// worth more than what it takes and lands on a square the opponent
// attacks) are not searched, the usual pruning of a quiescence search;
// evasions never are.
package qsearch

import (
	"math"

	"chuzero/rules"
)

// Mate scores: a won game is Mate minus its distance in plies from the
// root of the search, so a faster win scores higher; scores beyond
// MateBound (in either sign) are mates. Inf bounds every score.
const (
	Mate      int32 = 1_000_000_000
	MateBound       = Mate - 1000
	Inf             = Mate + 1
	// MaxPly is the deepest ply a search may reach from its root,
	// full-width plies and quiescence plies together.
	MaxPly = 128
)

// DefaultDepth is the capture plies a search looks ahead by default: deep
// enough for the exchanges of a square (take, retake, take, retake and
// the last word), shallow enough that Lion double captures and evasions
// stay cheap.
const DefaultDepth = 6

// DefaultBudget is the node budget of a leaf's search in the tree search.
const DefaultBudget = 256

// IsMate reports whether score is a forced result rather than material.
func IsMate(score int32) bool { return score > MateBound || score < -MateBound }

// Terminal scores a finished game for side at ply plies from the root.
func Terminal(res rules.Result, side rules.Color, ply int) int32 {
	return int32(res.ValueFor(side)) * (Mate - int32(ply))
}

// Move is a legal move with its material gain for the mover (the pieces
// it captures and what a promotion adds, in score units) and an ordering
// key, highest first.
type Move struct {
	M     rules.Move
	Key   int64
	Delta int32
}

// KeyCapture is the ordering base of a capture: MVV-LVA, the victims'
// value << 20 minus the attacker's (values stay below 2^20), plus the
// promotion gain. Callers that order quiet moves too keep their keys below
// it.
const KeyCapture int64 = 1 << 50

// Table is a variant's material in score units.
type Table struct {
	Values []int32 // by Kind: rules.PieceValues times 100, rounded
	Royal  int32   // the most valuable kind: a royal, worth the army
	Army   float64 // one side's starting material without royals (rules.Army), the scale of Scaled
}

// NewTable returns the table of r.
func NewTable(r *rules.Rules) Table {
	var t Table
	for _, v := range r.PieceValues() {
		cp := int32(v*100 + 0.5)
		t.Values = append(t.Values, cp)
		t.Royal = max(t.Royal, cp)
	}
	t.Royal = max(t.Royal, 1)
	t.Army = max(r.Army()*100, 1)
	return t
}

// Gain returns what m wins for the side to move of pos: victims, the
// value of the enemy pieces it captures (both squares of a Lion's double
// move), and promo, the value a promotion adds.
func (t *Table) Gain(pos *rules.Position, m rules.Move) (victims, promo int32) {
	if m.IsPass() {
		return 0, 0
	}
	side := pos.SideToMove()
	if v := pos.At(m.To()); v.IsPiece() && v.Color() != side {
		victims += t.Values[v.Kind()]
	}
	if m.IsDouble() {
		if v := pos.At(m.Mid()); v.IsPiece() && v.Color() != side {
			victims += t.Values[v.Kind()]
		}
	}
	if m.IsPromotion() {
		pc := pos.At(m.From())
		promo = t.Values[pos.Rules().Promoted(pc).Kind()] - t.Values[pc.Kind()]
	}
	return victims, promo
}

// Balance returns the material of pos's side to move minus its
// opponent's, in score units.
func (t *Table) Balance(pos *rules.Position) int32 {
	side := pos.SideToMove()
	var sum int32
	for _, sq := range pos.Rules().Squares() {
		if pc := pos.At(sq); pc.IsPiece() {
			if pc.Color() == side {
				sum += t.Values[pc.Kind()]
			} else {
				sum -= t.Values[pc.Kind()]
			}
		}
	}
	return sum
}

// Scaled maps a score to [-1, 1]: tanh(k·score/army), and ±1 for a mate.
func (t *Table) Scaled(score int32, k float64) float64 {
	if IsMate(score) {
		if score > 0 {
			return 1
		}
		return -1
	}
	return math.Tanh(k * float64(score) / t.Army)
}

// Search is the quiescence search of one goroutine: its move buffers, its
// node count and its stop hook. It is not safe for concurrent use.
type Search struct {
	r     *rules.Rules
	Table Table
	Depth int // capture plies (and evasions) below the root, at most
	// Tick, if set, is called at every node below the search's root; when
	// it returns true the search unwinds at once, returning 0 (the caller
	// throws the result away). The alpha-beta player counts its nodes and
	// checks its clock here.
	Tick func() bool
	// Budget bounds the nodes of one Value call (0: none): past it every
	// node is a horizon and stands pat, so the rare position where Lions
	// and sliders can capture in every direction costs no more than a
	// few ordinary ones (in Chu random-playout positions at depth 6, the
	// median is 6 nodes and the worst of 400 was 20,099).
	Budget int64
	Nodes  int64 // nodes visited, the roots included

	limit     int64 // Nodes at which this Value call's budget is spent; 0: none
	checkRule bool  // the variant forbids leaving a lone royal attacked
	stopped   bool
	buf       [MaxPly][]Move
}

// New returns a search of r's games that looks depth plies ahead
// (negative: none, the static balance).
func New(r *rules.Rules, depth int) *Search {
	return &Search{r: r, Table: NewTable(r), Depth: max(depth, 0), checkRule: r.Variant().CheckRule != rules.NoCheck}
}

// Rules returns the rules the search's table is for.
func (s *Search) Rules() *rules.Rules { return s.r }

// Stopped reports whether Tick stopped the search.
func (s *Search) Stopped() bool { return s.stopped }

// Reset clears the stop of an earlier search: a caller that calls Quiesce
// itself calls it at the start of each of its searches (Value does).
func (s *Search) Reset() { s.stopped, s.limit = false, 0 }

// Value returns the quiescence score of g's current position for its side
// to move (full window). g is walked and restored.
func (s *Search) Value(g *rules.Game) int32 {
	s.stopped, s.limit = false, 0
	if s.Budget > 0 {
		s.limit = s.Nodes + s.Budget
	}
	return s.Quiesce(g, 0, 0, -Inf, Inf, s.Table.Balance(g.Position()))
}

// Scaled returns Value mapped to [-1, 1] by Table.Scaled with slope k.
func (s *Search) Scaled(g *rules.Game, k float64) float64 {
	return s.Table.Scaled(s.Value(g), k)
}

// Quiesce is the search below a node of a caller's search: the current
// position of g, ply plies from the caller's root (for mate distances),
// qply quiescence plies in, with window (alpha, beta) and mat its material
// balance for the side to move (kept incrementally by the caller). It
// fails soft.
func (s *Search) Quiesce(g *rules.Game, ply, qply int, alpha, beta, mat int32) int32 {
	if qply > 0 && s.Tick != nil && !s.stopped && s.Tick() {
		s.stopped = true
	}
	if s.stopped {
		return 0
	}
	s.Nodes++
	pos := g.Position()
	if res := g.Result(); res.Over() {
		return Terminal(res, pos.SideToMove(), ply)
	}
	deep := qply >= s.Depth || ply >= MaxPly-1 || (s.limit > 0 && s.Nodes >= s.limit)
	evade := !deep && s.checkRule && pos.Royals(pos.SideToMove()) == 1 && pos.InCheck()
	best := -Inf
	if !evade {
		best = mat
		if best >= beta || deep {
			return best
		}
		alpha = max(alpha, best)
	}
	moves := s.order(ply, pos, g.LegalMoves(), !evade)
	if !evade {
		moves = s.dropLosing(pos, moves)
	}
	for i := range moves {
		am := Pick(moves, i)
		g.Push(am.M)
		sc := -s.Quiesce(g, ply+1, qply+1, -beta, -alpha, -(mat + am.Delta))
		g.Undo()
		if s.stopped {
			return 0
		}
		best = max(best, sc)
		alpha = max(alpha, sc)
		if alpha >= beta {
			break
		}
	}
	if best == -Inf { // in check with no move searched cannot happen: no legal move is a result
		return mat
	}
	return best
}

// order keys the moves of the node at ply (captures only, if captures) in
// the node's buffer: captures by MVV-LVA, quiet evasions after them.
func (s *Search) order(ply int, pos *rules.Position, legal []rules.Move, captures bool) []Move {
	out := s.buf[ply][:0]
	for _, m := range legal {
		victims, promo := s.Table.Gain(pos, m)
		if captures && victims == 0 {
			continue
		}
		out = append(out, Move{M: m, Delta: victims + promo, Key: s.Table.CaptureKey(pos, m, victims, promo)})
	}
	s.buf[ply] = out
	return out
}

// dropLosing removes the captures that lose material by the first
// recapture alone: the attacker is worth more than what it takes and the
// square it lands on is attacked by the opponent (a static exchange test
// of one ply, the usual pruning of losing captures in a quiescence
// search). Evasions are never dropped.
func (s *Search) dropLosing(pos *rules.Position, moves []Move) []Move {
	opp := pos.SideToMove().Other()
	kept := moves[:0]
	for _, m := range moves {
		attacker := s.Table.Values[pos.At(m.M.From()).Kind()]
		if attacker > m.Delta && pos.Attacked(m.M.To(), opp) {
			continue
		}
		kept = append(kept, m)
	}
	return kept
}

// CaptureKey is the ordering key of m given its Gain: KeyCapture-based
// MVV-LVA for a capture, the promotion gain alone otherwise.
func (t *Table) CaptureKey(pos *rules.Position, m rules.Move, victims, promo int32) int64 {
	if victims == 0 {
		return int64(promo)
	}
	return KeyCapture + int64(victims)<<20 - int64(t.Values[pos.At(m.From()).Kind()]) + int64(promo)
}

// Pick swaps the best remaining move into place i and returns it
// (selection sort: cutoffs come early, so most moves are never sorted).
func Pick(moves []Move, i int) Move {
	b := i
	for j := i + 1; j < len(moves); j++ {
		if moves[j].Key > moves[b].Key {
			b = j
		}
	}
	moves[i], moves[b] = moves[b], moves[i]
	return moves[i]
}
