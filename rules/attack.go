package rules

// "Attacks" in this package means what chu-shogi.md §8.1 means: a piece
// attacks a square if it could capture there with a single-leg move by its
// normal movement (a step, slide or leap, or the first step or direct jump
// of a lion-power move), ignoring the Lion-trading rules, the counter-strike
// rule and royal safety. Dead pieces attack nothing, because they have no
// moves.

// leapCheck is one fixed-leap offset with its bit in the leap masks.
type leapCheck struct {
	o   int16
	bit uint32
}

// Attacked reports whether a piece of color by attacks square s.
func (p *Position) Attacked(s Square, by Color) bool {
	r := p.r
	for i, d := range kingDirs {
		back := (i + 4) & 7 // the attacker moves towards s, opposite to d
		t := int(s) + d
		for k := uint8(1); ; k++ {
			pc := p.board[t]
			if pc != Empty {
				if pc&Wall == 0 && pc.Color() == by && r.reach[pc.index()][back] >= k {
					return true
				}
				break
			}
			t += d
		}
	}
	for _, l := range r.leaps {
		pc := p.board[int(s)-int(l.o)]
		if pc != Empty && pc&Wall == 0 && pc.Color() == by && r.leapMask[pc.index()]&l.bit != 0 {
			return true
		}
	}
	return false
}

// pieceAttacks reports whether piece pc standing on from attacks target on
// the current board (sliders are blocked by whatever stands between).
func (p *Position) pieceAttacks(pc Piece, from, target Square) bool {
	if !pc.IsPiece() || from == target {
		return false
	}
	r := p.r
	df := target.File() - from.File()
	dr := target.Rank() - from.Rank()
	if abs(df) <= 2 && abs(dr) <= 2 && r.leapMask[pc.index()]&leapBit(dr*stride+df) != 0 {
		return true
	}
	if df != 0 && dr != 0 && abs(df) != abs(dr) {
		return false
	}
	n := max(abs(df), abs(dr))
	d := sign(dr)*stride + sign(df)
	if int(r.reach[pc.index()][dirIndex(d)]) < n {
		return false
	}
	for t := int(from) + d; t != int(target); t += d {
		if p.board[t] != Empty {
			return false
		}
	}
	return true
}

// attacksEnemy reports whether the piece on s attacks at least one enemy
// piece (the "attacking move" test of the repetition rules, §9.3).
func (p *Position) attacksEnemy(s Square) bool {
	pc := p.board[s]
	if !pc.IsPiece() {
		return false
	}
	r := p.r
	c := pc.Color()
	for i, d := range kingDirs {
		n := r.reach[pc.index()][i]
		t := int(s) + d
		for k := uint8(1); k <= n; k++ {
			q := p.board[t]
			if q != Empty {
				if q.isEnemyOf(c) {
					return true
				}
				break
			}
			t += d
		}
	}
	for _, l := range r.leaps {
		if r.leapMask[pc.index()]&l.bit == 0 {
			continue
		}
		if p.board[int(s)+int(l.o)].isEnemyOf(c) {
			return true
		}
	}
	return false
}

// InCheck reports whether some royal of the side to move is attacked by the
// opponent. Right after a move it tells whether that move gave check.
func (p *Position) InCheck() bool {
	c := p.side
	if p.nroyal[c] == 0 {
		return false
	}
	if p.nroyal[c] == 1 {
		return p.Attacked(p.royalSq[c], c.Other())
	}
	for _, s := range p.r.squares {
		pc := p.board[s]
		if pc != Empty && pc.Color() == c && p.r.table[pc.index()].royal && p.Attacked(s, c.Other()) {
			return true
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}
