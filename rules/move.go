package rules

// Move is a move as a compact value. Bit layout (Squares are mailbox
// indices, always below 512):
//
//	bits  0-8   to     destination square (for igui and the pass path: the origin)
//	bits  9-17  from   origin square
//	bits 18-26  mid    first-leg square of a two-leg (lion-power) move, else 0
//	bit  27     promote: the moving piece promotes
//	bit  28     pass:    the turn passes; from/to/mid are unused (canonical pass)
//
// The zero Move means "no move". Every pass of a position is the single value
// Pass. Under LionMoveEnumeration=Paths a two-leg move may name an empty mid
// square (a path); canonical generation never produces one.
type Move uint32

const (
	moveSqMask  = 0x1ff
	moveFromOff = 9
	moveMidOff  = 18
	movePromote = 1 << 27
	movePass    = 1 << 28
)

// NoMove is the zero Move.
const NoMove Move = 0

// Pass is the canonical pass (jitto): nothing moves, the turn passes.
const Pass Move = movePass

// NewMove returns the one-leg move from -> to.
func NewMove(from, to Square) Move {
	return Move(to) | Move(from)<<moveFromOff
}

// NewDoubleMove returns the two-leg move from -> mid -> to (to == from for
// igui).
func NewDoubleMove(from, mid, to Square) Move {
	return Move(to) | Move(from)<<moveFromOff | Move(mid)<<moveMidOff
}

// WithPromotion returns m with the promote flag set.
func (m Move) WithPromotion() Move { return m | movePromote }

// From returns the origin square.
func (m Move) From() Square { return Square(m>>moveFromOff) & moveSqMask }

// To returns the destination square.
func (m Move) To() Square { return Square(m) & moveSqMask }

// Mid returns the first-leg square of a two-leg move, or NoSquare.
func (m Move) Mid() Square { return Square(m>>moveMidOff) & moveSqMask }

// IsPromotion reports whether the moving piece promotes.
func (m Move) IsPromotion() bool { return m&movePromote != 0 }

// IsPass reports whether m is the canonical pass.
func (m Move) IsPass() bool { return m&movePass != 0 }

// IsDouble reports whether m has two legs.
func (m Move) IsDouble() bool { return m.Mid() != NoSquare }

// IsIgui reports whether m is a two-leg move that returns to its origin.
func (m Move) IsIgui() bool { return m.IsDouble() && m.To() == m.From() }
