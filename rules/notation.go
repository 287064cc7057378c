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

// hodgesName returns the Hodges abbreviation of a piece ("Ln", "+DH").
func (r *Rules) hodgesName(pc Piece) string {
	return r.hodges[pc.Kind()]
}

// Hodges returns m in Hodges notation, with the origin square added only
// where it is needed to tell two moves apart.
func (p *Position) Hodges(m Move) string {
	if m.IsPass() {
		return "--"
	}
	s := p.hodges(m, false)
	if got, err := p.ParseHodges(s); err != nil || got != m {
		s = p.hodges(m, true)
	}
	return s
}

func (p *Position) hodges(m Move, origin bool) string {
	r := p.r
	from, mid, to := m.From(), m.Mid(), m.To()
	var b strings.Builder
	b.WriteString(r.hodgesName(p.board[from]))
	if origin {
		b.WriteString(r.USISquare(from))
	}
	sep := func(q Piece) {
		if q != Empty {
			b.WriteByte('x')
		} else {
			b.WriteByte('-')
		}
	}
	switch {
	case m.IsIgui() && p.board[mid] != Empty:
		b.WriteString("x!")
		b.WriteString(r.USISquare(mid))
		return b.String()
	case m.IsDouble():
		sep(p.board[mid])
		b.WriteString(r.USISquare(mid))
		if to == from {
			b.WriteByte('-')
		} else {
			sep(p.board[to])
		}
		b.WriteString(r.USISquare(to))
		return b.String()
	}
	sep(p.board[to])
	b.WriteString(r.USISquare(to))
	twin := m ^ movePromote
	if p.IsLegal(twin) {
		if m.IsPromotion() {
			b.WriteByte('+')
		} else {
			b.WriteByte('=')
		}
	}
	return b.String()
}

// ParseHodges reads a move in Hodges notation. Piece abbreviations and their
// aliases are case-insensitive; "-" and "x" are not checked against the
// board. Without "+" or "=", a move that may both promote and not is
// ambiguous.
func (p *Position) ParseHodges(s string) (Move, error) {
	m, err := p.parseHodges(s)
	if err != nil {
		return NoMove, fmt.Errorf("rules: hodges move %q: %w", clip(s), err)
	}
	return m, nil
}

func (p *Position) parseHodges(s string) (Move, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return NoMove, errEmpty
	}
	if s == "--" || strings.EqualFold(s, "pass") {
		return p.matchPass()
	}
	r := p.r
	spec, body := splitSuffix(s)
	// piece: optional '+' and letters
	i := 0
	if i < len(body) && body[i] == '+' {
		i++
	}
	for i < len(body) && (body[i]|0x20 >= 'a' && body[i]|0x20 <= 'z') {
		i++
	}
	// the longest known abbreviation: "Lnx7c" is Ln, then x
	var kind Kind
	for ; i > 0 && kind == 0; i-- {
		kind = r.hodgesKind(body[:i])
	}
	if kind == 0 {
		return NoMove, fmt.Errorf("unknown piece in %q", body)
	}
	body = body[i+1:]
	origin := NoSquare
	if len(body) > 0 && body[0] >= '0' && body[0] <= '9' {
		sq, n, err := r.parseUSISquare(body)
		if err != nil {
			return NoMove, err
		}
		origin, body = sq, body[n:]
	}
	readSep := func() (byte, error) {
		if len(body) == 0 || (body[0] != '-' && body[0] != 'x') {
			return 0, errors.New("want '-' or 'x'")
		}
		c := body[0]
		body = body[1:]
		return c, nil
	}
	readSq := func() (Square, error) {
		sq, n, err := r.parseUSISquare(body)
		if err != nil {
			return NoSquare, err
		}
		body = body[n:]
		return sq, nil
	}
	c, err := readSep()
	if err != nil {
		return NoMove, err
	}
	igui := false
	if c == 'x' && len(body) > 0 && body[0] == '!' {
		igui = true
		body = body[1:]
	}
	first, err := readSq()
	if err != nil {
		return NoMove, err
	}
	second := NoSquare
	if !igui && len(body) > 0 {
		if _, err := readSep(); err != nil {
			return NoMove, err
		}
		if second, err = readSq(); err != nil {
			return NoMove, err
		}
	}
	if len(body) > 0 {
		return NoMove, fmt.Errorf("unexpected %q", body)
	}
	if (igui || second != NoSquare) && spec != promoUnspecified {
		return NoMove, errors.New("a two-leg move cannot promote")
	}
	var buf [MaxMoves]Move
	var plain, promo Move
	for _, m := range p.GenerateMoves(buf[:0]) {
		if m.IsPass() || p.board[m.From()].Kind() != kind || (origin != NoSquare && m.From() != origin) {
			continue
		}
		var ok bool
		switch {
		case igui:
			ok = m.IsIgui() && m.Mid() == first
		case second != NoSquare && p.board[first] == Empty && !r.paths:
			// a path through an empty square is the direct move (§4 rule 1)
			ok = !m.IsDouble() && m.To() == second && chebyshev(m.From(), first) == 1 && chebyshev(first, second) == 1
		case second != NoSquare:
			ok = m.IsDouble() && m.Mid() == first && m.To() == second
		default:
			ok = !m.IsDouble() && m.To() == first
		}
		if !ok {
			continue
		}
		for _, q := range []Move{plain, promo} {
			if q != NoMove && q.From() != m.From() {
				return NoMove, errors.New("ambiguous: give the origin square")
			}
		}
		if m.IsPromotion() {
			promo = m
		} else {
			plain = m
		}
	}
	return pickPromotion(plain, promo, spec, false)
}

// hodgesKind resolves a Hodges abbreviation or alias, with an optional '+'
// for the promoted form.
func (r *Rules) hodgesKind(tok string) Kind {
	if tok == "" {
		return 0
	}
	promoted := tok[0] == '+'
	name := strings.TrimPrefix(tok, "+")
	for k := Kind(1); int(k) < len(r.kinds); k++ {
		d := &r.kinds[k]
		match := !d.Promoted && strings.EqualFold(d.Hodges, name)
		for _, a := range d.Aliases {
			match = match || strings.EqualFold(a, name)
		}
		if !match {
			continue
		}
		switch {
		case !promoted:
			return k
		case d.PromotesTo != "":
			return r.byFEN[d.PromotesTo]
		}
	}
	return 0
}
