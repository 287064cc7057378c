package engine

import (
	"math"
	"sort"

	"chuzero/mcts"
	"chuzero/rules"
)

// Line is a line of the search: its moves from the root, its value for
// the side to move at the root, its first move's visits, and Mate, the
// plies to the game's end when the line ends it decisively with a value
// that says so (see MateValue): positive when the side to move wins,
// negative when it loses, 0 otherwise.
type Line struct {
	Moves  []rules.Move
	Value  float64
	Visits int32
	Mate   int
}

// MateValue is how sure the search must be of a line that ends the game
// before it is reported as a mate: the line's value at least MateValue
// for a win, at most -MateValue for a loss. Tree search proves nothing;
// this is the search's own confidence, not a proof.
const MateValue = 0.95

// TopLines returns the principal variation valued at the root value, or
// with multiPV > 1 the lines of the multiPV most visited root moves,
// valued at their mean values (nil before any search). g is the position
// searched; it is walked down each line and back. Call it between
// searches.
func TopLines(s *mcts.Search, res *mcts.Result, g *rules.Game, multiPV int) []Line {
	if res == nil || len(res.Moves) == 0 {
		return nil
	}
	if multiPV <= 1 {
		pv := s.PV(MaxPV)
		l := Line{Moves: pv, Value: res.RootValue}
		if len(pv) > 0 {
			l.Visits = visitsOf(res, pv[0])
		}
		l.Mate = mateIn(g, pv, l.Value)
		return []Line{l}
	}
	order := make([]int, len(res.Moves))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return res.Visits[order[a]] > res.Visits[order[b]] })
	var lines []Line
	for _, i := range order[:min(multiPV, len(order))] {
		if res.Visits[i] > 0 || len(lines) == 0 {
			l := Line{Moves: s.Line(res.Moves[i], MaxPV), Value: res.Q[i], Visits: res.Visits[i]}
			l.Mate = mateIn(g, l.Moves, l.Value)
			lines = append(lines, l)
		}
	}
	return lines
}

// visitsOf returns the visits of root move m.
func visitsOf(res *mcts.Result, m rules.Move) int32 {
	for i, x := range res.Moves {
		if x == m {
			return res.Visits[i]
		}
	}
	return 0
}

// mateIn returns the plies to the end of a line that ends the game with
// a win (positive) or a loss (negative) for the side to move in g, if
// value agrees beyond MateValue; else 0.
func mateIn(g *rules.Game, line []rules.Move, value float64) int {
	if len(line) == 0 || math.Abs(value) < MateValue {
		return 0
	}
	me := g.Position().SideToMove()
	played := 0
	defer func() {
		for range played {
			g.Undo()
		}
	}()
	for _, m := range line {
		if g.Result().Over() || g.Play(m) != nil {
			return 0
		}
		played++
	}
	r := g.Result()
	if !r.Over() {
		return 0
	}
	switch v := r.ValueFor(me); {
	case v > 0 && value >= MateValue:
		return played
	case v < 0 && value <= -MateValue:
		return -played
	}
	return 0
}

// Centipawns maps a value v in [-1, 1] (for the side to move) to
// centipawns: 400*atanh(v), clamped to [-3000, 3000]; the inverse of
// v = tanh(cp/400), i.e. a win probability (1+v)/2 = 1/(1+exp(-cp/200)).
func Centipawns(v float64) int {
	if math.IsNaN(v) {
		return 0
	}
	cp := 400 * math.Atanh(max(-1, min(1, v)))
	return int(math.Round(max(-3000, min(3000, cp))))
}

// SafeMove returns the search's choice best in g unless it leaves one of
// the mover's royals attacked while another move does not: then the most
// visited of those. Chu has no rule against it (the King is simply
// taken), but XBoard, testing legality, forfeits such a move, and it is a
// blunder anyway. Variants with a check rule already forbid it.
func SafeMove(g *rules.Game, res *mcts.Result, best rules.Move) rules.Move {
	if g.Rules().Variant().CheckRule != rules.NoCheck || !exposes(g, best) {
		return best
	}
	pick, visits := best, int32(-1)
	for i, m := range res.Moves {
		if res.Visits[i] > visits && !exposes(g, m) {
			pick, visits = m, res.Visits[i]
		}
	}
	return pick
}

// exposes reports whether m leaves a royal of the mover attacked.
func exposes(g *rules.Game, m rules.Move) bool {
	pos := *g.Position()
	me := pos.SideToMove()
	pos.Make(m)
	var buf [4]rules.Square
	for _, sq := range pos.RoyalSquares(buf[:0], me) {
		if pos.Attacked(sq, me.Other()) {
			return true
		}
	}
	return false
}
