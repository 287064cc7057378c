package rules

// MaxMoves is a capacity for move buffers that no position of the built-in
// variants exceeds; GenerateMoves into a buffer of this capacity never
// allocates.
const MaxMoves = 1024

// GenerateMoves appends the legal moves of the position to dst and returns
// the extended slice. It allocates nothing when dst has room.
//
// The moves are canonical (chu-shogi.md §4, §11.1): one move per distinct
// effect, every pass merged into the single move Pass. Under
// LionMoveEnumeration=Paths every two-step lion path is a move of its own,
// as lishogi counts them. Game-end rules (royal capture, bare King,
// repetition, MaxPlies) do not restrict moves here; Game applies them, and
// the Repetition=Forbid option too.
func (p *Position) GenerateMoves(dst []Move) []Move {
	r := p.r
	side := p.side
	canPass := false
	for _, s := range r.squares {
		pc := p.board[s]
		if pc == Empty || pc.Color() != side {
			continue
		}
		t := &r.table[pc.index()]
		for _, sl := range t.slides {
			to := int(s)
			for k := uint8(0); k < sl.n; k++ {
				to += int(sl.d)
				q := p.board[to]
				if q == Empty {
					dst = p.addMove(dst, t, NewMove(s, Square(to)), Empty, Empty)
					continue
				}
				if q&Wall == 0 && q.Color() != side {
					dst = p.addMove(dst, t, NewMove(s, Square(to)), Empty, q)
				}
				break
			}
		}
		for _, l := range t.leaps {
			to := Square(int(s) + int(l))
			if q := p.board[to]; q == Empty || (q&Wall == 0 && q.Color() != side) {
				dst = p.addMove(dst, t, NewMove(s, to), Empty, q)
			}
		}
		if t.lion {
			dst = p.genLion(dst, t, s, &canPass)
		}
		for _, d := range t.lionRays {
			dst = p.genLionRay(dst, t, s, int(d), &canPass)
		}
	}
	if canPass && !r.paths && p.legal(Pass) {
		dst = append(dst, Pass)
	}
	return dst
}

// enemy reports whether q is a piece of the side not to move.
func (p *Position) enemy(q Piece) bool { return q != Empty && q&Wall == 0 && q.Color() != p.side }

// genLion generates the moves of a piece with full lion power on from
// (chu-shogi.md §4), applying the Lion-trading rule A (§8.1).
func (p *Position) genLion(dst []Move, t *moveTable, from Square, canPass *bool) []Move {
	r := p.r
	for _, d := range kingDirs {
		a := Square(int(from) + d)
		qa := p.board[a]
		switch {
		case qa == Empty:
			*canPass = true
			dst = p.addMove(dst, t, NewMove(from, a), Empty, Empty) // L1
			if r.paths {
				dst = p.genLionPaths(dst, t, from, a)
			}
		case p.enemy(qa):
			// V adjacent to the origin: always allowed by rule A
			dst = p.addMove(dst, t, NewMove(from, a), Empty, qa)             // L1 capture
			dst = p.addMove(dst, t, NewDoubleMove(from, a, from), qa, Empty) // L3 igui
			for _, d2 := range kingDirs {                                    // L4
				to := Square(int(a) + d2)
				if to == from {
					continue
				}
				qt := p.board[to]
				if qt != Empty && !p.enemy(qt) {
					continue
				}
				if qt != Empty && r.table[qt.index()].lion && !p.lionMayTake(from, a, to, qa) {
					continue
				}
				dst = p.addMove(dst, t, NewDoubleMove(from, a, to), qa, qt)
			}
		}
	}
	for _, o := range lionJumps { // L2
		to := Square(int(from) + int(o))
		qt := p.board[to]
		if qt != Empty && !p.enemy(qt) {
			continue
		}
		if qt != Empty && r.table[qt.index()].lion && !p.lionMayTake(from, NoSquare, to, Empty) {
			continue
		}
		dst = p.addMove(dst, t, NewMove(from, to), Empty, qt)
	}
	return dst
}

// genLionPaths adds, under LionMoveEnumeration=Paths, every two-step path
// from -> a -> T through the empty square a, judged as the direct move it
// amounts to (§4 rule 1); T == from is a pass path.
func (p *Position) genLionPaths(dst []Move, t *moveTable, from, a Square) []Move {
	for _, d2 := range kingDirs {
		to := Square(int(a) + d2)
		if to == from {
			dst = p.addMove(dst, t, NewDoubleMove(from, a, from), Empty, Empty)
			continue
		}
		qt := p.board[to]
		if qt != Empty && !p.enemy(qt) {
			continue
		}
		if qt != Empty && p.r.table[qt.index()].lion && !p.lionMayTake(from, NoSquare, to, Empty) {
			continue
		}
		dst = p.addMove(dst, t, NewDoubleMove(from, a, to), Empty, qt)
	}
	return dst
}

