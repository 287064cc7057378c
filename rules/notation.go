package rules

import (
	"errors"
	"fmt"
	"strings"
)

// Move notations (chu-shogi.md §11).
//
// Machine notation (XBoard-compatible, the default): "f4f5", "e8e9+",
// two legs "f6g7,g7h8", igui "f6g7,g7f6", pass "@@@@". Input also takes "="
// for a declined promotion, the compact "f6g7h8", a two-leg move through an
// empty square (normalized to the move it amounts to), "0000", and a pass
// written as the same square twice ("f6f6").
//
// USI (lishogi): "7g7f", "7g7f+", two legs "7g6f5e", igui "7g6f7g", pass as
// a path "<O><A><O>" through an empty square A.
//
// Hodges (human records): "P-8h", "Rx3c", "Bx5c+", "S-4c=", "G6j-6i",
// "Lnx7c-6c", "Lnx7cx6c", igui "Lnx!7c", pass "--".

// MoveString returns m in machine notation.
func (p *Position) MoveString(m Move) string {
	r := p.r
	switch {
	case m.IsPass():
		return "@@@@"
	case m.IsDouble():
		return r.SquareName(m.From()) + r.SquareName(m.Mid()) + "," + r.SquareName(m.Mid()) + r.SquareName(m.To())
	}
	s := r.SquareName(m.From()) + r.SquareName(m.To())
	if m.IsPromotion() {
		s += "+"
	}
	return s
}

// ParseMove reads a move in machine notation and returns the legal move it
// names.
func (p *Position) ParseMove(s string) (Move, error) {
	m, err := p.parseMachine(s)
	if err != nil {
		return NoMove, fmt.Errorf("rules: move %q: %w", clip(s), err)
	}
	return m, nil
}

// promoSpec is what a move's suffix says about promotion.
type promoSpec uint8

const (
	promoUnspecified promoSpec = iota
	promoYes
	promoNo
)

func (p *Position) parseMachine(s string) (Move, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return NoMove, errEmpty
	}
	if s == "@@@@" || s == "0000" {
		return p.matchPass()
	}
	spec, body := splitSuffix(s)
	var sqs []Square
	rest := body
	for len(rest) > 0 {
		if rest[0] == ',' {
			if len(sqs) != 2 {
				return NoMove, errors.New("',' must follow the first leg")
			}
			rest = rest[1:]
			sq, n, err := p.r.parseAlgebraic(rest)
			if err != nil {
				return NoMove, err
			}
			if sq != sqs[1] {
				return NoMove, errors.New("the second leg must start where the first ended")
			}
			rest = rest[n:]
			continue
		}
		sq, n, err := p.r.parseAlgebraic(rest)
		if err != nil {
			return NoMove, err
		}
		sqs = append(sqs, sq)
		rest = rest[n:]
		if len(sqs) > 3 {
			return NoMove, errors.New("too many squares")
		}
	}
	return p.matchSquares(sqs, spec)
}

// splitSuffix removes a trailing promotion mark.
func splitSuffix(s string) (promoSpec, string) {
	switch {
	case strings.HasSuffix(s, "+"):
		return promoYes, s[:len(s)-1]
	case strings.HasSuffix(s, "="):
		return promoNo, s[:len(s)-1]
	}
	return promoUnspecified, s
}

// matchSquares finds the legal move with the given path of 2 or 3 squares,
// normalizing paths through empty squares (§4 rule 1).
func (p *Position) matchSquares(sqs []Square, spec promoSpec) (Move, error) {
	var from, mid, to Square
	switch len(sqs) {
	case 2:
		from, to = sqs[0], sqs[1]
		if from == to {
			if spec != promoUnspecified {
				return NoMove, errors.New("a pass cannot promote")
			}
			return p.matchPass()
		}
	case 3:
		from, mid, to = sqs[0], sqs[1], sqs[2]
		if mid == from || mid == to {
			return NoMove, errors.New("a leg goes nowhere")
		}
		if p.board[mid] == Empty && !p.r.paths {
			if to == from {
				if spec != promoUnspecified {
					return NoMove, errors.New("a pass cannot promote")
				}
				if chebyshev(from, mid) != 1 || !p.board[from].IsPiece() || p.board[from].Color() != p.side {
					return NoMove, errors.New("not a legal pass path")
				}
				return p.matchPass()
			}
			mid = NoSquare
		}
	default:
		return NoMove, errors.New("want two or three squares")
	}
	var buf [MaxMoves]Move
	var plain, promo Move
	for _, m := range p.GenerateMoves(buf[:0]) {
		if m.IsPass() || m.From() != from || m.To() != to || m.Mid() != mid {
			continue
		}
		if m.IsPromotion() {
			promo = m
		} else {
			plain = m
		}
	}
	return pickPromotion(plain, promo, spec, true)
}

// pickPromotion chooses between the plain and promoting forms of a move
// (NoMove where a form is not legal). Without a suffix the plain form is
// meant when preferPlain is set; otherwise a move with both forms legal is
// ambiguous. A move with only one legal form needs no suffix.
func pickPromotion(plain, promo Move, spec promoSpec, preferPlain bool) (Move, error) {
	switch {
	case plain == NoMove && promo == NoMove:
		return NoMove, errors.New("illegal move")
	case spec == promoYes && promo == NoMove:
		return NoMove, errors.New("this move cannot promote")
	case spec == promoYes:
		return promo, nil
	case spec == promoNo && plain == NoMove:
		return NoMove, errors.New("this move must promote")
	case spec == promoNo:
		return plain, nil
	case promo == NoMove:
		return plain, nil
	case plain == NoMove:
		return promo, nil
	case preferPlain:
		return plain, nil
	}
	return NoMove, errors.New("ambiguous: add + to promote or = to decline")
}

// matchPass returns the position's pass, if legal (under Paths, the first
// pass path).
func (p *Position) matchPass() (Move, error) {
	var buf [MaxMoves]Move
	for _, m := range p.GenerateMoves(buf[:0]) {
		if m.IsPass() || m.IsIgui() && p.board[m.Mid()] == Empty {
			return m, nil
		}
	}
	return NoMove, errors.New("illegal move: no pass is possible here")
}
