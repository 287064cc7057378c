package rules

import (
	"fmt"
	"strconv"
)

// Board geometry shared by every variant. Squares live in one padded mailbox
// of 16 columns and 18 rows: three rows of walls below the largest board (13
// ranks) and two above, and at least three wall columns to the right of every
// rank (files 0..12 hold squares, 13..15 are walls). A step or leap of up to
// two squares in any direction from an on-board square therefore lands on a
// wall or on a square, never outside the array, and the same direction deltas
// work for every board size.
const (
	stride    = 16
	padBelow  = 3
	padAbove  = 2
	MaxFiles  = 13 // MaxFiles is the widest board the mailbox can hold.
	MaxRanks  = 13 // MaxRanks is the tallest board the mailbox can hold.
	boardSize = (padBelow + MaxRanks + padAbove) * stride
)

// Square is a square of the padded mailbox: (rank+3)*16 + file, with file 0
// the leftmost file as Sente sees the board (algebraic 'a') and rank 0 Sente's
// back rank (algebraic '1'). Index 0 is always a wall, so the zero Square,
// NoSquare, means "no square".
type Square uint16

// NoSquare is the zero Square: no square.
const NoSquare Square = 0

// Sq returns the square on file f and rank r, both counted from 0.
func Sq(file, rank int) Square { return Square((rank+padBelow)*stride + file) }

// File returns the square's file, 0 = algebraic 'a'.
func (s Square) File() int { return int(s) % stride }

// Rank returns the square's rank, 0 = algebraic '1' (Sente's back rank).
func (s Square) Rank() int { return int(s)/stride - padBelow }

// Direction deltas in the mailbox, absolute (Sente's point of view).
const (
	dN  = stride
	dS  = -stride
	dE  = 1
	dW  = -1
	dNE = stride + 1
	dNW = stride - 1
	dSE = -stride + 1
	dSW = -stride - 1
)

// kingDirs lists the eight directions in the order F, FR, R, BR, B, BL, L, FL
// for Sente (for Gote each delta is negated).
var kingDirs = [8]int{dN, dNE, dE, dSE, dS, dSW, dW, dNW}

// dirIndex maps a unit delta to its index in kingDirs.
func dirIndex(d int) int {
	for i, k := range kingDirs {
		if k == d {
			return i
		}
	}
	return -1
}

// onBoard reports whether s is a square of a board of the given size.
func onBoard(s Square, files, ranks int) bool {
	f, r := s.File(), s.Rank()
	return int(s) < boardSize && f >= 0 && f < files && r >= 0 && r < ranks
}

// SquareName returns the square in algebraic (machine) coordinates, e.g.
// "f6" or "l12".
func (r *Rules) SquareName(s Square) string {
	if !onBoard(s, r.files, r.ranks) {
		return "??"
	}
	return string(rune('a'+s.File())) + strconv.Itoa(s.Rank()+1)
}

// USISquare returns the square in USI/Hodges coordinates, e.g. "7f"; files
// are numbered from the right as Sente sees the board, ranks lettered from
// the top.
func (r *Rules) USISquare(s Square) string {
	if !onBoard(s, r.files, r.ranks) {
		return "??"
	}
	return strconv.Itoa(r.files-s.File()) + string(rune('a'+r.ranks-1-s.Rank()))
}

// Index returns the square's dense index rank*files + file, in
// [0, files*ranks), for tensors and arrays sized to the board.
func (r *Rules) Index(s Square) int { return s.Rank()*r.files + s.File() }

// SquareAt is the inverse of Index.
func (r *Rules) SquareAt(i int) Square { return Sq(i%r.files, i/r.files) }

// parseAlgebraic reads a square like "f6" or "l12" from the front of s and
// returns it with the number of bytes used.
func (r *Rules) parseAlgebraic(s string) (Square, int, error) {
	if len(s) < 2 {
		return NoSquare, 0, fmt.Errorf("square %q too short", s)
	}
	c := s[0]
	if c < 'a' || c >= 'a'+byte(r.files) {
		return NoSquare, 0, fmt.Errorf("bad file %q in %q", c, s)
	}
	n, used := leadingNumber(s[1:], 2)
	if used == 0 || n < 1 || n > r.ranks {
		return NoSquare, 0, fmt.Errorf("bad rank in %q", s)
	}
	return Sq(int(c-'a'), n-1), 1 + used, nil
}

// parseUSISquare reads a square like "7f" or "12a" from the front of s.
func (r *Rules) parseUSISquare(s string) (Square, int, error) {
	n, used := leadingNumber(s, 2)
	if used == 0 || n < 1 || n > r.files {
		return NoSquare, 0, fmt.Errorf("bad file number in %q", s)
	}
	if used >= len(s) {
		return NoSquare, 0, fmt.Errorf("square %q has no rank letter", s)
	}
	c := s[used]
	if c < 'a' || c >= 'a'+byte(r.ranks) {
		return NoSquare, 0, fmt.Errorf("bad rank letter %q in %q", c, s)
	}
	return Sq(r.files-n, r.ranks-1-int(c-'a')), used + 1, nil
}

// leadingNumber parses up to max decimal digits from the front of s. A
// leading zero is not a number.
func leadingNumber(s string, max int) (n, used int) {
	for used < len(s) && used < max && s[used] >= '0' && s[used] <= '9' {
		if used == 0 && s[0] == '0' {
			return 0, 0
		}
		n = n*10 + int(s[used]-'0')
		used++
	}
	return n, used
}
