package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Position strings (chu-shogi.md §10).
//
// SFEN, the canonical form (lishogi): "<board> <side> <cs> <move>" where
// side b = Sente to move, cs is the counter-strike square in USI
// coordinates or "-", move is the lishogi move number (1 + plies played).
// Under PromotionRule=Hodges a fifth field gives the suppression squares of
// Sente and Gote, "5c,-".
//
// FEN, for interchange with XBoard/HaChu/Fairy-Stockfish: "<board> <side>
// <cs> <move>" where side w = Sente (uppercase) to move, cs is algebraic and
// move is the chess-style full-move number. Readers accept 2 to 6 fields:
// after the side, an optional counter-strike field ("-" or a square), any
// further "-" fields, and numbers of which the last is the full-move number
// (Fairy-Stockfish's "w - - 0 1" and HaChu's "w 0 1" both read).

// maxMoveNumber bounds move numbers so that they fit the Position.
const maxMoveNumber = 1 << 30

// ParseSFEN reads a position in SFEN.
func (r *Rules) ParseSFEN(s string) (Position, error) {
	p, err := r.parseSFEN(s)
	if err != nil {
		return Position{}, fmt.Errorf("rules: sfen %q: %w", clip(s), err)
	}
	return p, nil
}

func (r *Rules) parseSFEN(s string) (Position, error) {
	f := strings.Fields(s)
	if len(f) < 2 || len(f) > 5 {
		return Position{}, fmt.Errorf("want 2 to 5 fields, got %d", len(f))
	}
	p := Position{r: r, moveNumber: 1}
	if err := p.parseBoard(f[0]); err != nil {
		return Position{}, err
	}
	switch f[1] {
	case "b":
		p.side = Sente
	case "w":
		p.side = Gote
	default:
		return Position{}, fmt.Errorf("side to move %q is not b or w", f[1])
	}
	if len(f) > 2 {
		cs, err := r.parseCS(f[2], r.parseUSISquare)
		if err != nil {
			return Position{}, err
		}
		p.cs = cs
	}
	if len(f) > 3 {
		n, err := parseMoveNumber(f[3])
		if err != nil {
			return Position{}, err
		}
		p.moveNumber = int32(n)
	}
	if len(f) > 4 {
		if err := p.parseSup(f[4], r.parseUSISquare); err != nil {
			return Position{}, err
		}
	}
	p.finish()
	return p, nil
}

// ParseFEN reads a position in the XBoard/FSF FEN dialect.
func (r *Rules) ParseFEN(s string) (Position, error) {
	p, err := r.parseFEN(s)
	if err != nil {
		return Position{}, fmt.Errorf("rules: fen %q: %w", clip(s), err)
	}
	return p, nil
}

func (r *Rules) parseFEN(s string) (Position, error) {
	f := strings.Fields(s)
	if len(f) < 2 || len(f) > 6 {
		return Position{}, fmt.Errorf("want 2 to 6 fields, got %d", len(f))
	}
	p := Position{r: r}
	if err := p.parseBoard(f[0]); err != nil {
		return Position{}, err
	}
	switch f[1] {
	case "w":
		p.side = Sente
	case "b":
		p.side = Gote
	default:
		return Position{}, fmt.Errorf("side to move %q is not w or b", f[1])
	}
	full := 1
	sawCS, sawNumber := false, false
	for _, x := range f[2:] {
		switch {
		case x[0] >= '0' && x[0] <= '9':
			n, err := parseMoveNumber(x)
			if err != nil && x != "0" {
				return Position{}, err
			}
			full, sawNumber = n, true
		case strings.Contains(x, ","):
			if err := p.parseSup(x, r.parseAlgebraic); err != nil {
				return Position{}, err
			}
		case sawNumber:
			return Position{}, fmt.Errorf("field %q after the move number", x)
		case x == "-":
			sawCS = true
		case !sawCS:
			cs, err := r.parseCS(x, r.parseAlgebraic)
			if err != nil {
				return Position{}, err
			}
			p.cs, sawCS = cs, true
		default:
			return Position{}, fmt.Errorf("unexpected field %q", x)
		}
	}
	if full < 1 {
		full = 1
	}
	n := 2*full - 1
	if p.side == Gote {
		n++
	}
	if n > maxMoveNumber {
		return Position{}, fmt.Errorf("move number %d too large", full)
	}
	p.moveNumber = int32(n)
	p.finish()
	return p, nil
}

func (p *Position) finish() {
	p.recount()
	p.hash = p.ComputeHash()
}

func parseMoveNumber(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > maxMoveNumber {
		return 0, fmt.Errorf("move number %q is not an integer in 1..%d", s, maxMoveNumber)
	}
	return n, nil
}

type squareParser func(string) (Square, int, error)

// parseCS reads a counter-strike field: "-" or a whole square.
func (r *Rules) parseCS(s string, parse squareParser) (Square, error) {
	if s == "-" {
		return NoSquare, nil
	}
	if !r.hasLionPower {
		return NoSquare, fmt.Errorf("counter-strike field %q: %s has no Lions, want -", s, r.v.Name)
	}
	sq, n, err := parse(s)
	if err != nil || n != len(s) {
		return NoSquare, fmt.Errorf("bad counter-strike square %q", s)
	}
	return sq, nil
}

