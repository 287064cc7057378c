package selfplay

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"chuzero/checkpoints/atomicfile"
	"chuzero/rules"
)

// Record is one finished game as written to a games file: one JSON object
// per line (JSON Lines).
type Record struct {
	ID      string    `json:"id"`               // game id (hex), as in its samples
	Index   uint64    `json:"index"`            // the game's index in its run
	Seed    uint64    `json:"seed"`             // the game's seed: with the same evaluator, replays the game
	Variant string    `json:"variant"`          // chu, sho, heian
	Rules   string    `json:"rules"`            // the rules config (rules.Config.String)
	Start   string    `json:"start"`            // start position, SFEN
	Moves   []string  `json:"moves"`            // moves in machine notation
	Values  []float32 `json:"values"`           // root value of each search, for the side to move, in [-1, 1]
	Visits  []int32   `json:"visits"`           // root visits of each search
	Full    []bool    `json:"full"`             // whether each move had a full search
	Result  string    `json:"result"`           // 1-0 (Sente won), 0-1, 1/2-1/2
	Winner  string    `json:"winner,omitempty"` // sente or gote
	Reason  string    `json:"reason"`           // why the game ended (rules.Reason text: "resignation", or "max plies" when truncated)
	Plies   int       `json:"plies"`
	// Truncated: the self-play ply cap (Config.MaxPlies) stopped the game;
	// Result is a draw by "max plies" that the rules did not reach, and
	// EndValue is the final search's root value for Sente, the value
	// target its samples use instead of the draw.
	// A capped game's playout (Config.CappedPlayout), when it finished,
	// labels the samples instead: EndValue is then its result for Sente.
	Truncated       bool         `json:"truncated,omitempty"`
	EndValue        float32      `json:"end_value,omitempty"`
	Playout         *Playout     `json:"playout,omitempty"`
	Samples         int          `json:"samples"` // training samples written (full searches and the cheap share)
	ResignAllowed   bool         `json:"resign_allowed"`
	ResignThreshold float64      `json:"resign_threshold"`       // the game's threshold on the chosen move's value
	WouldResign     *WouldResign `json:"would_resign,omitempty"` // games without resignation: when a side would have resigned
	// ResignLow (games without resignation): for Sente and Gote, the lowest
	// value that side's chosen-move values stayed at or below for
	// ResignConsecutive searches in a row (1: never that many); see
	// ResignObservation.
	ResignLow *[2]float32 `json:"resign_low,omitempty"`
	Evaluator string      `json:"evaluator"` // the network (checkpoint name) or test evaluator
	// Quiescence is the quiescence blend of the game's searches
	// (Config.QuiescenceAt the network's step; absent: none).
	Quiescence float64 `json:"quiescence,omitempty"`
	// WarmStart: a teacher played the game (Config.WarmStartGames); its
	// Evaluator is "warm start: " and the teacher's name.
	WarmStart   bool      `json:"warm_start,omitempty"`
	Started     time.Time `json:"started"`
	Seconds     float64   `json:"seconds"`
	Simulations int       `json:"simulations"` // playouts of all searches
}

// WouldResign records the first time, in a game where resigning was
// forbidden, that a side's value stayed below the resignation threshold.
type WouldResign struct {
	Side string `json:"side"`
	Ply  int    `json:"ply"`
}

// FalsePositive reports whether the would-be resignation was wrong: the
// side that would have resigned did not lose.
func (r *Record) FalsePositive() bool {
	return r.WouldResign != nil && r.winner() != otherSide(r.WouldResign.Side)
}

// winner is the side that won: the rules' or a resignation's, or that of
// a capped game's finished playout.
func (r *Record) winner() string {
	if r.Truncated && r.Playout.Finished() {
		return r.Playout.Winner
	}
	return r.Winner
}

func otherSide(s string) string {
	if s == "sente" {
		return "gote"
	}
	return "sente"
}

// Replay rebuilds the game of a record under its rules and checks that
// every move is legal and the recorded result follows (except for a
// resignation, which the rules do not know, and a truncated game, which
// they have not ended).
func (r *Record) Replay() (*rules.Game, error) {
	g, err := ReplayMoves(r.Rules, r.Start, r.Moves)
	if err != nil {
		return nil, fmt.Errorf("selfplay: game %s: %w", r.ID, err)
	}
	if r.Truncated {
		if g.Result().Over() {
			return nil, fmt.Errorf("selfplay: game %s: marked truncated, but the replay ends %v", r.ID, g.Result())
		}
		if err := r.Playout.check(g); err != nil {
			return nil, fmt.Errorf("selfplay: game %s: %w", r.ID, err)
		}
		return g, nil
	}
	if r.Reason != rules.ReasonResign.String() && g.Result().PGN() != r.Result {
		return nil, fmt.Errorf("selfplay: game %s: replay ends %v, record says %s", r.ID, g.Result(), r.Result)
	}
	return g, nil
}

// ReplayMoves plays moves (machine notation) from the SFEN start under the
// rules config cfg (rules.Config.String form): the game of a record.
func ReplayMoves(cfg, start string, moves []string) (*rules.Game, error) {
	c, err := rules.ParseConfig(cfg)
	if err != nil {
		return nil, err
	}
	rs, err := rules.New(c)
	if err != nil {
		return nil, err
	}
	g, err := rs.NewGameFromSFEN(start)
	if err != nil {
		return nil, err
	}
	for i, m := range moves {
		if _, err := g.PlayString(m); err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, m, err)
		}
	}
	return g, nil
}

// ReadRecords reads a games file.
func ReadRecords(path string) ([]Record, error) {
	f, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return DecodeRecords(f, path)
}

// DecodeRecords reads JSON-lines records; name is used in errors.
func DecodeRecords(r io.Reader, name string) ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		var rec Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return out, fmt.Errorf("selfplay: %s:%d: %w", name, line, err)
		}
		out = append(out, rec)
	}
	return out, sc.Err()
}
