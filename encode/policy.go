package encode

import (
	"fmt"

	"chuzero/rules"
)

// Policy layout. Every index is plane*H*W + origin, where origin is the
// moving piece's square as the side to move sees the board (dense index,
// rank*W + file, Gote's view rotated 180 degrees), followed by one index
// for the pass in variants with lion power:
//
//	planes [0, 8D)            one-leg moves along the 8 directions, by distance 1..D
//	                          (D = max(H, W) - 1); direction order F, FR, R, BR, B, BL, L, FL
//	planes [8D, 8D+8)         one-leg knight-shaped leaps (+1,+2) (+2,+1) (+2,-1) (+1,-2)
//	                          (-1,-2) (-2,-1) (-2,+1) (-1,+2) as (file, rank) offsets
//	planes [S, 2S)            the same S = 8D+8 move types, promoting
//	planes [2S, 2S+64)        two-leg lion-power moves: first step direction x second
//	                          step direction (igui = second step back; capture-and-continue)
//	index  planes*H*W         the pass
//
// A jump of the Lion, Kirin or Phoenix to a square on a line uses that
// line's plane (one piece per origin makes the index unique).

// knightOffsets lists the knight-shaped leaps as (file, rank) offsets.
var knightOffsets = [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}

// dirs lists unit (file, rank) steps in the order F, FR, R, BR, B, BL, L, FL.
var dirs = [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

func dirOf(df, dr int) int {
	for i, d := range dirs {
		if d[0] == df && d[1] == dr {
			return i
		}
	}
	return -1
}

// povFR returns a square's (file, rank) as side c sees the board.
func (s *Spec) povFR(c rules.Color, sq rules.Square) (int, int) {
	if c == rules.Gote {
		return s.Width - 1 - sq.File(), s.Height - 1 - sq.Rank()
	}
	return sq.File(), sq.Rank()
}

// absSquare is the inverse of povFR; ok is false off the board.
func (s *Spec) absSquare(c rules.Color, f, r int) (rules.Square, bool) {
	if f < 0 || f >= s.Width || r < 0 || r >= s.Height {
		return rules.NoSquare, false
	}
	if c == rules.Gote {
		f, r = s.Width-1-f, s.Height-1-r
	}
	return rules.Sq(f, r), true
}

// singlePlane returns the move-type plane of a one-leg move by (df, dr),
// or -1.
func (s *Spec) singlePlane(df, dr int) int {
	if df == 0 && dr == 0 {
		return -1
	}
	if df == 0 || dr == 0 || df == dr || df == -dr {
		dist := max(abs(df), abs(dr))
		if dist > s.lineDist {
			return -1
		}
		return dirOf(sign(df), sign(dr))*s.lineDist + dist - 1
	}
	for k, o := range knightOffsets {
		if o[0] == df && o[1] == dr {
			return 8*s.lineDist + k
		}
	}
	return -1
}

// Index returns the policy index of m, a move of position p (from the side
// to move's point of view), or -1 if m has none (never for a legal move).
func (s *Spec) Index(p *rules.Position, m rules.Move) int {
	if m.IsPass() {
		return s.passIndex
	}
	c := p.SideToMove()
	ff, fr := s.povFR(c, m.From())
	origin := fr*s.Width + ff
	hw := s.Height * s.Width
	if m.IsDouble() {
		if s.doubleBase < 0 || m.IsPromotion() {
			return -1
		}
		af, ar := s.povFR(c, m.Mid())
		tf, tr := s.povFR(c, m.To())
		d1, d2 := dirOf(af-ff, ar-fr), dirOf(tf-af, tr-ar)
		if d1 < 0 || d2 < 0 {
			return -1
		}
		return (s.doubleBase+d1*8+d2)*hw + origin
	}
	tf, tr := s.povFR(c, m.To())
	plane := s.singlePlane(tf-ff, tr-fr)
	if plane < 0 {
		return -1
	}
	if m.IsPromotion() {
		plane += s.single
	}
	return plane*hw + origin
}

// Move returns the move that index i names in position p (the inverse of
// Index); ok is false if i names no move on this board. The move is not
// checked for legality.
func (s *Spec) Move(p *rules.Position, i int) (m rules.Move, ok bool) {
	if i == s.passIndex && i >= 0 {
		return rules.Pass, true
	}
	hw := s.Height * s.Width
	if i < 0 || i >= s.PolicySize {
		return rules.NoMove, false
	}
	plane, origin := i/hw, i%hw
	c := p.SideToMove()
	ff, fr := origin%s.Width, origin/s.Width
	from, _ := s.absSquare(c, ff, fr)
	if s.doubleBase >= 0 && plane >= s.doubleBase {
		d := plane - s.doubleBase
		d1, d2 := dirs[d/8], dirs[d%8]
		mid, ok1 := s.absSquare(c, ff+d1[0], fr+d1[1])
		to, ok2 := s.absSquare(c, ff+d1[0]+d2[0], fr+d1[1]+d2[1])
		if !ok1 || !ok2 {
			return rules.NoMove, false
		}
		return rules.NewDoubleMove(from, mid, to), true
	}
	promote := plane >= s.single
	if promote {
		plane -= s.single
	}
	var df, dr int
	if plane < 8*s.lineDist {
		d := dirs[plane/s.lineDist]
		dist := plane%s.lineDist + 1
		df, dr = d[0]*dist, d[1]*dist
	} else {
		k := knightOffsets[plane-8*s.lineDist]
		df, dr = k[0], k[1]
	}
	to, ok := s.absSquare(c, ff+df, fr+dr)
	if !ok {
		return rules.NoMove, false
	}
	m = rules.NewMove(from, to)
	if promote {
		m = m.WithPromotion()
	}
	return m, true
}

// LegalIndices appends the policy index of every move in moves (the legal
// moves of p, in order) to dst: the legal-move mask as a sparse list.
func (s *Spec) LegalIndices(p *rules.Position, moves []rules.Move, dst []int32) ([]int32, error) {
	for _, m := range moves {
		i := s.Index(p, m)
		if i < 0 {
			return dst, fmt.Errorf("%w: %s in %s", errUnencodable, p.MoveString(m), p.SFEN())
		}
		dst = append(dst, int32(i))
	}
	return dst, nil
}

// buildMirror computes the policy permutation of a left-right reflection.
func (s *Spec) buildMirror() {
	hw := s.Height * s.Width
	s.mirror = make([]int32, s.PolicySize)
	mirrorDir := func(d int) int { return (8 - d) % 8 }
	for i := range s.mirror {
		if i == s.passIndex {
			s.mirror[i] = int32(i)
			continue
		}
		plane, origin := i/hw, i%hw
		f, r := origin%s.Width, origin/s.Width
		mo := r*s.Width + (s.Width - 1 - f)
		var mp int
		switch {
		case s.doubleBase >= 0 && plane >= s.doubleBase:
			d := plane - s.doubleBase
			mp = s.doubleBase + mirrorDir(d/8)*8 + mirrorDir(d%8)
		default:
			base := plane
			promo := 0
			if base >= s.single {
				base -= s.single
				promo = s.single
			}
			if base < 8*s.lineDist {
				mp = mirrorDir(base/s.lineDist)*s.lineDist + base%s.lineDist
			} else {
				k := knightOffsets[base-8*s.lineDist]
				for j, o := range knightOffsets {
					if o[0] == -k[0] && o[1] == k[1] {
						mp = 8*s.lineDist + j
					}
				}
			}
			mp += promo
		}
		s.mirror[i] = int32(mp*hw + mo)
	}
}

// MirrorIndex returns the index of the left-right reflection of the move
// with index i.
func (s *Spec) MirrorIndex(i int) int { return int(s.mirror[i]) }

// MirrorPlanes writes the left-right reflection of the input planes src
// into dst (both of length PlaneSize; they must not overlap).
func (s *Spec) MirrorPlanes(src, dst []float32) {
	w := s.Width
	for row := 0; row < len(src)/w; row++ {
		a, b := src[row*w:(row+1)*w], dst[row*w:(row+1)*w]
		for f := 0; f < w; f++ {
			b[w-1-f] = a[f]
		}
	}
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
