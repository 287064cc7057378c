package rules

// Color is a side: Sente (moves first, uppercase, starts at the bottom) or
// Gote.
type Color uint8

// The two sides.
const (
	Sente Color = 0
	Gote  Color = 1
)

// Other returns the opponent.
func (c Color) Other() Color { return c ^ 1 }

// String returns "sente" or "gote".
func (c Color) String() string {
	if c == Sente {
		return "sente"
	}
	return "gote"
}

// Kind is a row of a variant's piece table (1-based); promoted pieces have
// rows of their own. Kind 0 is no piece.
type Kind uint8

// maxKinds bounds the piece table: kinds are stored in six bits.
const maxKinds = 64

// Piece is the content of a board square:
//
//	bit 7     wall (off-board square); no other bit is set
//	bit 6     color: 0 Sente, 1 Gote
//	bits 0-5  Kind (1..63)
//
// The zero Piece is an empty square.
type Piece uint8

// Special square contents.
const (
	Empty Piece = 0
	Wall  Piece = 0x80
)

// MakePiece returns the piece of kind k and color c.
func MakePiece(k Kind, c Color) Piece { return Piece(k) | Piece(c)<<6 }

// Kind returns the piece's kind (0 for an empty square or a wall).
func (p Piece) Kind() Kind {
	if p&Wall != 0 {
		return 0
	}
	return Kind(p & 0x3f)
}

// Color returns the piece's color; meaningless for Empty and Wall.
func (p Piece) Color() Color { return Color(p>>6) & 1 }

// IsPiece reports whether the square holds a piece (not empty, not a wall).
func (p Piece) IsPiece() bool { return p != Empty && p&Wall == 0 }

// isEnemyOf reports whether p is a piece of the opponent of c.
func (p Piece) isEnemyOf(c Color) bool { return p != Empty && p&Wall == 0 && p.Color() != c }

// index is the piece's index into per-piece tables (0..127).
func (p Piece) index() int { return int(p & 0x7f) }
