package cecp

import (
	"fmt"
	"strings"

	"chuzero/rules"
)

// SetupLines returns what the engine tells an XBoard GUI after "variant"
// for a game XBoard does not know: Chu is built in (nothing to send); Sho
// is HaChu's drop-less 9x9 shogi with the Drunk Elephant (its exact
// "setup" line, sho-shogi.md §7); Heian is defined on XBoard's chu parent
// with a "setup" line naming our piece letters and a "piece" line with the
// Betza moves of each piece, generated from the variant's piece table
// (heian-dai-shogi.md §7).
func SetupLines(r *rules.Rules) []string {
	start := r.StartPosition()
	board, _, _ := strings.Cut(start.FEN(), " ")
	switch r.Variant().ID {
	case rules.Chu:
		return nil
	case rules.Sho:
		return []string{"setup (PNBRLSE..G.+++++++Kpnbrlse..g.+++++++k) 9x9+0_shogi " + board + " w 0 1"}
	}
	// Engine-defined: pawn first, the other unpromoted pieces, their
	// promoted forms ("^X"), the royal last (XBoard's rule for the king).
	var base, promoted []string
	var king string
	var pieces []string
	for k := 1; k <= r.NumKinds(); k++ {
		d := r.KindDef(rules.Kind(k))
		id := d.Letter
		if d.Promoted {
			id = "+" + d.Letter
		}
		pieces = append(pieces, fmt.Sprintf("piece %s& %s", id, Betza(d)))
		switch {
		case d.Royal && !d.Promoted:
			king = d.Letter
		case d.Promoted:
			promoted = append(promoted, "^"+d.Letter)
		case d.Letter == "P":
			base = append([]string{"P"}, base...)
		default:
			base = append(base, d.Letter)
		}
	}
	white := strings.Join(base, "") + strings.Join(promoted, "") + king
	table := white + strings.ToLower(white)
	setup := fmt.Sprintf("setup (%s) %dx%d+0_chu %s w 0 1", table, r.Files(), r.Ranks(), board)
	return append([]string{setup}, pieces...)
}

// Betza returns a piece's moves in Betza notation as XBoard reads it: the
// five direction columns of the piece table (steps W/F, limited slides
// R2../B2.., slides R/B, jumps to the second square D/A, lion power as
// its step and jump) prefixed with f, fl/fr, s, b, bl/br, plus the fixed
// leaps (a shogi Knight is ffN).
func Betza(d *rules.PieceDef) string {
	if d.Lion {
		return "KNAD"
	}
	var b strings.Builder
	orth := [...]string{"f", "", "s", "b", ""}
	diag := [...]string{"", "f", "", "", "b"}
	for col := 0; col < 5 && col < len(d.Moves); col++ {
		c := d.Moves[col]
		diagonal := col == 1 || col == 4
		prefix := orth[col]
		step, slide, jump := "W", "R", "D"
		if diagonal {
			prefix = diag[col]
			step, slide, jump = "F", "B", "A"
		}
		switch {
		case c == '-':
		case c == '1':
			b.WriteString(prefix + step)
		case c >= '2' && c <= '9':
			b.WriteString(prefix + slide + string(c))
		case c == '*':
			b.WriteString(prefix + slide)
		case c == 'J':
			b.WriteString(prefix + jump)
		case c == 'L':
			b.WriteString(prefix + step + prefix + jump)
		}
	}
	for _, l := range d.Leaps {
		if l.Rank == 2 && (l.File == 1 || l.File == -1) {
			b.WriteString("ffN")
			break
		}
	}
	if b.Len() == 0 {
		return "K"
	}
	return b.String()
}
