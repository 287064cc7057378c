package arena

import (
	"math"
	"math/rand/v2"
	"testing"
)

// near reports whether got is within tol of want, treating equal infinities
// as near.
func near(got, want, tol float64) bool {
	if math.IsInf(want, 0) {
		return got == want
	}
	return math.Abs(got-want) <= tol
}

func TestScore(t *testing.T) {
	s := Score{Wins: 6, Draws: 3, Losses: 1}
	if got := s.Games(); got != 10 {
		t.Errorf("%v.Games() = %d, want 10", s, got)
	}
	if got := s.Points(); got != 7.5 {
		t.Errorf("%v.Points() = %v, want 7.5", s, got)
	}
	if got, want := s.Flip(), (Score{Wins: 1, Draws: 3, Losses: 6}); got != want {
		t.Errorf("%v.Flip() = %v, want %v", s, got, want)
	}
	if got, want := s.Add(Score{Wins: 1, Draws: 2, Losses: 3}), (Score{Wins: 7, Draws: 5, Losses: 4}); got != want {
		t.Errorf("%v.Add = %v, want %v", s, got, want)
	}
	if got, want := s.String(), "+6 =3 -1"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestEloFromScore(t *testing.T) {
	tests := []struct {
		p, elo float64
	}{
		{0.5, 0},
		{0.75, 400 * math.Log10(3)}, // 190.85: odds 3:1
		{0.25, -400 * math.Log10(3)},
		{10.0 / 11, 400},         // odds 10:1 is 400 Elo by definition
		{0.6, 70.43650362227247}, // 400 log10(1.5)
		{0, math.Inf(-1)},
		{-0.1, math.Inf(-1)},
		{1, math.Inf(1)},
	}
	for _, tt := range tests {
		if got := EloFromScore(tt.p); !near(got, tt.elo, 1e-7) {
			t.Errorf("EloFromScore(%v) = %v, want %v", tt.p, got, tt.elo)
		}
		if math.IsInf(tt.elo, 0) {
			continue
		}
		if got := ScoreFromElo(tt.elo); !near(got, tt.p, 1e-12) {
			t.Errorf("ScoreFromElo(%v) = %v, want %v", tt.elo, got, tt.p)
		}
	}
	if got := ScoreFromElo(math.Inf(1)); got != 1 {
		t.Errorf("ScoreFromElo(+Inf) = %v, want 1", got)
	}
	if got := ScoreFromElo(math.Inf(-1)); got != 0 {
		t.Errorf("ScoreFromElo(-Inf) = %v, want 0", got)
	}
}

func TestEloInterval(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		s               Score
		elo, low, high  float64
		finiteIntervals bool
	}{
		// n = 100, p = (60 + 20/2)/100 = 0.7.
		// v = 0.6·0.3² + 0.2·0.2² + 0.2·0.7² = 0.054 + 0.008 + 0.098 = 0.16,
		// se = √(0.16/100) = 0.04, 1.96 se = 0.0784,
		// elo = 400 log10(0.7/0.3) = 147.19,
		// low = 400 log10(0.6216/0.3784) = 86.23, high = 400 log10(0.7784/0.2216) = 218.25
		// (cutechess-cli: "Elo difference: 147.2 +/- 66.0").
		{Score{60, 20, 20}, 147.1907141, 86.2250152, 218.2517776, true},
		// p = 0.6, v = 0.5·0.4² + 0.2·0.1² + 0.3·0.6² = 0.19, se = √0.0019 = 0.04359,
		// elo = 400 log10(1.5) = 70.44, low = elo(0.5146) = 10.13, high = elo(0.6854) = 135.30.
		{Score{50, 20, 30}, 70.4365036, 10.1251584, 135.3006183, true},
		// 50%: 0 Elo, interval symmetric. v = 0.25·0.5² + 0.25·0.5² = 0.125,
		// se = √(0.125/100) = 0.035355, high = elo(0.569296) = 48.46.
		{Score{25, 50, 25}, 0, -48.4631179, 48.4631179, true},
		// No games: 0 and (-Inf, +Inf).
		{Score{}, 0, -inf, inf, false},
		// All wins in 10 games: elo +Inf; no sample variance, so
		// v = (1² + 0²)/12, se = √(v/10) = 0.091287, low = elo(1 - 0.178919) = 264.69.
		{Score{10, 0, 0}, inf, 264.6913262, inf, false},
		{Score{0, 0, 10}, -inf, -inf, -264.6913262, false},
		// All draws in 100 games: v = (0.25 + 0.25)/102, se = 0.0070014,
		// interval elo(0.5 ∓ 0.0137225) = ∓9.54.
		{Score{0, 100, 0}, 0, -9.5377597, 9.5377597, true},
		// One game only: the interval leaves (0, 1) on the far side.
		{Score{0, 1, 0}, 0, -inf, inf, false},
	}
	for _, tt := range tests {
		elo, low, high := EloInterval(tt.s)
		if !near(elo, tt.elo, 1e-4) || !near(low, tt.low, 1e-4) || !near(high, tt.high, 1e-4) {
			t.Errorf("EloInterval(%v) = %.7f, %.7f, %.7f, want %.7f, %.7f, %.7f",
				tt.s, elo, low, high, tt.elo, tt.low, tt.high)
		}
		if math.IsNaN(elo) || math.IsNaN(low) || math.IsNaN(high) || !(low <= elo && elo <= high) {
			t.Errorf("EloInterval(%v) = %v, %v, %v: NaN or not ordered", tt.s, elo, low, high)
		}
		// The opponent's view mirrors the interval.
		felo, flow, fhigh := EloInterval(tt.s.Flip())
		if !near(felo, -elo, 1e-9) || !near(flow, -high, 1e-9) || !near(fhigh, -low, 1e-9) {
			t.Errorf("EloInterval(%v) = %v, %v, %v, want the mirror of %v, %v, %v",
				tt.s.Flip(), felo, flow, fhigh, elo, low, high)
		}
	}
}

