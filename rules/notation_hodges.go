package rules

import (
	"errors"
	"fmt"
	"strings"
)

// Hodges notation: see the notes at the top of notation.go.

// hodgesName returns the Hodges abbreviation of a piece ("Ln", "+DH").
func (r *Rules) hodgesName(pc Piece) string {
	return r.hodges[pc.Kind()]
}

// HodgesName returns the Hodges abbreviation of a piece ("Ln", "+DH"), or
// "" for an empty square or a kind the rules do not have.
func (r *Rules) HodgesName(pc Piece) string {
	if !pc.IsPiece() || int(pc.Kind()) >= len(r.hodges) {
		return ""
	}
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

// hodges writes m, with its origin square where origin is set.
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

// hodgesMove is a Hodges move as written, before it is matched against the
// legal moves.
type hodgesMove struct {
	kind   Kind
	origin Square // NoSquare where not given
	first  Square // the destination, or the first-leg square of a two-leg move
	second Square // the destination of a two-leg move, or NoSquare
	igui   bool   // "x!": capture on first without moving
}

// twoLeg reports whether the move was written with two legs (igui included).
func (h *hodgesMove) twoLeg() bool { return h.igui || h.second != NoSquare }

// parseHodges is ParseHodges without the context in its errors.
func (p *Position) parseHodges(s string) (Move, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return NoMove, errEmpty
	}
	if s == "--" || strings.EqualFold(s, "pass") {
		return p.matchPass()
	}
	spec, body := splitSuffix(s)
	h, err := p.r.readHodges(body)
	if err != nil {
		return NoMove, err
	}
	if h.twoLeg() && spec != promoUnspecified {
		return NoMove, errors.New("a two-leg move cannot promote")
	}
	return p.matchHodges(&h, spec)
}

// readHodges reads a Hodges move without its promotion suffix: the piece,
// an optional origin square, a separator and one or two squares.
func (r *Rules) readHodges(body string) (hodgesMove, error) {
	h := hodgesMove{origin: NoSquare, first: NoSquare, second: NoSquare}
	kind, rest, err := r.readHodgesPiece(body)
	if err != nil {
		return h, err
	}
	h.kind = kind
	sc := hodgesScanner{r: r, rest: rest}
	if len(sc.rest) > 0 && sc.rest[0] >= '0' && sc.rest[0] <= '9' {
		if h.origin, err = sc.square(); err != nil {
			return h, err
		}
	}
	c, err := sc.sep()
	if err != nil {
		return h, err
	}
	if c == 'x' && len(sc.rest) > 0 && sc.rest[0] == '!' {
		h.igui = true
		sc.rest = sc.rest[1:]
	}
	if h.first, err = sc.square(); err != nil {
		return h, err
	}
	if !h.igui && len(sc.rest) > 0 {
		if _, err := sc.sep(); err != nil {
			return h, err
		}
		if h.second, err = sc.square(); err != nil {
			return h, err
		}
	}
	if len(sc.rest) > 0 {
		return h, fmt.Errorf("unexpected %q", sc.rest)
	}
	return h, nil
}

// readHodgesPiece reads the piece at the start of body, an optional '+' and
// letters, and returns its kind and the rest of body. The longest known
// abbreviation wins: "Lnx7c" is Ln, then x.
func (r *Rules) readHodgesPiece(body string) (Kind, string, error) {
	i := 0
	if i < len(body) && body[i] == '+' {
		i++
	}
	for i < len(body) && (body[i]|0x20 >= 'a' && body[i]|0x20 <= 'z') {
		i++
	}
	var kind Kind
	for ; i > 0 && kind == 0; i-- {
		kind = r.hodgesKind(body[:i])
	}
	if kind == 0 {
		return 0, "", fmt.Errorf("unknown piece in %q", body)
	}
	return kind, body[i+1:], nil
}

// hodgesScanner reads the squares and separators of a Hodges move from
// rest, consuming what it reads.
type hodgesScanner struct {
	r    *Rules
	rest string
}

// sep reads a '-' or 'x'.
func (sc *hodgesScanner) sep() (byte, error) {
	if len(sc.rest) == 0 || (sc.rest[0] != '-' && sc.rest[0] != 'x') {
		return 0, errors.New("want '-' or 'x'")
	}
	c := sc.rest[0]
	sc.rest = sc.rest[1:]
	return c, nil
}

// square reads a square in USI form ("7c").
func (sc *hodgesScanner) square() (Square, error) {
	sq, n, err := sc.r.parseUSISquare(sc.rest)
	if err != nil {
		return NoSquare, err
	}
	sc.rest = sc.rest[n:]
	return sq, nil
}

// matchHodges finds the legal move h names; two pieces of the kind that can
// make it are ambiguous unless the origin square tells them apart.
func (p *Position) matchHodges(h *hodgesMove, spec promoSpec) (Move, error) {
	var buf [MaxMoves]Move
	var plain, promo Move
	for _, m := range p.GenerateMoves(buf[:0]) {
		if m.IsPass() || p.board[m.From()].Kind() != h.kind || (h.origin != NoSquare && m.From() != h.origin) {
			continue
		}
		if !p.hodgesPathMatches(m, h) {
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

// hodgesPathMatches reports whether legal move m goes where h says.
func (p *Position) hodgesPathMatches(m Move, h *hodgesMove) bool {
	switch {
	case h.igui:
		return m.IsIgui() && m.Mid() == h.first
	case h.second != NoSquare && p.board[h.first] == Empty && !p.r.paths:
		// a path through an empty square is the direct move (§4 rule 1)
		return !m.IsDouble() && m.To() == h.second && chebyshev(m.From(), h.first) == 1 && chebyshev(h.first, h.second) == 1
	case h.second != NoSquare:
		return m.IsDouble() && m.Mid() == h.first && m.To() == h.second
	}
	return !m.IsDouble() && m.To() == h.first
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
