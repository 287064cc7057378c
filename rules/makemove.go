package rules

// Undo holds what Make changed, for Unmake.
type Undo struct {
	moved       Piece // the moving piece before promotion
	captured    Piece // content of the destination before the move
	midCaptured Piece // content of the first-leg square before the move
	cs          Square
	sup         [2]Square
	hash        uint64
	nroyal      [2]uint8
	royalSq     [2]Square
}

// Captured returns the pieces the move took: on its destination and on its
// first-leg square (Empty where it took nothing).
func (u *Undo) Captured() (to, mid Piece) { return u.captured, u.midCaptured }

// Make plays m, which must be a move generated for this position (or
// parsed against it), and returns what Unmake needs to take it back. The
// Zobrist key is updated incrementally.
func (p *Position) Make(m Move) Undo {
	u := Undo{cs: p.cs, sup: p.sup, hash: p.hash, nroyal: p.nroyal, royalSq: p.royalSq}
	r := p.r
	h := p.hash
	side, opp := p.side, p.side.Other()
	if p.cs != NoSquare {
		h ^= zCS[p.cs]
	}
	newCS := NoSquare
	var t *moveTable
	if !m.IsPass() {
		from, to, mid := m.From(), m.To(), m.Mid()
		pc := p.board[from]
		t = &r.table[pc.index()]
		u.moved = pc
		p.board[from] = Empty
		h ^= zPiece[pc.index()][from]
		lostRoyal := false
		if mid != NoSquare {
			if mc := p.board[mid]; mc != Empty {
				u.midCaptured = mc
				h ^= zPiece[mc.index()][mid]
				newCS, lostRoyal = p.captureFirstLeg(mid, mc, t, opp)
			}
		}
		if cp := p.board[to]; cp != Empty {
			u.captured = cp
			h ^= zPiece[cp.index()][to]
			ct := &r.table[cp.index()]
			if ct.lion && !t.lion {
				newCS = to // two Lions taken: the final destination is stored
			}
			if ct.royal {
				p.nroyal[opp]--
				lostRoyal = true
			}
		}
		np := pc
		if m.IsPromotion() {
			np = p.promote(t, side, to)
		}
		p.board[to] = np
		h ^= zPiece[np.index()][to]
		if t.royal && p.royalSq[side] == from {
			p.royalSq[side] = to
		}
		if lostRoyal && p.nroyal[opp] == 1 {
			p.findRoyal(opp)
		}
	}
	p.cs = newCS
	if newCS != NoSquare {
		h ^= zCS[newCS]
	}
	p.side = opp
	h ^= zSide
	p.moveNumber++
	p.hash = h
	if r.v.Promotion == PromoteHodges {
		p.updateSuppression(m, t, side)
	}
	return u
}

// captureFirstLeg removes mc, taken on mid by the first leg of a Lion
// double move. It returns the counter-strike square the capture sets
// (NoSquare where it sets none) and whether mc was royal. The caller records
// mc for Unmake and updates the hash.
func (p *Position) captureFirstLeg(mid Square, mc Piece, mover *moveTable, opp Color) (cs Square, lostRoyal bool) {
	p.board[mid] = Empty
	cs = NoSquare
	mt := &p.r.table[mc.index()]
	if mt.lion && !mover.lion {
		cs = mid
	}
	if mt.royal {
		p.nroyal[opp]--
		lostRoyal = true
	}
	return cs, lostRoyal
}

// promote returns the promoted form of the piece with table t that side
// moves to square to, counting it if it is royal (a Crown Prince).
func (p *Position) promote(t *moveTable, side Color, to Square) Piece {
	np := t.promo
	if p.r.table[np.index()].royal {
		p.nroyal[side]++
		if p.nroyal[side] == 1 {
			p.royalSq[side] = to
		}
	}
	return np
}

// updateSuppression applies the Hodges promotion rule to side's move m
// (t: the moving piece's table, nil for a pass): it lifts side's earlier
// suppression and, where m entered the zone without promoting though it
// could, suppresses promotion on m's destination. It updates the hash.
func (p *Position) updateSuppression(m Move, t *moveTable, side Color) {
	if p.sup[side] != NoSquare {
		p.hash ^= zSup[side][p.sup[side]]
		p.sup[side] = NoSquare
	}
	if t != nil && !m.IsPromotion() && t.promo != Empty && !m.IsDouble() &&
		!p.r.zone[side][m.From()] && p.r.zone[side][m.To()] {
		p.sup[side] = m.To()
		p.hash ^= zSup[side][m.To()]
	}
}

// Unmake takes back m, which must be the last move made, with its Undo.
func (p *Position) Unmake(m Move, u Undo) {
	p.side = p.side.Other()
	p.moveNumber--
	if !m.IsPass() {
		from, to, mid := m.From(), m.To(), m.Mid()
		p.board[to] = u.captured
		if mid != NoSquare {
			p.board[mid] = u.midCaptured
		}
		p.board[from] = u.moved // after to: for igui from == to
	}
	p.cs, p.sup, p.hash, p.nroyal, p.royalSq = u.cs, u.sup, u.hash, u.nroyal, u.royalSq
}