// TestEloIntervalDelta checks that for many games the interval approaches
// the delta-method one, elo ± 1.96 se · 400 / (ln 10 · p (1-p)).
func TestEloIntervalDelta(t *testing.T) {
	s := Score{Wins: 4000, Draws: 3000, Losses: 3000}
	n := float64(s.Games())
	p := s.Points() / n
	v := (float64(s.Wins)*sq(1-p) + float64(s.Draws)*sq(0.5-p) + float64(s.Losses)*sq(p)) / n
	half := z95 * math.Sqrt(v/n) * 400 / (math.Ln10 * p * (1 - p))
	_, low, high := EloInterval(s)
	if got := (high - low) / 2; math.Abs(got-half) > 0.001*half {
		t.Errorf("EloInterval(%v) half width %v, want delta-method %v", s, got, half)
	}
}

// game simulates games between a player rated elo above its opponent, who
// draws with probability draw and otherwise has expected score
// ScoreFromElo(elo) per game.
type game struct{ win, draw float64 }

func newGame(elo, draw float64) game {
	s := ScoreFromElo(elo)
	if s-draw/2 < 0 || 1-s-draw/2 < 0 {
		panic("draw rate too high for this elo")
	}
	return game{win: s - draw/2, draw: draw}
}

// play returns the player's points in one game: 0, 0.5 or 1.
func (g game) play(rng *rand.Rand) float64 {
	u := rng.Float64()
	switch {
	case u < g.win:
		return 1
	case u < g.win+g.draw:
		return 0.5
	}
	return 0
}

func (s Score) record(points float64) Score {
	switch points {
	case 1:
		s.Wins++
	case 0.5:
		s.Draws++
	default:
		s.Losses++
	}
	return s
}

// TestEloIntervalCoverage plays 400 matches of 200 games at 50 Elo and checks
// that the 95% interval holds the truth about 95% of the time.
func TestEloIntervalCoverage(t *testing.T) {
	const trueElo, matches = 50.0, 400
	g := newGame(trueElo, 0.3)
	rng := rand.New(rand.NewPCG(1, 2))
	covered := 0
	for range matches {
		var s Score
		for range 200 {
			s = s.record(g.play(rng))
		}
		if _, low, high := EloInterval(s); low <= trueElo && trueElo <= high {
			covered++
		}
	}
	if rate := float64(covered) / matches; rate < 0.92 || rate > 0.98 {
		t.Errorf("EloInterval covered the true Elo in %.3f of matches, want about 0.95", rate)
	}
}

