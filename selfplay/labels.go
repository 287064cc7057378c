package selfplay

import (
	"math"

	"chuzero/encode"
	"chuzero/rules"
)

// trace is what a game keeps for its samples' labels: per search, the side
// to move, its root value and its full-search policy; per position, Sente's
// material. The labels are computed once the game is over (finish).
type trace struct {
	r       *rules.Rules
	values  []float64 // piece values (rules.PieceValues)
	army    float64   // one side's starting material without royals: the material scale
	plies   []plyTrace
	balance []float64 // Sente's material balance of positions 0, 1, ... (index = game ply)
}

// plyTrace is one search of a game.
type plyTrace struct {
	side   rules.Color
	value  float32              // root value, for side
	policy []encode.PolicyEntry // full-search policy target (nil for a cheap search)
	sample int                  // index of the position's sample, -1 if none was written
}

func newTrace(r *rules.Rules) *trace {
	return &trace{r: r, values: r.PieceValues(), army: r.Army()}
}

// position records the material of the game's current position; call it
// for every position, the start and the final one included.
func (t *trace) position(p *rules.Position) {
	t.balance = append(t.balance, p.Balance(t.values, rules.Sente))
}

// gameEnd is how a game ended, for the labels.
type gameEnd struct {
	result    rules.Result
	truncated bool    // stopped by the self-play cap: result is ongoing
	endValue  float64 // truncated: the value target (cappedValue), for endSide
	endSide   rules.Color
	final     *rules.Position // the last position of the game (a capped game's: at the cap)
	playout   *Playout        // a capped game's playout (Config.CappedPlayout); finished: result is its
}

// valueFor returns the game's value for c: its result, or for a truncated
// game the final search's estimate.
func (e *gameEnd) valueFor(c rules.Color) float64 {
	if e.truncated {
		return signFor(e.endSide, c) * e.endValue
	}
	return e.result.ValueFor(c)
}

// signFor is +1 when a value for side a is also for b, else -1.
func signFor(a, b rules.Color) float64 {
	if a == b {
		return 1
	}
	return -1
}

// finish fills the value and auxiliary targets of the game's samples.
func (t *trace) finish(samples []encode.Sample, end *gameEnd) {
	owner := ownership(t.r, end.final)
	last := len(t.balance) - 1
	for i, pl := range t.plies {
		if pl.sample < 0 {
			continue
		}
		s := &samples[pl.sample]
		c := pl.side
		sign := signFor(rules.Sente, c)
		s.Outcome = encode.OutcomeFor(end.result, c)
		if end.truncated {
			s.Truncated, s.Outcome = true, encode.Draw
			s.EndValue = float32(end.valueFor(c))
		}
		a := &encode.AuxTargets{
			MaterialEnd:   t.material(sign * t.balance[last]),
			MaterialAhead: t.material(sign * t.balance[min(i+encode.AuxAheadPlies, last)]),
			Ownership:     make([]int8, len(owner)),
		}
		if i+1 < len(t.plies) {
			a.ReplyPolicy = t.plies[i+1].policy
		}
		for k, o := range owner {
			a.Ownership[k] = o * int8(sign)
		}
		for h, horizon := range encode.ShortValueHorizons {
			a.ShortValue[h] = float32(t.shortValue(i, horizon, end.valueFor(c)))
		}
		s.Aux = a
	}
}

// cappedValue is a truncated game's value for side, from the final
// search's value for it: that value, blended by CappedMaterialWeight with
// the material at the cap, resolved by the capture search
// (CappedQuiescence: a piece hanging at the cap counts for the side that
// takes it, a mate in the exchanges as the result) or the static count.
func (gm *game) cappedValue(side rules.Color, search float64) float64 {
	w := gm.cfg.CappedMaterialWeight
	if w <= 0 {
		return search
	}
	k := gm.cfg.CappedMaterialScale
	if gm.cfg.CappedQuiescence {
		v := gm.cfg.Search.CaptureSearch(gm.g.Rules()).Scaled(gm.g, k) // for the final position's side to move
		return (1-w)*search + w*signFor(gm.g.Position().SideToMove(), side)*v
	}
	t := gm.tr
	m := signFor(rules.Sente, side) * t.balance[len(t.balance)-1] / t.army
	return (1-w)*search + w*math.Tanh(k*m)
}

// material scales a balance to [-1, 1].
func (t *trace) material(balance float64) float32 {
	return float32(max(-1, min(1, balance/t.army)))
}

// shortValue is the average, with weights (1-1/h)^k normalised to sum 1,
// of the root values k = 0, 1, ... plies after ply i from ply i's side's
// point of view, z (the game's value for that side) standing for every
// ply past the last search. The weights of the plies past the end sum to
// (1-1/h)^m of the total, m the searches left from ply i.
func (t *trace) shortValue(i, h int, z float64) float64 {
	decay := 1 - 1/float64(h)
	c := t.plies[i].side
	var sum float64
	w := 1.0
	for k := 0; i+k < len(t.plies); k++ {
		pl := t.plies[i+k]
		sum += w * signFor(pl.side, c) * float64(pl.value)
		w *= decay
	}
	v := sum/float64(h) + math.Pow(decay, float64(len(t.plies)-i))*z
	return max(-1, min(1, v))
}

// ownership returns, per dense square, +1 for a Sente piece, -1 for Gote,
// 0 for an empty square.
func ownership(r *rules.Rules, p *rules.Position) []int8 {
	own := make([]int8, r.NumSquares())
	for _, sq := range r.Squares() {
		switch pc := p.At(sq); {
		case !pc.IsPiece():
		case pc.Color() == rules.Sente:
			own[r.Index(sq)] = 1
		default:
			own[r.Index(sq)] = -1
		}
	}
	return own
}
