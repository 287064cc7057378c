package rules

// Position is a board with the side to move and the state the rules need:
// the counter-strike square (Chu §8.2), the Hodges suppression squares and
// the move number. It is a value of fixed arrays, cheap to copy; history
// (repetition) lives in Game. A Position points to its immutable Rules.
//
// Methods that generate moves modify the board temporarily and restore it,
// so one Position must not be used from several goroutines at once; copy it
// instead.
type Position struct {
	r          *Rules
	board      [boardSize]Piece
	side       Color
	cs         Square    // square where the previous ply's non-Lion took a Lion, or NoSquare
	sup        [2]Square // Hodges: square of the piece whose next move may promote only by capture
	moveNumber int32     // SFEN move number: 1 + plies played (lishogi convention)
	hash       uint64
	nroyal     [2]uint8  // royal pieces per color
	royalSq    [2]Square // the royal's square when nroyal == 1
}

// Rules returns the rules the position is played under.
func (p *Position) Rules() *Rules { return p.r }

// At returns the content of square s (Wall if off the board).
func (p *Position) At(s Square) Piece {
	if int(s) >= boardSize {
		return Wall
	}
	return p.board[s]
}

// SideToMove returns the side to move.
func (p *Position) SideToMove() Color { return p.side }

// CounterStrike returns the counter-strike square, or NoSquare.
func (p *Position) CounterStrike() Square { return p.cs }

// Suppressed returns c's Hodges suppression square, or NoSquare.
func (p *Position) Suppressed(c Color) Square { return p.sup[c] }

// MoveNumber returns the SFEN move number: 1 + the number of plies played
// before this position.
func (p *Position) MoveNumber() int { return int(p.moveNumber) }

// Plies returns the number of plies played before this position
// (MoveNumber - 1).
func (p *Position) Plies() int { return int(p.moveNumber) - 1 }

// Hash returns the Zobrist key of the position: board, side to move,
// counter-strike square and suppression squares (not the move number). It
// is the repetition key of chu-shogi.md §9.3.
func (p *Position) Hash() uint64 { return p.hash }

// Royals returns the number of royal pieces c has.
func (p *Position) Royals(c Color) int { return int(p.nroyal[c]) }

// Equal reports whether p and q are the same position under the same rules,
// move number included.
func (p *Position) Equal(q *Position) bool {
	if p.r != q.r || p.board != q.board || p.side != q.side || p.cs != q.cs ||
		p.sup != q.sup || p.moveNumber != q.moveNumber || p.hash != q.hash || p.nroyal != q.nroyal {
		return false
	}
	for c := range p.nroyal {
		if p.nroyal[c] == 1 && p.royalSq[c] != q.royalSq[c] {
			return false // the royal square is only meaningful for a lone royal
		}
	}
	return true
}

// Zobrist keys, shared by every variant, from a fixed-seed generator so
// hashes are reproducible across runs and machines.
var (
	zPiece [128][boardSize]uint64
	zSide  uint64
	zCS    [boardSize]uint64
	zSup   [2][boardSize]uint64
)

func init() {
	s := uint64(0x6368757a65726f21) // "chuzero!"
	next := func() uint64 {         // splitmix64
		s += Golden
		return Mix64(s)
	}
	for i := range zPiece {
		for j := range zPiece[i] {
			zPiece[i][j] = next()
		}
	}
	zSide = next()
	for i := range zCS {
		zCS[i] = next()
	}
	for c := range zSup {
		for i := range zSup[c] {
			zSup[c][i] = next()
		}
	}
}

// ComputeHash recomputes the Zobrist key from scratch (Hash is maintained
// incrementally; tests compare the two).
func (p *Position) ComputeHash() uint64 {
	var h uint64
	for _, s := range p.r.squares {
		if pc := p.board[s]; pc != Empty {
			h ^= zPiece[pc.index()][s]
		}
	}
	if p.side == Gote {
		h ^= zSide
	}
	if p.cs != NoSquare {
		h ^= zCS[p.cs]
	}
	for c := range p.sup {
		if p.sup[c] != NoSquare {
			h ^= zSup[c][p.sup[c]]
		}
	}
	return h
}

// recount recomputes the royal bookkeeping from the board.
func (p *Position) recount() {
	p.nroyal = [2]uint8{}
	p.royalSq = [2]Square{}
	for _, s := range p.r.squares {
		pc := p.board[s]
		if pc != Empty && p.r.table[pc.index()].royal {
			c := pc.Color()
			p.nroyal[c]++
			p.royalSq[c] = s
		}
	}
}

// findRoyal sets royalSq[c] to the square of c's only royal.
func (p *Position) findRoyal(c Color) {
	for _, s := range p.r.squares {
		pc := p.board[s]
		if pc != Empty && pc.Color() == c && p.r.table[pc.index()].royal {
			p.royalSq[c] = s
			return
		}
	}
}

// RoyalSquares appends the squares of c's royal pieces to dst.
func (p *Position) RoyalSquares(dst []Square, c Color) []Square {
	for _, s := range p.r.squares {
		pc := p.board[s]
		if pc != Empty && pc.Color() == c && p.r.table[pc.index()].royal {
			dst = append(dst, s)
		}
	}
	return dst
}

// StartPosition returns the variant's start position.
func (r *Rules) StartPosition() Position {
	p, err := r.ParseSFEN(r.v.StartSFEN)
	if err != nil {
		panic("rules: bad start position: " + err.Error())
	}
	return p
}