func TestLOS(t *testing.T) {
	tests := []struct {
		s    Score
		want float64
	}{
		{Score{}, 0.5},
		{Score{0, 10, 0}, 0.5},
		{Score{5, 3, 5}, 0.5},
		{Score{10, 7, 0}, 0.9992172989}, // Φ(10/√10) = Φ(3.162)
		{Score{0, 7, 10}, 1 - 0.9992172989},
	}
	for _, tt := range tests {
		if got := LOS(tt.s); !near(got, tt.want, 1e-9) {
			t.Errorf("LOS(%v) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

func TestPairs(t *testing.T) {
	var p Pairs
	p = p.Record(1, 1).Record(1, 0).Record(0.5, 0.5).Record(0.5, 1).Record(0, 0.5)
	if want := (Pairs{0, 1, 2, 1, 1}); p != want {
		t.Fatalf("Record gave %v, want %v", p, want)
	}
	if got := p.Count(); got != 5 {
		t.Errorf("%v.Count() = %d, want 5", p, got)
	}
	if got := p.Games(); got != 10 {
		t.Errorf("%v.Games() = %d, want 10", p, got)
	}
	if got := p.Points(); got != 6 { // 2 + 1 + 1 + 1.5 + 0.5
		t.Errorf("%v.Points() = %v, want 6", p, got)
	}
	if got, want := p.Flip(), (Pairs{1, 1, 2, 1, 0}); got != want {
		t.Errorf("%v.Flip() = %v, want %v", p, got, want)
	}
	if got, want := p.Add(Pairs{1, 1, 1, 1, 1}), (Pairs{1, 2, 3, 2, 2}); got != want {
		t.Errorf("%v.Add = %v, want %v", p, got, want)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Record(0.25, 1) did not panic")
		}
	}()
	p.Record(0.25, 1)
}

func TestPairsEloInterval(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		p              Pairs
		elo, low, high float64
	}{
		// N = 100 pairs, per-game pair scores k/4.
		// p = (15·1 + 40·2 + 25·3 + 15·4) / 400 = 0.575,
		// v = Σ N_k (k/4 - 0.575)² / 100 = 0.069375, se = √(v/100) = 0.0263391,
		// elo = 400 log10(0.575/0.425) = 52.51, low = elo(0.52338) = 16.26,
		// high = elo(0.62662) = 89.94.
		{Pairs{5, 15, 40, 25, 15}, 52.5115659, 16.2553294, 89.9440682},
		{Pairs{}, 0, -inf, inf},
		// All pairs WW: as all wins for a Score, with 10 pairs for 10 games.
		{Pairs{0, 0, 0, 0, 10}, inf, 264.6913262, inf},
	}
	for _, tt := range tests {
		elo, low, high := tt.p.EloInterval()
		if !near(elo, tt.elo, 1e-4) || !near(low, tt.low, 1e-4) || !near(high, tt.high, 1e-4) {
			t.Errorf("%v.EloInterval() = %.7f, %.7f, %.7f, want %.7f, %.7f, %.7f",
				tt.p, elo, low, high, tt.elo, tt.low, tt.high)
		}
		felo, flow, fhigh := tt.p.Flip().EloInterval()
		if !near(felo, -elo, 1e-9) || !near(flow, -high, 1e-9) || !near(fhigh, -low, 1e-9) {
			t.Errorf("%v.EloInterval() = %v, %v, %v, want the mirror of %v, %v, %v",
				tt.p.Flip(), felo, flow, fhigh, elo, low, high)
		}
	}
}

// TestPentanomialMatchesTrinomial plays independent games in pairs: the pair
// statistics must then agree with the game statistics up to noise.
func TestPentanomialMatchesTrinomial(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	for _, trueElo := range []float64{-20, 5, 30} {
		g := newGame(trueElo, 0.4)
		rng := rand.New(rand.NewPCG(3, uint64(trueElo+100)))
		var s Score
		var p Pairs
		for range 10000 {
			a, b := g.play(rng), g.play(rng)
			s = s.record(a).record(b)
			p = p.Record(a, b)
		}
		if s.Points() != p.Points() || s.Games() != p.Games() {
			t.Fatalf("pairs %v and games %v count different games", p, s)
		}
		elo, low, high := EloInterval(s)
		pelo, plow, phigh := p.EloInterval()
		if !near(pelo, elo, 1e-9) {
			t.Errorf("elo %v: pentanomial %v, trinomial %v, want equal", trueElo, pelo, elo)
		}
		if ratio := (phigh - plow) / (high - low); ratio < 0.95 || ratio > 1.05 {
			t.Errorf("elo %v: pentanomial width %v, trinomial %v, want about equal", trueElo, phigh-plow, high-low)
		}
		llr, pllr := test.LLR(s), test.LLRPairs(p)
		if math.Abs(pllr-llr) > 0.05*math.Abs(llr)+0.5 {
			t.Errorf("elo %v: LLRPairs = %v, LLR = %v, want about equal", trueElo, pllr, llr)
		}
	}
}

// TestFormatEloAndFinite: the one formatter and the one JSON clamp of Elo
// figures agree on what is infinite.
func TestFormatEloAndFinite(t *testing.T) {
	for _, tc := range []struct {
		x      float64
		text   string
		stored float64
	}{
		{35.4, "+35", 35.4}, {-120, "-120", -120}, {0, "+0", 0},
		{math.Inf(1), "+inf", 1e9}, {math.Inf(-1), "-inf", -1e9}, {1e9, "+inf", 1e9}, {-5e9, "-inf", -1e9},
		{math.NaN(), "?", 0},
	} {
		if got := FormatElo(tc.x); got != tc.text {
			t.Errorf("FormatElo(%v) = %q, want %q", tc.x, got, tc.text)
		}
		if got := Finite(tc.x); got != tc.stored {
			t.Errorf("Finite(%v) = %v, want %v", tc.x, got, tc.stored)
		}
		if got := FormatElo(Finite(tc.x)); !math.IsNaN(tc.x) && got != tc.text {
			t.Errorf("FormatElo(Finite(%v)) = %q, want %q", tc.x, got, tc.text)
		}
	}
}
