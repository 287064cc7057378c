package rules

import (
	"fmt"
	"strings"
	"sync"
)

// Balance returns the material of c minus that of its opponent, with
// values indexed by Kind (as PieceValues returns them).
func (pos *Position) Balance(values []float64, c Color) float64 {
	r := pos.Rules()
	var sum float64
	for _, s := range r.Squares() {
		pc := pos.At(s)
		if !pc.IsPiece() {
			continue
		}
		v := values[pc.Kind()]
		if pc.Color() != c {
			v = -v
		}
		sum += v
	}
	return sum
}

var pieceValues sync.Map // Config -> []float64

// PieceValues returns a material value for each piece kind of r (indexed
// by Kind; index 0 unused): 1 + the kind's moves from the centre of an
// empty board; royals are worth the sum of all other values of the start
// position. The slice is cached and shared: do not modify it.
func (r *Rules) PieceValues() []float64 {
	if v, ok := pieceValues.Load(r.Config()); ok {
		return v.([]float64)
	}
	n := r.NumKinds()
	values := make([]float64, n+1)
	files, ranks := r.Files(), r.Ranks()
	var royals []Kind
	for k := 1; k <= n; k++ {
		kind := Kind(k)
		pc := MakePiece(kind, Sente)
		if r.IsRoyal(pc) {
			royals = append(royals, kind)
		}
		values[k] = 1 + float64(mobility(r, pc, files, ranks))
	}
	start := r.StartPosition()
	var army float64
	for _, s := range r.Squares() {
		if pc := start.At(s); pc.IsPiece() && pc.Color() == Sente && !r.IsRoyal(pc) {
			army += values[pc.Kind()]
		}
	}
	for _, k := range royals {
		values[k] = army
	}
	pieceValues.Store(r.Config(), values)
	return values
}

// mobility counts the moves of pc alone in the centre of an empty board.
func mobility(r *Rules, pc Piece, files, ranks int) int {
	var b strings.Builder
	cf, cr := files/2, ranks/2 // 0-based from the top-left in SFEN order
	for row := 0; row < ranks; row++ {
		if row > 0 {
			b.WriteByte('/')
		}
		if row != cr {
			fmt.Fprintf(&b, "%d", files)
			continue
		}
		if cf > 0 {
			fmt.Fprintf(&b, "%d", cf)
		}
		b.WriteString(r.PieceString(pc))
		if rest := files - cf - 1; rest > 0 {
			fmt.Fprintf(&b, "%d", rest)
		}
	}
	b.WriteString(" b - 1")
	pos, err := r.ParseSFEN(b.String())
	if err != nil {
		return 0
	}
	return len(pos.GenerateMoves(nil))
}

// Army returns one side's starting material without its royals, by
// PieceValues: the scale of a material balance (Sente's; the start
// positions are symmetric in material).
func (r *Rules) Army() float64 {
	if v, ok := armies.Load(r.Config()); ok {
		return v.(float64)
	}
	values, start := r.PieceValues(), r.StartPosition()
	var army float64
	for _, s := range r.Squares() {
		if pc := start.At(s); pc.IsPiece() && pc.Color() == Sente && !r.IsRoyal(pc) {
			army += values[pc.Kind()]
		}
	}
	armies.Store(r.Config(), army)
	return army
}

var armies sync.Map // Config -> float64
