package arena

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// Standings are a match's results so far.
type Standings struct {
	Names []string
	// Pairs holds, for i < j, player i's score against player j.
	Pairs map[[2]int]Score
	Games int
	// Counts of games not decided by the rules alone.
	IllegalMoves, Forfeits, Adjudicated, Resigned int
	// SPRT is the state of the test, in a two-player SPRT match.
	SPRT *SPRTState
	// Moves and Seconds count, per player (index of Names), the moves
	// timed in the records (GameRecord.MoveSeconds) and their time.
	Moves   []int
	Seconds []float64
}

// SPRTState is the sequential test's state: the log-likelihood ratio of
// the first player (the candidate) being Elo1 rather than Elo0 stronger
// than the second, its bounds and the decision. The test counts the
// colour-swapped game pairs of each opening (the pentanomial model, as
// fishtest): the two games of a pair are correlated through their
// opening, and treating them as independent games overstates the
// evidence. The LLR moves when both games of a pair are finished.
type SPRTState struct {
	Test     SPRT     `json:"test"`
	LLR      float64  `json:"llr"`
	Lower    float64  `json:"lower"`
	Upper    float64  `json:"upper"`
	Decision Decision `json:"decision"`
	Pairs    Pairs    `json:"pairs"` // finished pairs by the first player's points: 0, 0.5, 1, 1.5, 2

	pending map[int]float64 // the first player's points in the first finished game of an opening pair
}

func newStandings(entrants []Entrant, t *SPRT) *Standings {
	s := &Standings{Pairs: map[[2]int]Score{}}
	for _, e := range entrants {
		s.Names = append(s.Names, e.Name())
	}
	s.Moves, s.Seconds = make([]int, len(s.Names)), make([]float64, len(s.Names))
	if t != nil {
		lo, hi := t.Bounds()
		s.SPRT = &SPRTState{Test: *t, Lower: lo, Upper: hi, Decision: Continue, pending: map[int]float64{}}
	}
	return s
}

func (s *Standings) clone() *Standings {
	c := *s
	c.Names = append([]string(nil), s.Names...)
	c.Moves, c.Seconds = append([]int(nil), s.Moves...), append([]float64(nil), s.Seconds...)
	c.Pairs = make(map[[2]int]Score, len(s.Pairs))
	for k, v := range s.Pairs {
		c.Pairs[k] = v
	}
	if s.SPRT != nil {
		st := *s.SPRT
		st.pending = make(map[int]float64, len(s.SPRT.pending))
		for k, v := range s.SPRT.pending {
			st.pending[k] = v
		}
		c.SPRT = &st
	}
	return &c
}

func (s *Standings) index(name string) int {
	for i, n := range s.Names {
		if n == name {
			return i
		}
	}
	return -1
}

// add counts a finished game.
func (s *Standings) add(rec *GameRecord) {
	a, b := s.index(rec.Sente), s.index(rec.Gote)
	var sc Score // Sente's
	switch rec.Result {
	case "1-0":
		sc.Wins = 1
	case "0-1":
		sc.Losses = 1
	default:
		sc.Draws = 1
	}
	if a > b {
		a, b, sc = b, a, sc.Flip()
	}
	s.Pairs[[2]int{a, b}] = s.Pairs[[2]int{a, b}].Add(sc)
	s.Games++
	s.addTimes(rec)
	switch rec.Reason {
	case "illegal move":
		s.IllegalMoves++
	case "forfeit":
		s.Forfeits++
	case "adjudication":
		s.Adjudicated++
	case "resignation":
		s.Resigned++
	}
	if s.SPRT != nil && s.SPRT.Decision == Continue {
		s.SPRT.addGame(rec.Pair, sc) // two players: a is 0, the candidate
	}
}

// addTimes counts the timed moves of rec by their players.
func (s *Standings) addTimes(rec *GameRecord) {
	ids := [2]int{s.index(rec.Sente), s.index(rec.Gote)}
	for k, t := range rec.MoveSeconds {
		if i := ids[rec.mover(k)]; i >= 0 {
			s.Moves[i]++
			s.Seconds[i] += float64(t)
		}
	}
}

// MeanMoveTime returns player i's mean time per move over the timed
// moves (0 with none).
func (s *Standings) MeanMoveTime(i int) float64 {
	if s.Moves[i] == 0 {
		return 0
	}
	return s.Seconds[i] / float64(s.Moves[i])
}

