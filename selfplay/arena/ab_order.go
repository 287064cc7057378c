package arena

import (
	"slices"

	"chuzero/mcts/qsearch"
	"chuzero/rules"
)

// Ordering keys, highest first: the table move; captures by MVV-LVA
// (qsearch.CaptureKey: victim value descending, then attacker value
// ascending); promotions by gain; the two killers of the ply; the other
// quiet moves by history.
const (
	keyTT     int64 = 1 << 62
	keyPromo  int64 = 1 << 48 // + gain
	keyKiller int64 = 1 << 46 // first killer; the second is one less
)

// order returns legal, the legal moves of the current position, with
// their keys and gains (qsearch.Move), in s.buf[ply]; qsearch.Pick takes
// them best first.
func (s *abSearch) order(ply int, legal []rules.Move, ttMove rules.Move) []qsearch.Move {
	pos := s.g.Position()
	t := &s.q.Table
	out := s.buf[ply][:0]
	for _, m := range legal {
		am := qsearch.Move{M: m}
		if !m.IsPass() {
			victims, gain := t.Gain(pos, m)
			am.Delta = victims + gain
			switch {
			case victims > 0:
				am.Key = t.CaptureKey(pos, m, victims, gain)
			case m.IsPromotion():
				am.Key = keyPromo + int64(gain)
			case m == s.killers[ply][0]:
				am.Key = keyKiller
			case m == s.killers[ply][1]:
				am.Key = keyKiller - 1
			default:
				am.Key = int64(s.history[pos.At(m.From())&0x7f][m.To()])
			}
		}
		if m == ttMove {
			am.Key = keyTT
		}
		out = append(out, am)
	}
	s.buf[ply] = out
	return out
}

// orderRoot orders the root moves once per search, stably (so the seeded
// shuffle before it breaks ties), into a slice of the caller's.
func (s *abSearch) orderRoot(root []rules.Move) []qsearch.Move {
	ttMove := rules.NoMove
	if e := s.entry(s.g.Position().Hash()); e != nil {
		ttMove = e.move
	}
	out := slices.Clone(s.order(0, root, ttMove))
	slices.SortStableFunc(out, func(a, b qsearch.Move) int {
		switch {
		case a.Key > b.Key:
			return -1
		case a.Key < b.Key:
			return 1
		}
		return 0
	})
	return out
}

// cutoff records a quiet move that refuted its position: a killer of the
// ply and a history bonus.
func (s *abSearch) cutoff(am qsearch.Move, ply, depth int) {
	if am.Delta != 0 || am.M.IsPass() {
		return
	}
	if s.killers[ply][0] != am.M {
		s.killers[ply][1], s.killers[ply][0] = s.killers[ply][0], am.M
	}
	h := &s.history[s.g.Position().At(am.M.From())&0x7f][am.M.To()]
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
	case sc > qsearch.MateBound:
		sc -= int32(ply)
	case sc < -qsearch.MateBound:
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
	case score > qsearch.MateBound:
		score += int32(ply)
	case score < -qsearch.MateBound:
		score -= int32(ply)
	}
	s.tt[key&s.ttMask] = abEntry{key: key, move: m, score: score, depth: int8(depth), bound: bound}
}
