package arena

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"

	"chuzero/rules"
)

// Opening is a start for a pair of games: a position and moves played from
// it. Each opening is played twice, once with each player as Sente.
type Opening struct {
	Start string   // SFEN ("" = the variant's start position)
	Moves []string // machine notation, played from Start
}

// Game returns the game of the opening under r, after its moves.
func (o Opening) Game(r *rules.Rules) (*rules.Game, error) {
	var g *rules.Game
	if o.Start == "" {
		g = rules.NewGame(r.StartPosition())
	} else {
		var err error
		if g, err = r.NewGameFromSFEN(o.Start); err != nil {
			return nil, err
		}
	}
	for i, s := range o.Moves {
		if _, err := g.PlayString(s); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	if g.Result().Over() {
		return nil, fmt.Errorf("the game is over after the opening (%v)", g.Result())
	}
	return g, nil
}

// String returns the opening in the openings-file form.
func (o Opening) String() string {
	s := "startpos"
	if o.Start != "" {
		s = o.Start
	}
	if len(o.Moves) > 0 {
		s += " moves " + strings.Join(o.Moves, " ")
	}
	return s
}

// ReadOpenings reads an openings file: one opening per line, either
// "startpos" or an SFEN, optionally followed by "moves" and moves in
// machine notation ("startpos moves f4f5 h9h8"; a line of moves alone is
// read as from startpos). Blank lines and lines starting with '#' are
// skipped. Every opening is checked under r; an error names the line.
func ReadOpenings(path string, r *rules.Rules) ([]Opening, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseOpenings(f, path, r)
}

// ParseOpenings reads openings from rd (name is used in errors).
func ParseOpenings(rd io.Reader, name string, r *rules.Rules) ([]Opening, error) {
	var out []Opening
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		o, err := ParseOpening(text, r)
		if err != nil {
			return nil, fmt.Errorf("arena: %s:%d: %w", name, line, err)
		}
		out = append(out, o)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("arena: %s: no openings", name)
	}
	return out, nil
}

// ParseOpening reads one line of an openings file and checks it under r.
func ParseOpening(text string, r *rules.Rules) (Opening, error) {
	var o Opening
	head, moves, hasMoves := strings.Cut(" "+text+" ", " moves ")
	head = strings.TrimSpace(head)
	switch {
	case head == "startpos" || head == "":
	case hasMoves || strings.Contains(head, "/"):
		o.Start = head
	default: // moves alone
		moves, hasMoves = head, true
	}
	if hasMoves {
		o.Moves = strings.Fields(moves)
	}
	if o.Start != "" {
		pos, err := r.ParseSFEN(o.Start)
		if err != nil {
			return o, err
		}
		o.Start = pos.SFEN()
	}
	if _, err := o.Game(r); err != nil {
		return o, err
	}
	return o, nil
}

// RandomOpenings returns n random balanced openings of plies moves from
// the start position, drawn from seed: random quiet moves (no capture, no
// promotion), accepted only if the side to move then has no capture
// either, so that neither side starts a piece up or with one hanging.
// Openings are distinct where the game allows.
func RandomOpenings(r *rules.Rules, n, plies int, seed uint64) ([]Opening, error) {
	if n <= 0 {
		return nil, nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x6f70656e696e67))
	seen := map[uint64]bool{}
	var out []Opening
	for tries := 0; len(out) < n; tries++ {
		if tries > 100*n+1000 {
			return out, fmt.Errorf("arena: found only %d distinct balanced openings of %d plies", len(out), plies)
		}
		g := rules.NewGame(r.StartPosition())
		var moves []string
		ok := true
		for i := 0; i < plies && ok; i++ {
			quiet := quietMoves(g)
			if len(quiet) == 0 {
				ok = false
				break
			}
			m := quiet[rng.IntN(len(quiet))]
			moves = append(moves, g.Position().MoveString(m))
			g.Push(m)
			ok = !g.Result().Over()
		}
		if !ok || hasCapture(g) {
			continue
		}
		key := g.Position().Hash()
		if seen[key] && tries < 50*n {
			continue
		}
		seen[key] = true
		out = append(out, Opening{Moves: moves})
	}
	return out, nil
}

// quietMoves returns the legal moves that neither capture nor promote.
func quietMoves(g *rules.Game) []rules.Move {
	pos := g.Position()
	var out []rules.Move
	for _, m := range g.LegalMoves() {
		if m.IsPass() || m.IsPromotion() || capturesSomething(pos, m) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// hasCapture reports whether the side to move can capture.
func hasCapture(g *rules.Game) bool {
	pos := g.Position()
	for _, m := range g.LegalMoves() {
		if !m.IsPass() && capturesSomething(pos, m) {
			return true
		}
	}
	return false
}

func capturesSomething(pos *rules.Position, m rules.Move) bool {
	if pos.At(m.To()).IsPiece() && m.To() != m.From() {
		return true
	}
	if mid := m.Mid(); mid != rules.NoSquare && pos.At(mid).IsPiece() {
		return true
	}
	return false
}
