package rules

import (
	"errors"
	"fmt"
	"strings"
)

// USI notation: see the notes at the top of notation.go.

// USI returns m in USI notation.
func (p *Position) USI(m Move) string {
	r := p.r
	switch {
	case m.IsPass():
		if o, a, ok := p.passPath(); ok {
			return r.USISquare(o) + r.USISquare(a) + r.USISquare(o)
		}
		return "pass"
	case m.IsDouble():
		return r.USISquare(m.From()) + r.USISquare(m.Mid()) + r.USISquare(m.To())
	}
	s := r.USISquare(m.From()) + r.USISquare(m.To())
	if m.IsPromotion() {
		s += "+"
	}
	return s
}

// passPath finds the path USI writes for the pass: the first lion-power
// piece in board-scan order (ranks from the top, files from the left as
// Sente sees them) and its first empty lion-direction neighbour in the order
// F, FR, R, BR, B, BL, L, FL.
func (p *Position) passPath() (o, a Square, ok bool) {
	r := p.r
	sign := 1
	if p.side == Gote {
		sign = -1
	}
	for rank := r.ranks - 1; rank >= 0; rank-- {
		for file := 0; file < r.files; file++ {
			s := Sq(file, rank)
			pc := p.board[s]
			if pc == Empty || pc.Color() != p.side {
				continue
			}
			t := &r.table[pc.index()]
			for _, d := range kingDirs {
				d *= sign
				if !t.lion && !(t.rayPass && containsDelta(t.lionRays, d)) {
					continue
				}
				if a := Square(int(s) + d); p.board[a] == Empty {
					return s, a, true
				}
			}
		}
	}
	return NoSquare, NoSquare, false
}

func containsDelta(ds []int16, d int) bool {
	for _, x := range ds {
		if int(x) == d {
			return true
		}
	}
	return false
}

// ParseUSI reads a move in USI notation.
func (p *Position) ParseUSI(s string) (Move, error) {
	m, err := p.parseUSI(s)
	if err != nil {
		return NoMove, fmt.Errorf("rules: usi move %q: %w", clip(s), err)
	}
	return m, nil
}

func (p *Position) parseUSI(s string) (Move, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return NoMove, errEmpty
	}
	if s == "pass" { // what USI writes for a pass it has no path for
		return p.matchPass()
	}
	spec, body := splitSuffix(s)
	var sqs []Square
	for len(body) > 0 {
		sq, n, err := p.r.parseUSISquare(body)
		if err != nil {
			return NoMove, err
		}
		sqs = append(sqs, sq)
		body = body[n:]
		if len(sqs) > 3 {
			return NoMove, errors.New("too many squares")
		}
	}
	if len(sqs) == 2 && sqs[0] == sqs[1] {
		return NoMove, errors.New("a move must leave its square")
	}
	return p.matchSquares(sqs, spec)
}