// parseSup reads the Hodges suppression field "sq|-,sq|-".
func (p *Position) parseSup(s string, parse squareParser) error {
	if p.r.v.Promotion != PromoteHodges {
		return fmt.Errorf("suppression field %q needs PromotionRule=Hodges", s)
	}
	a, b, ok := strings.Cut(s, ",")
	if !ok || strings.Contains(b, ",") {
		return fmt.Errorf("suppression field %q is not two squares separated by a comma", s)
	}
	for c, x := range []string{a, b} {
		if x == "-" {
			continue
		}
		sq, n, err := parse(x)
		if err != nil || n != len(x) {
			return fmt.Errorf("bad suppression square %q", x)
		}
		p.sup[c] = sq
	}
	return nil
}

// parseBoard fills the board from the first SFEN/FEN field.
func (p *Position) parseBoard(s string) error {
	r := p.r
	p.board = r.empty
	rows := strings.Split(s, "/")
	if len(rows) != r.ranks {
		return fmt.Errorf("board has %d ranks, want %d", len(rows), r.ranks)
	}
	for i, row := range rows {
		rank := r.ranks - 1 - i
		file := 0
		for j := 0; j < len(row); {
			c := row[j]
			switch {
			case c >= '1' && c <= '9':
				n, used := leadingNumber(row[j:], 2)
				if n > r.files-file {
					return fmt.Errorf("rank %d: too many squares", rank+1)
				}
				file += n
				j += used
			case c == '+' || (c|0x20 >= 'a' && c|0x20 <= 'z'):
				key := ""
				if c == '+' {
					j++
					if j >= len(row) {
						return fmt.Errorf("rank %d: '+' without a piece", rank+1)
					}
					c = row[j]
					key = "+"
				}
				if c|0x20 < 'a' || c|0x20 > 'z' {
					return fmt.Errorf("rank %d: %q is not a piece letter", rank+1, c)
				}
				upper := c &^ 0x20
				k, ok := r.byFEN[key+string(rune(upper))]
				if !ok {
					return fmt.Errorf("rank %d: unknown piece %s%c", rank+1, key, c)
				}
				if file >= r.files {
					return fmt.Errorf("rank %d: too many squares", rank+1)
				}
				color := Sente
				if c != upper {
					color = Gote
				}
				p.board[Sq(file, rank)] = MakePiece(k, color)
				file++
				j++
			default:
				return fmt.Errorf("rank %d: unexpected %q", rank+1, c)
			}
		}
		if file != r.files {
			return fmt.Errorf("rank %d has %d squares, want %d", rank+1, file, r.files)
		}
	}
	return nil
}

// boardField writes the board part of SFEN and FEN.
func (p *Position) boardField(b *strings.Builder) {
	r := p.r
	for rank := r.ranks - 1; rank >= 0; rank-- {
		run := 0
		for file := 0; file < r.files; file++ {
			pc := p.board[Sq(file, rank)]
			if pc == Empty {
				run++
				continue
			}
			if run > 0 {
				b.WriteString(strconv.Itoa(run))
				run = 0
			}
			b.WriteString(r.PieceString(pc))
		}
		if run > 0 {
			b.WriteString(strconv.Itoa(run))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
}

// PieceString returns the FEN spelling of a piece: "K", "+d".
func (r *Rules) PieceString(pc Piece) string {
	if !pc.IsPiece() || int(pc.Kind()) >= len(r.kinds) {
		return "?"
	}
	d := &r.kinds[pc.Kind()]
	l := d.Letter
	if pc.Color() == Gote {
		l = strings.ToLower(l)
	}
	if d.Promoted {
		return "+" + l
	}
	return l
}

// SFEN returns the position in canonical SFEN.
func (p *Position) SFEN() string {
	var b strings.Builder
	p.boardField(&b)
	if p.side == Sente {
		b.WriteString(" b ")
	} else {
		b.WriteString(" w ")
	}
	p.squareOrDash(&b, p.cs, p.r.USISquare)
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(int(p.moveNumber)))
	if p.r.v.Promotion == PromoteHodges {
		b.WriteByte(' ')
		p.squareOrDash(&b, p.sup[Sente], p.r.USISquare)
		b.WriteByte(',')
		p.squareOrDash(&b, p.sup[Gote], p.r.USISquare)
	}
	return b.String()
}

// FEN returns the position in the XBoard/FSF dialect (w = Sente to move).
func (p *Position) FEN() string {
	var b strings.Builder
	p.boardField(&b)
	if p.side == Sente {
		b.WriteString(" w ")
	} else {
		b.WriteString(" b ")
	}
	p.squareOrDash(&b, p.cs, p.r.SquareName)
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(int(p.moveNumber+1) / 2))
	if p.r.v.Promotion == PromoteHodges {
		b.WriteByte(' ')
		p.squareOrDash(&b, p.sup[Sente], p.r.SquareName)
		b.WriteByte(',')
		p.squareOrDash(&b, p.sup[Gote], p.r.SquareName)
	}
	return b.String()
}

func (p *Position) squareOrDash(b *strings.Builder, s Square, name func(Square) string) {
	if s == NoSquare {
		b.WriteByte('-')
		return
	}
	b.WriteString(name(s))
}

// BoardString returns the board field alone (the first SFEN field).
func (p *Position) BoardString() string {
	var b strings.Builder
	p.boardField(&b)
	return b.String()
}

// clip shortens s for error messages.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

var errEmpty = errors.New("empty input")