// addGame counts a game of an opening pair in the test; sc is the
// candidate's score in it.
func (t *SPRTState) addGame(pair int, sc Score) {
	pts := float64(sc.Wins) + float64(sc.Draws)/2
	prev, ok := t.pending[pair]
	if !ok {
		t.pending[pair] = pts
		return
	}
	delete(t.pending, pair)
	t.Pairs = t.Pairs.Record(prev, pts)
	t.LLR = t.Test.LLRPairs(t.Pairs)
	t.Decision = t.Test.Decide(t.LLR)
}

// Score returns player i's score against player j.
func (s *Standings) Score(i, j int) Score {
	if i < j {
		return s.Pairs[[2]int{i, j}]
	}
	return s.Pairs[[2]int{j, i}].Flip()
}

// Total returns player i's score against everyone.
func (s *Standings) Total(i int) Score {
	var t Score
	for j := range s.Names {
		if j != i {
			t = t.Add(s.Score(i, j))
		}
	}
	return t
}

// Ratings returns every player's Elo (logistic, maximum likelihood over
// the pair results) with its 95% interval, the anchor at 0 (anchor < 0:
// the mean at 0).
func (s *Standings) Ratings(anchor int) ([]Rating, error) {
	res := map[[2]int]Score{}
	for k, v := range s.Pairs {
		if v.Games() > 0 {
			res[k] = v
		}
	}
	return Ratings(len(s.Names), res, anchor)
}

// PairSummary is one pairing's result in Summary.
type PairSummary struct {
	Player   string  `json:"player"`
	Opponent string  `json:"opponent"`
	Wins     int     `json:"wins"`
	Draws    int     `json:"draws"`
	Losses   int     `json:"losses"`
	Elo      float64 `json:"elo"`      // player's Elo relative to the opponent
	EloLow   float64 `json:"elo_low"`  // 95% interval (±Inf encoded as ±1e9 in JSON)
	EloHigh  float64 `json:"elo_high"` //
}

