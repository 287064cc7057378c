package web

import (
	"encoding/json"
	"fmt"

	"chuzero/rules"
	"chuzero/selfplay"
	"chuzero/selfplay/arena"
)

// GameView is one game for the board viewer: the record's header and,
// computed here by the rules, the position after every ply.
type GameView struct {
	Game         *GameInfo `json:"game"`
	Variant      string    `json:"variant"`
	Rules        string    `json:"rules"` // rules.Config.String
	Start        string    `json:"start"` // SFEN
	Seed         uint64    `json:"seed,omitempty"`
	Winner       string    `json:"winner,omitempty"`
	Note         string    `json:"note,omitempty"`          // the referee's note (matches)
	OpeningPlies int       `json:"opening_plies,omitempty"` // moves of the match's opening
	Truncated    bool      `json:"truncated,omitempty"`     // self-play's ply cap stopped the game
	Board        Board     `json:"board"`
	Plies        []Ply     `json:"plies"`           // Plies[0] is the start; Plies[i] follows the i-th move
	Error        string    `json:"error,omitempty"` // a move the rules refused: the plies stop before it
}

// Ply is the position after a move.
type Ply struct {
	Squares []string  `json:"squares"` // the board in display order (see Board)
	SFEN    string    `json:"sfen"`
	Side    string    `json:"side"`           // to move: sente or gote
	Move    *MoveView `json:"move,omitempty"` // the move that led here (nil at the start)
	// The search at this position (self-play): its root value for Sente
	// in [-1, 1] (the record stores it for the side to move), its root
	// visits and whether it was a full search.
	Value  *float32 `json:"value,omitempty"`
	Visits int32    `json:"visits,omitempty"`
	Full   bool     `json:"full,omitempty"`
}

// MoveView is a move in every notation, with the squares it touches as
// indices in display order (-1: none).
type MoveView struct {
	Machine   string `json:"machine"` // as recorded: "f4f5", "f6g7,g7h8"
	USI       string `json:"usi"`     // "7f7e"
	Hodges    string `json:"hodges"`  // "P-7e", "Lnx7c-6c"
	From      int    `json:"from"`
	Mid       int    `json:"mid"` // the first leg of a Lion's double move
	To        int    `json:"to"`
	Pass      bool   `json:"pass,omitempty"`
	Promotion bool   `json:"promotion,omitempty"`
	Capture   bool   `json:"capture,omitempty"`
}

// gameRecord is what both record formats give the viewer.
type gameRecord struct {
	variant, rules, start string
	moves                 []string
	values                []float32
	visits                []int32
	full                  []bool
}

// decodeGame decodes the line of g by its kind into a view without plies.
func decodeGame(g *GameInfo, line []byte) (*GameView, gameRecord, error) {
	v := &GameView{Game: g}
	var r gameRecord
	if g.Kind == KindSelfPlay {
		var rec selfplay.Record
		if err := json.Unmarshal(line, &rec); err != nil {
			return nil, r, err
		}
		if rec.ID != g.raw {
			return nil, r, errGone
		}
		v.Seed, v.Winner, v.Truncated = rec.Seed, rec.Winner, rec.Truncated
		r = gameRecord{rec.Variant, rec.Rules, rec.Start, rec.Moves, rec.Values, rec.Visits, rec.Full}
	} else {
		var rec arena.GameRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			return nil, r, err
		}
		if int64(rec.Index) != g.Index {
			return nil, r, errGone
		}
		v.Winner, v.Note, v.OpeningPlies = rec.Winner, rec.Note, rec.OpeningPlies
		r = gameRecord{variant: rec.Variant, rules: rec.Rules, start: rec.Start, moves: rec.Moves}
	}
	v.Variant, v.Rules, v.Start = r.variant, r.rules, r.start
	return v, r, nil
}

// replay plays the record's moves under its rules and fills v's board and
// plies. A move the rules refuse ends the plies there, with v.Error set;
// only rules or a start position that do not parse are an error.
func (v *GameView) replay(r gameRecord) error {
	c, err := rules.ParseConfig(r.rules)
	if err != nil {
		return fmt.Errorf("web: game %s: %w", v.Game.ID, err)
	}
	rs, err := rules.New(c)
	if err != nil {
		return fmt.Errorf("web: game %s: %w", v.Game.ID, err)
	}
	g, err := rs.NewGameFromSFEN(r.start)
	if err != nil {
		return fmt.Errorf("web: game %s: %w", v.Game.ID, err)
	}
	v.Board = newBoard(rs)
	v.Plies = make([]Ply, 0, len(r.moves)+1)
	v.Plies = append(v.Plies, plyOf(g.Position(), nil))
	for i, text := range r.moves {
		r.search(&v.Plies[i], i)
		pos := g.Position()
		m, err := pos.ParseMove(text)
		if err == nil {
			mv := moveView(pos, m, text)
			if err = g.Play(m); err == nil {
				v.Plies = append(v.Plies, plyOf(g.Position(), mv))
				continue
			}
		}
		v.Error = fmt.Sprintf("move %d (%s): %v", i+1, text, err)
		break
	}
	return nil
}

// search sets the search numbers of the position before move i.
func (r gameRecord) search(p *Ply, i int) {
	if i < len(r.values) {
		val := r.values[i]
		if p.Side == rules.Gote.String() {
			val = -val
		}
		p.Value = &val
	}
	if i < len(r.visits) {
		p.Visits = r.visits[i]
	}
	if i < len(r.full) {
		p.Full = r.full[i]
	}
}

// plyOf is the position p reached by move m (nil at the start).
func plyOf(p *rules.Position, m *MoveView) Ply {
	return Ply{Squares: squares(p), SFEN: p.SFEN(), Side: p.SideToMove().String(), Move: m}
}

// moveView writes m, a legal move of p, in every notation (before it is
// played: Hodges needs the position it is played from).
func moveView(p *rules.Position, m rules.Move, machine string) *MoveView {
	r := p.Rules()
	mv := &MoveView{Machine: machine, USI: p.USI(m), Hodges: p.Hodges(m), From: -1, Mid: -1, To: -1,
		Pass: m.IsPass(), Promotion: m.IsPromotion()}
	if m.IsPass() {
		return mv
	}
	mv.From, mv.To = displayIndex(r, m.From()), displayIndex(r, m.To())
	if m.IsDouble() {
		mv.Mid = displayIndex(r, m.Mid())
		mv.Capture = p.At(m.Mid()).IsPiece()
	}
	if m.To() != m.From() && p.At(m.To()).IsPiece() {
		mv.Capture = true
	}
	return mv
}
