package arena

import (
	"slices"

	"chuzero/rules"
)

// abMove is a move with its ordering key and its material gain for the
// mover (captured pieces, promotion), in score units.
type abMove struct {
	m     rules.Move
	key   int64
	delta int32
}

// Ordering keys, highest first: the table move; captures by MVV-LVA
// (victim value descending, then attacker value ascending); promotions by
// gain; the two killers of the ply; the other quiet moves by history.
const (
	keyTT      int64 = 1 << 62
	keyCapture int64 = 1 << 50 // + victims<<20 - attacker (values below 2^20)
	keyPromo   int64 = 1 << 48 // + gain
	keyKiller  int64 = 1 << 46 // first killer; the second is one less
)

// order returns legal, the legal moves of the current position (captures
// only if captures), with their keys and gains, in s.buf[ply]; pick takes them best
// first.
func (s *abSearch) order(ply int, legal []rules.Move, captures bool, ttMove rules.Move) []abMove {
	pos := s.g.Position()
	side := pos.SideToMove()
	out := s.buf[ply][:0]
	for _, m := range legal {
		am := abMove{m: m}
		if !m.IsPass() {
			pc := pos.At(m.From())
			var victims int32
			if v := pos.At(m.To()); v.IsPiece() && v.Color() != side {
				victims += s.values[v.Kind()]
			}
			if m.IsDouble() {
				if v := pos.At(m.Mid()); v.IsPiece() && v.Color() != side {
					victims += s.values[v.Kind()]
				}
			}
			var gain int32
			if m.IsPromotion() {
				gain = s.values[s.r.Promoted(pc).Kind()] - s.values[pc.Kind()]
			}
			am.delta = victims + gain
			switch {
			case victims > 0:
				am.key = keyCapture + int64(victims)<<20 - int64(s.values[pc.Kind()]) + int64(gain)
			case captures:
				continue
			case m.IsPromotion():
				am.key = keyPromo + int64(gain)
			case m == s.killers[ply][0]:
				am.key = keyKiller
			case m == s.killers[ply][1]:
				am.key = keyKiller - 1
			default:
				am.key = int64(s.history[pc&0x7f][m.To()])
			}
		} else if captures {
			continue
		}
		if m == ttMove {
			am.key = keyTT
		}
		out = append(out, am)
	}
	s.buf[ply] = out
	return out
}

// orderRoot orders the root moves once per search, stably (so the seeded
// shuffle before it breaks ties), into a slice of the caller's.
func (s *abSearch) orderRoot(root []rules.Move) []abMove {
	ttMove := rules.NoMove
	if e := s.entry(s.g.Position().Hash()); e != nil {
		ttMove = e.move
	}
	out := slices.Clone(s.order(0, root, false, ttMove))
	slices.SortStableFunc(out, func(a, b abMove) int {
		switch {
		case a.key > b.key:
			return -1
		case a.key < b.key:
			return 1
		}
		return 0
	})
	return out
}

// pick swaps the best remaining move into place i and returns it
// (selection sort: cutoffs come early, so most moves are never sorted).
func pick(moves []abMove, i int) abMove {
	b := i
	for j := i + 1; j < len(moves); j++ {
		if moves[j].key > moves[b].key {
			b = j
		}
	}
	moves[i], moves[b] = moves[b], moves[i]
	return moves[i]
}

// cutoff records a quiet move that refuted its position: a killer of the
// ply and a history bonus.
func (s *abSearch) cutoff(am abMove, ply, depth int) {
	if am.delta != 0 || am.m.IsPass() {
		return
	}
	if s.killers[ply][0] != am.m {
		s.killers[ply][1], s.killers[ply][0] = s.killers[ply][0], am.m
	}
	h := &s.history[s.g.Position().At(am.m.From())&0x7f][am.m.To()]
	*h = min(*h+int32(depth*depth), 1<<30)
}

// abEntry is one transposition-table slot. Mate scores are stored as
// distances from the entry's position, not from the root.
type abEntry struct {
	key   uint64 // the position's Zobrist hash
	move  rules.Move
	score int32
	depth int8
	bound uint8 // abExact, abLower, abUpper; 0: empty
}

// Table bounds.
const (
	abExact uint8 = iota + 1
	abLower       // the true value is at least score
	abUpper       // the true value is at most score
)

func (s *abSearch) entry(key uint64) *abEntry {
	if s.tt == nil {
		return nil
	}
	if e := &s.tt[key&s.ttMask]; e.key == key && e.bound != 0 {
		return e
	}
	return nil
}

// probe looks key up: the table move for ordering, and a score when the
// entry is deep enough and its bound decides the window.
func (s *abSearch) probe(key uint64, depth, ply int, alpha, beta int32) (rules.Move, int32, bool) {
	e := s.entry(key)
	if e == nil {
		return rules.NoMove, 0, false
	}
	if int(e.depth) < depth {
		return e.move, 0, false
	}
	sc := e.score
	switch {
	case sc > abMateBound:
		sc -= int32(ply)
	case sc < -abMateBound:
		sc += int32(ply)
	}
	switch {
	case e.bound == abExact, e.bound == abLower && sc >= beta, e.bound == abUpper && sc <= alpha:
		return e.move, sc, true
	}
	return e.move, 0, false
}

// store saves a result (always replacing the slot).
func (s *abSearch) store(key uint64, depth, ply int, score int32, bound uint8, m rules.Move) {
	if s.tt == nil {
		return
	}
	switch {
	case score > abMateBound:
		score += int32(ply)
	case score < -abMateBound:
		score -= int32(ply)
	}
	s.tt[key&s.ttMask] = abEntry{key: key, move: m, score: score, depth: int8(depth), bound: bound}
}