// RatingSummary is one player's rating in Summary.
type RatingSummary struct {
	Player string  `json:"player"`
	Elo    float64 `json:"elo"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
	Games  int     `json:"games"`
	Points float64 `json:"points"`
}

// MoveTimeSummary is one player's thinking time in Summary.
type MoveTimeSummary struct {
	Player      string  `json:"player"`
	Moves       int     `json:"moves"`        // moves timed
	MeanSeconds float64 `json:"mean_seconds"` // mean time per move
}

// Summary is the JSON form of the standings (results.json).
type Summary struct {
	Players      []string        `json:"players"`
	Games        int             `json:"games"`
	Pairs        []PairSummary   `json:"pairs"`
	Ratings      []RatingSummary `json:"ratings,omitempty"` // anchored on the first player
	IllegalMoves int             `json:"illegal_moves"`
	Forfeits     int             `json:"forfeits"`
	Adjudicated  int             `json:"adjudicated"`
	Resigned     int             `json:"resigned"`
	SPRT         *SPRTState      `json:"sprt,omitempty"`
	// MoveTimes: each player's mean time per move (from the records'
	// move_seconds).
	MoveTimes []MoveTimeSummary `json:"move_times,omitempty"`
}

// Finite maps an Elo figure (or an LLR) for JSON, which has no
// infinities: beyond ±1e9 (a clean sweep's ±Inf) to ±1e9, NaN to 0.
func Finite(x float64) float64 {
	switch {
	case x > 1e9:
		return 1e9
	case x < -1e9:
		return -1e9
	case math.IsNaN(x):
		return 0
	}
	return x
}

// Summary returns the standings in their JSON form.
func (s *Standings) Summary() Summary {
	out := Summary{Players: s.Names, Games: s.Games, IllegalMoves: s.IllegalMoves,
		Forfeits: s.Forfeits, Adjudicated: s.Adjudicated, Resigned: s.Resigned, SPRT: s.SPRT}
	if out.SPRT != nil {
		st := *out.SPRT
		st.LLR = Finite(st.LLR)
		out.SPRT = &st
	}
	for i := range s.Names {
		for j := i + 1; j < len(s.Names); j++ {
			sc := s.Score(i, j)
			if sc.Games() == 0 && s.Games > 0 {
				continue // not paired (a gauntlet)
			}
			e, lo, hi := EloInterval(sc)
			out.Pairs = append(out.Pairs, PairSummary{Player: s.Names[i], Opponent: s.Names[j],
				Wins: sc.Wins, Draws: sc.Draws, Losses: sc.Losses, Elo: Finite(e), EloLow: Finite(lo), EloHigh: Finite(hi)})
		}
	}
	for i, n := range s.Names {
		if s.Moves[i] > 0 {
			out.MoveTimes = append(out.MoveTimes, MoveTimeSummary{Player: n, Moves: s.Moves[i], MeanSeconds: s.MeanMoveTime(i)})
		}
	}
	if rs, err := s.Ratings(0); err == nil {
		for _, r := range rs {
			out.Ratings = append(out.Ratings, RatingSummary{Player: s.Names[r.Player], Elo: Finite(r.Elo),
				Low: Finite(r.Low), High: Finite(r.High), Games: r.Games, Points: r.Points})
		}
	}
	return out
}

// FormatElo writes an Elo difference with its sign ("+35", "-120"):
// "+inf"/"-inf" beyond ±1e6 (a clean sweep, infinite or stored as ±1e9
// by Finite), "?" for NaN.
func FormatElo(x float64) string {
	switch {
	case math.IsNaN(x):
		return "?"
	case x > 1e6:
		return "+inf"
	case x < -1e6:
		return "-inf"
	}
	return fmt.Sprintf("%+.0f", x)
}

// fmtSeconds writes a time per move: "850µs", "12.3ms", "1.25s".
func fmtSeconds(x float64) string {
	d := time.Duration(x * float64(time.Second))
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(100 * time.Microsecond).String()
	}
	return d.Round(10 * time.Millisecond).String()
}

// WriteTable prints the standings: with two players, the score, Elo
// difference and interval (and the SPRT); with more, a rating table
// anchored on the first player and the pair results.
func (s *Standings) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	if len(s.Names) > 2 {
		rs, err := s.Ratings(0)
		if err == nil {
			sort.SliceStable(rs, func(a, b int) bool { return rs[a].Elo > rs[b].Elo })
			fmt.Fprintln(tw, "rank\tplayer\tElo\t95% interval\tgames\tscore\t")
			for k, r := range rs {
				sc := s.Total(r.Player)
				fmt.Fprintf(tw, "%d\t%s\t%s\t[%s, %s]\t%d\t%.1f%%\t\n", k+1, s.Names[r.Player], FormatElo(r.Elo),
					FormatElo(r.Low), FormatElo(r.High), sc.Games(), 100*sc.Points()/math.Max(1, float64(sc.Games())))
			}
			tw.Flush()
			fmt.Fprintf(w, "(Elo relative to %s, by maximum likelihood over all games)\n\n", s.Names[0])
		}
	}
	fmt.Fprintln(tw, "player\topponent\tgames\twins\tdraws\tlosses\tscore\tElo\t95% interval\t")
	for i := range s.Names {
		for j := i + 1; j < len(s.Names); j++ {
			sc := s.Score(i, j)
			if sc.Games() == 0 {
				continue // not paired (a gauntlet)
			}
			e, lo, hi := EloInterval(sc)
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%.1f%%\t%s\t[%s, %s]\t\n", s.Names[i], s.Names[j], sc.Games(),
				sc.Wins, sc.Draws, sc.Losses, 100*sc.Points()/math.Max(1, float64(sc.Games())), FormatElo(e), FormatElo(lo), FormatElo(hi))
		}
	}
	tw.Flush()
	var notes []string
	if s.IllegalMoves > 0 {
		notes = append(notes, fmt.Sprintf("%d lost by an illegal move", s.IllegalMoves))
	}
	if s.Forfeits > 0 {
		notes = append(notes, fmt.Sprintf("%d forfeited", s.Forfeits))
	}
	if s.Adjudicated > 0 {
		notes = append(notes, fmt.Sprintf("%d adjudicated (rules disagreements)", s.Adjudicated))
	}
	if s.Resigned > 0 {
		notes = append(notes, fmt.Sprintf("%d resigned", s.Resigned))
	}
	if len(notes) > 0 {
		fmt.Fprintf(w, "games: %d; %s\n", s.Games, strings.Join(notes, ", "))
	}
	var times []string
	for i, n := range s.Names {
		if s.Moves[i] > 0 {
			times = append(times, fmt.Sprintf("%s %s", n, fmtSeconds(s.MeanMoveTime(i))))
		}
	}
	if len(times) > 0 {
		fmt.Fprintf(w, "mean time per move: %s\n", strings.Join(times, ", "))
	}
	if t := s.SPRT; t != nil {
		fmt.Fprintf(w, "SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.2f [%.2f, %.2f] -> %s\n",
			t.Test.Elo0, t.Test.Elo1, t.Test.Alpha, t.Test.Beta, t.LLR, t.Lower, t.Upper, t.Decision)
	}
	return nil
}