// genLionRay generates the moves along one lion-power ray of a Horned
// Falcon or Soaring Eagle (chu-shogi.md §5): step, jump, igui,
// capture-and-continue; the pass is merged into Pass.
func (p *Position) genLionRay(dst []Move, t *moveTable, from Square, d int, canPass *bool) []Move {
	a := Square(int(from) + d)
	qa := p.board[a]
	if qa&Wall != 0 {
		return dst
	}
	to := Square(int(a) + d)
	qt := p.board[to]
	jumpOK := qt == Empty || p.enemy(qt)
	switch {
	case qa == Empty:
		if t.rayPass {
			*canPass = true
		}
		dst = p.addMove(dst, t, NewMove(from, a), Empty, Empty)
		if jumpOK {
			dst = p.addMove(dst, t, NewMove(from, to), Empty, qt)
		}
		if p.r.paths {
			if jumpOK {
				dst = p.addMove(dst, t, NewDoubleMove(from, a, to), Empty, qt)
			}
			if t.rayPass {
				dst = p.addMove(dst, t, NewDoubleMove(from, a, from), Empty, Empty)
			}
		}
	case p.enemy(qa):
		dst = p.addMove(dst, t, NewMove(from, a), Empty, qa)
		if jumpOK {
			dst = p.addMove(dst, t, NewMove(from, to), Empty, qt)
		}
		dst = p.addMove(dst, t, NewDoubleMove(from, a, from), qa, Empty)
		if jumpOK {
			dst = p.addMove(dst, t, NewDoubleMove(from, a, to), qa, qt)
		}
	default: // own piece on the first square: only the jump
		if jumpOK {
			dst = p.addMove(dst, t, NewMove(from, to), Empty, qt)
		}
	}
	return dst
}

// addMove appends m (and its promoting twin where promotion is possible)
// after the counter-strike rule, the promotion rules and the check rule.
// vMid and vTo are the pieces the move takes on its first-leg square and
// destination (Empty for none).
func (p *Position) addMove(dst []Move, t *moveTable, m Move, vMid, vTo Piece) []Move {
	if p.cs != NoSquare && !t.lion && !p.counterStrikeAllows(m, vMid, vTo) {
		return dst
	}
	if t.promo != Empty && !m.IsDouble() {
		if can, must := p.promotion(t, m.From(), m.To(), vTo != Empty); can {
			if !must && p.legal(m) {
				dst = append(dst, m)
			}
			if pm := m.WithPromotion(); p.legal(pm) {
				dst = append(dst, pm)
			}
			return dst
		}
	}
	if p.legal(m) {
		dst = append(dst, m)
	}
	return dst
}

// promotion reports whether the piece described by t moving from -> to
// (capturing or not) may promote, and whether it must.
func (p *Position) promotion(t *moveTable, from, to Square, capture bool) (can, must bool) {
	r := p.r
	c := p.side
	fz, tz := r.zone[c][from], r.zone[c][to]
	switch r.v.Promotion {
	case PromoteJCSA:
		can = (!fz && tz) || (capture && (fz || tz)) ||
			(t.traits&TraitLastRankPromotion != 0 && r.last[c][to])
	case PromoteHodges:
		can = (fz || tz) && (capture || p.sup[c] != from)
	case PromoteZone:
		can = fz || tz
	case PromoteEntry:
		can = !fz && tz
	}
	must = can && r.v.ForcedPromotion && r.dead[MakePiece(t.kind, c).index()][to]
	return can, must
}

// legal applies the check rule: under LoneRoyalCheck a move may not leave
// the mover with a single royal that is attacked.
func (p *Position) legal(m Move) bool {
	if p.r.v.CheckRule == NoCheck {
		return true
	}
	u := p.Make(m)
	mover := p.side.Other()
	ok := p.nroyal[mover] != 1 || !p.Attacked(p.royalSq[mover], p.side)
	p.Unmake(m, u)
	return ok
}

// IsLegal reports whether m is one of the position's legal moves.
func (p *Position) IsLegal(m Move) bool {
	var buf [MaxMoves]Move
	for _, l := range p.GenerateMoves(buf[:0]) {
		if l == m {
			return true
		}
	}
	return false
}

// HasLegalMove reports whether the side to move has a legal move.
func (p *Position) HasLegalMove() bool {
	var buf [MaxMoves]Move
	return len(p.GenerateMoves(buf[:0])) > 0
}
