package selfplay

import (
	"slices"

	"chuzero/mcts"
	"chuzero/rules"
)

// ResignObservation is one side of one game without resignation, for the
// threshold calibration.
type ResignObservation struct {
	// Low is the lowest value v such that the side's chosen-move values
	// stayed at or below v for ResignConsecutive of its searches in a row
	// (1 when it searched fewer times): under any threshold above Low the
	// side would have resigned.
	Low float64
	// Lost: the side lost the game. A resignation it would have made
	// otherwise (a win, a draw, a truncated game) is a false positive.
	Lost bool
}

// CalibrateResign returns the highest threshold t, at most ceiling, under
// which the would-be resignations among obs (the observations with Low <
// t) were false positives less than target of the time; no would-be
// resignation at all counts as a rate of 0. The rate only changes at the
// observations' Low values, so those and the ceiling are the candidates.
func CalibrateResign(obs []ResignObservation, target, ceiling float64) float64 {
	sorted := slices.Clone(obs)
	slices.SortFunc(sorted, func(a, b ResignObservation) int {
		switch {
		case a.Low < b.Low:
			return -1
		case a.Low > b.Low:
			return 1
		}
		return 0
	})
	best := -1.0
	if len(sorted) > 0 {
		best = min(sorted[0].Low, ceiling) // nobody below: rate 0
	}
	resigned, falses := 0, 0
	for i := 0; i <= len(sorted); i++ {
		t := ceiling
		if i < len(sorted) {
			t = sorted[i].Low
		}
		if t > ceiling {
			t = ceiling
		}
		// the observations strictly below t are the would-be resignations
		for resigned < len(sorted) && sorted[resigned].Low < t {
			if !sorted[resigned].Lost {
				falses++
			}
			resigned++
		}
		if resigned == 0 || float64(falses) < target*float64(resigned) {
			best = max(best, t)
		}
		if t == ceiling {
			break
		}
	}
	return best
}

// resignTracker follows both sides' chosen-move values during a game.
type resignTracker struct {
	n      int
	recent [2][]float64 // each side's last n values, oldest first
	low    [2]float64   // see ResignObservation.Low
}

func newResignTracker(n int) *resignTracker {
	return &resignTracker{n: n, low: [2]float64{1, 1}}
}

// add records side's value q and returns the highest of its last n
// values (1 until it has n): the side resigns when that is below the
// threshold.
func (t *resignTracker) add(side rules.Color, q float64) float64 {
	r := append(t.recent[side], q)
	if len(r) > t.n {
		r = r[1:]
	}
	t.recent[side] = r
	if len(r) < t.n {
		return 1
	}
	high := slices.Max(r)
	t.low[side] = min(t.low[side], high)
	return high
}

// observations returns both sides' observations of a finished game.
func (t *resignTracker) observations(res rules.Result) [2]ResignObservation {
	var out [2]ResignObservation
	for _, c := range []rules.Color{rules.Sente, rules.Gote} {
		w, ok := res.Winner()
		out[c] = ResignObservation{Low: t.low[c], Lost: ok && w != c}
	}
	return out
}

// resignCalibrator keeps the observations of the last games without
// resignation; guarded by the Runner's mutex.
type resignCalibrator struct {
	window, minGames int
	target, ceiling  float64
	games            [][2]ResignObservation // oldest first, at most window
}

// add records a no-resign game and returns the threshold to use from now
// on; ok is false until minGames games were seen.
func (c *resignCalibrator) add(g [2]ResignObservation) (threshold float64, ok bool) {
	c.games = append(c.games, g)
	if len(c.games) > c.window {
		c.games = c.games[len(c.games)-c.window:]
	}
	if len(c.games) < c.minGames {
		return 0, false
	}
	obs := make([]ResignObservation, 0, 2*len(c.games))
	for _, g := range c.games {
		obs = append(obs, g[0], g[1])
	}
	return CalibrateResign(obs, c.target, c.ceiling), true
}

// ResignCalibrator calibrates a threshold from the records of games
// without resignation (Record.ResignLow), as a Runner does from its own:
// for a trainer that sees the games of every worker of a run.
type ResignCalibrator struct{ c resignCalibrator }

// NewResignCalibrator returns a calibrator with cfg's window, minimum,
// target and ceiling.
func NewResignCalibrator(cfg Config) *ResignCalibrator {
	return &ResignCalibrator{resignCalibrator{window: cfg.ResignCalibrationGames, minGames: cfg.ResignMinGames,
		target: cfg.ResignTargetFalsePositive, ceiling: cfg.ResignCeiling}}
}

// Add records a game and returns the threshold to use from now on; ok is
// false for a game with resignation allowed (ResignLow unset) and until
// the minimum of games without resignation.
func (c *ResignCalibrator) Add(rec *Record) (threshold float64, ok bool) {
	if rec.ResignLow == nil {
		return 0, false
	}
	var g [2]ResignObservation
	for i, side := range []string{"sente", "gote"} {
		g[i] = ResignObservation{Low: float64(rec.ResignLow[i]), Lost: rec.Winner != "" && rec.Winner != side}
	}
	return c.c.add(g)
}

// Window returns the most games it looks back over.
func (c *ResignCalibrator) Window() int { return c.c.window }

// valueOf is the search's value (completed Q) of the chosen move m, for
// the side to move; the root value if m is somehow not a root move.
func valueOf(res *mcts.Result, m rules.Move) float64 {
	if q, ok := res.ValueOf(m); ok {
		return q
	}
	return res.RootValue
}
