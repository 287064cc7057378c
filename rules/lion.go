package rules

// The Lion-trading rules of chu-shogi.md §8. Rule A restricts a Lion taking
// a Lion that does not stand next to it; rule B (counter-strike) forbids a
// non-Lion to take a Lion right after a non-Lion took one.

// chebyshev returns the king-move distance between two squares.
func chebyshev(a, b Square) int {
	return max(abs(a.File()-b.File()), abs(a.Rank()-b.Rank()))
}

// lionMayTake applies rule A: may the Lion on from take the enemy Lion on v,
// in a move whose first leg took midVictim on mid (Empty/NoSquare for a
// plain step or jump)?
func (p *Position) lionMayTake(from, mid, v Square, midVictim Piece) bool {
	if chebyshev(from, v) <= 1 {
		return true // an adjacent Lion may always be taken
	}
	if midVictim != Empty && p.r.table[midVictim.index()].traits&TraitNoBridge == 0 {
		return true // bridge capture: the first leg took a valuable piece
	}
	return !p.lionProtected(from, mid, v, midVictim, p.r.protection == ProtectionJCSA)
}

// lionProtected reports whether the piece on v is protected against the
// capturer standing on from: build P' by lifting the capturer off from,
// removing the first-leg victim from mid (if any) and putting the capturer
// on v; v is protected if a piece of v's side attacks it in P' (x-ray
// protectors through the vacated squares count). With doomedProtects (the
// JCSA reading), a first-leg victim that attacked v from mid in the
// original position protects too.
func (p *Position) lionProtected(from, mid, v Square, midVictim Piece, doomedProtects bool) bool {
	capturer := p.board[from]
	savedV := p.board[v]
	p.board[from] = Empty
	if midVictim != Empty {
		p.board[mid] = Empty
	}
	p.board[v] = capturer
	prot := p.Attacked(v, capturer.Color().Other())
	p.board[v] = savedV
	if midVictim != Empty {
		p.board[mid] = midVictim
	}
	p.board[from] = capturer
	if !prot && doomedProtects && midVictim != Empty {
		prot = p.pieceAttacks(midVictim, mid, v)
	}
	return prot
}

// counterStrikeAllows applies rule B to a move of a non-Lion while a
// counter-strike square is set: every Lion the move takes must stand on the
// counter-strike square (the freshly promoted Kirin), or, under
// CounterStrike=Okazaki, be unprotected.
func (p *Position) counterStrikeAllows(m Move, vMid, vTo Piece) bool {
	r := p.r
	from, mid, to := m.From(), m.Mid(), m.To()
	if vMid != Empty && r.table[vMid.index()].lion && mid != p.cs {
		if r.counterStrike != CounterStrikeOkazaki || p.lionProtected(from, to, mid, vTo, false) {
			return false
		}
	}
	if vTo != Empty && r.table[vTo.index()].lion && to != p.cs {
		if r.counterStrike != CounterStrikeOkazaki || p.lionProtected(from, mid, to, vMid, false) {
			return false
		}
	}
	return true
}
