package arena

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"chuzero/checkpoints/atomicfile"
	"chuzero/rules"
	"chuzero/selfplay"
)

// GameRecord is one arena game, as written to games.jsonl (one JSON object
// per line).
type GameRecord struct {
	Index        int       `json:"index"`         // game number in the match, from 0
	Pair         int       `json:"pair"`          // the opening pair: games 2k and 2k+1 of a pairing share an opening, colours swapped
	Sente        string    `json:"sente"`         // player names; Sente moves first (XBoard's "White")
	Gote         string    `json:"gote"`          //
	Variant      string    `json:"variant"`       // chu, sho, heian
	Rules        string    `json:"rules"`         // the referee's rules config (rules.Config.String)
	Start        string    `json:"start"`         // start position, SFEN (the opening's moves follow it in Moves)
	OpeningPlies int       `json:"opening_plies"` // how many of Moves are the opening's
	Moves        []string  `json:"moves"`         // machine notation
	Result       string    `json:"result"`        // 1-0 (Sente won), 0-1, 1/2-1/2
	Winner       string    `json:"winner,omitempty"`
	Reason       string    `json:"reason"`         // rules.Reason text: "royal captured", "illegal move", "adjudication", "forfeit", ...
	Note         string    `json:"note,omitempty"` // what the referee saw: the rejected move, the disagreement, the failure
	Plies        int       `json:"plies"`
	Started      time.Time `json:"started"`
	Seconds      float64   `json:"seconds"`
	// MoveSeconds is the time each player's move took, from the request
	// to the reply, for the moves after the opening (Moves[OpeningPlies:],
	// in order; absent in records written before it existed).
	MoveSeconds []float32 `json:"move_seconds,omitempty"`
}

// mover returns the side that played the k-th move after the opening.
func (r *GameRecord) mover(k int) rules.Color {
	first := rules.Sente
	if f := strings.Fields(r.Start); len(f) > 1 && f[1] == "w" {
		first = rules.Gote
	}
	if (r.OpeningPlies+k)%2 == 1 {
		first = first.Other()
	}
	return first
}

// ReadGameRecords reads a games.jsonl file; a truncated last line (a
// crash mid-write, impossible with this package's atomic writes but
// possible with copies) is skipped.
func ReadGameRecords(path string) ([]GameRecord, error) {
	f, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []GameRecord
	var bad error
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		if bad != nil {
			return out, bad
		}
		var r GameRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			bad = fmt.Errorf("arena: %s:%d: %w", path, line, err)
			continue
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// Replay rebuilds the game of a record under its rules and checks its
// moves; the result is checked when the rules decided it.
func (r *GameRecord) Replay() (*rules.Game, error) {
	g, err := selfplay.ReplayMoves(r.Rules, r.Start, r.Moves)
	if err != nil {
		return nil, fmt.Errorf("arena: game %d: %w", r.Index, err)
	}
	if res := g.Result(); res.Over() && res.PGN() != r.Result {
		return nil, fmt.Errorf("arena: game %d: replay ends %v, record says %s", r.Index, res, r.Result)
	}
	return g, nil
}

// WritePGN writes the record as a PGN game that XBoard loads (File > Load
// Game): the variant tag, the start position as an XBoard FEN when it is
// not the variant's, and the moves as coordinates in the form XBoard's
// PGN parser reads (see pgnMove). A game that ended by a royal capture
// stops loading one ply early in XBoard with legality testing on, which
// does not let a move leave its own King attacked.
func (r *GameRecord) WritePGN(w io.Writer, event string) error {
	cfg, err := rules.ParseConfig(r.Rules)
	if err != nil {
		return err
	}
	rs, err := rules.New(cfg)
	if err != nil {
		return err
	}
	start, err := rs.ParseSFEN(r.Start)
	if err != nil {
		return err
	}
	var b strings.Builder
	tag := func(k, v string) { fmt.Fprintf(&b, "[%s %q]\n", k, v) }
	tag("Event", event)
	tag("Site", "chuzero arena")
	tag("Date", r.Started.UTC().Format("2006.01.02"))
	tag("Round", fmt.Sprint(r.Index+1))
	tag("White", r.Sente)
	tag("Black", r.Gote)
	tag("Result", r.Result)
	tag("Variant", rs.Variant().XBoard)
	if std := rs.StartPosition(); !start.Equal(&std) {
		tag("SetUp", "1")
		tag("FEN", start.FEN())
	}
	tag("Termination", r.Reason)
	tag("PlyCount", fmt.Sprint(len(r.Moves)))
	b.WriteByte('\n')
	line := 0
	emit := func(s string) {
		if line > 0 && line+1+len(s) > 79 {
			b.WriteByte('\n')
			line = 0
		} else if line > 0 {
			b.WriteByte(' ')
			line++
		}
		b.WriteString(s)
		line += len(s)
	}
	// Move numbers as in chess: Sente's moves numbered, from the start
	// position's side to move.
	gote := start.SideToMove() == rules.Gote
	n := 1
	replay := rules.NewGame(start)
	for i, text := range r.Moves {
		m := text
		if mv, err := replay.Position().ParseMove(text); err == nil {
			m = pgnMove(replay.Position(), mv)
			replay.Push(mv)
		}
		sente := (i%2 == 0) != gote
		switch {
		case sente:
			emit(fmt.Sprintf("%d.", n))
		case i == 0:
			emit(fmt.Sprintf("%d...", n))
		}
		emit(m)
		if !sente {
			n++
		}
		if i+1 == r.OpeningPlies && i+1 < len(r.Moves) {
			emit("{end of opening}")
		}
	}
	comment := r.Reason
	if r.Note != "" {
		comment += ": " + r.Note
	}
	emit("{" + strings.ReplaceAll(comment, "}", ")") + "}")
	emit(r.Result)
	b.WriteString("\n\n")
	_, err = io.WriteString(w, b.String())
	return err
}

// pgnMove writes m as XBoard 4.9's PGN reader wants it: machine notation
// ("f4f5", "e8e9+"), except that a two-leg move is the origin, the first
// leg's square, "-" or "x" (capture on the final square) and the final
// square ("i5h4-g3", "i5h4xg3"; igui "f6g7-f6"), and a pass is "--".
func pgnMove(pos *rules.Position, m rules.Move) string {
	r := pos.Rules()
	switch {
	case m.IsPass():
		return "--"
	case m.IsDouble():
		sep := "-"
		if m.To() != m.From() && pos.At(m.To()).IsPiece() {
			sep = "x"
		}
		return r.SquareName(m.From()) + r.SquareName(m.Mid()) + sep + r.SquareName(m.To())
	}
	return pos.MoveString(m)
}
