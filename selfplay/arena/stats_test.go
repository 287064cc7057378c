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

func TestSPRTValidate(t *testing.T) {
	tests := []struct {
		t  SPRT
		ok bool
	}{
		{SPRT{0, 10, 0.05, 0.05}, true},
		{SPRT{-5, 0, 0.1, 0.2}, true},
		{SPRT{10, 0, 0.05, 0.05}, false},
		{SPRT{5, 5, 0.05, 0.05}, false},
		{SPRT{0, 10, 0, 0.05}, false},
		{SPRT{0, 10, 0.05, 1}, false},
		{SPRT{0, 10, 0.6, 0.5}, false},
		{SPRT{math.NaN(), 10, 0.05, 0.05}, false},
		{SPRT{0, math.Inf(1), 0.05, 0.05}, false},
		{SPRT{0, 1e6, 0.05, 0.05}, false},
	}
	for _, tt := range tests {
		if err := tt.t.Validate(); (err == nil) != tt.ok {
			t.Errorf("%+v.Validate() = %v, want ok %v", tt.t, err, tt.ok)
		}
	}
}

func TestSPRTBoundsDecide(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	lower, upper := test.Bounds()
	// ln(0.05/0.95) = -ln 19 = -2.944439.
	if !near(lower, -2.944439, 1e-6) || !near(upper, 2.944439, 1e-6) {
		t.Errorf("Bounds() = %v, %v, want ∓2.944439", lower, upper)
	}
	tests := []struct {
		llr  float64
		want Decision
		text string
	}{
		{0, Continue, "continue"},
		{2.9, Continue, "continue"},
		{-2.9, Continue, "continue"},
		{3, AcceptH1, "H1"},
		{upper, AcceptH1, "H1"},
		{-3, AcceptH0, "H0"},
		{math.NaN(), Continue, "continue"},
	}
	for _, tt := range tests {
		got := test.Decide(tt.llr)
		if got != tt.want || got.String() != tt.text {
			t.Errorf("Decide(%v) = %v, want %v (%s)", tt.llr, got, tt.want, tt.text)
		}
	}
	if got := Decision(7).String(); got != "Decision(7)" {
		t.Errorf("Decision(7).String() = %q", got)
	}
}

// normalLLR is the linear normal approximation of the GSPRT,
// n (s1 - s0) (2 p̄ - s0 - s1) / (2 v).
func normalLLR(test SPRT, s Score) float64 {
	s0, s1 := ScoreFromElo(test.Elo0), ScoreFromElo(test.Elo1)
	n := float64(s.Games())
	p := s.Points() / n
	v := (float64(s.Wins)*sq(1-p) + float64(s.Draws)*sq(0.5-p) + float64(s.Losses)*sq(p)) / n
	return n * (s1 - s0) * (2*p - s0 - s1) / (2 * v)
}

func TestLLR(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}
	s0, s1 := ScoreFromElo(test.Elo0), ScoreFromElo(test.Elo1)
	if got := test.LLR(Score{}); got != 0 {
		t.Errorf("LLR(empty) = %v, want 0", got)
	}
	if got := test.LLRPairs(Pairs{}); got != 0 {
		t.Errorf("LLRPairs(empty) = %v, want 0", got)
	}
	// One win: the most likely distributions with mean s put q_W = s on
	// wins, so the LLR is about ln(s1/s0) = 0.0559 (the 0.001 regularising
	// counts move it slightly), not a stop.
	if got, want := test.LLR(Score{Wins: 1}), math.Log(s1/s0); !near(got, want, 0.005) {
		t.Errorf("LLR(one win) = %v, want about %v", got, want)
	}
	// One draw at s0 = 1/2: q_D = 1 under H0 and 2 - 2 s1 under H1.
	if got, want := test.LLR(Score{Draws: 1}), math.Log(2-2*s1); !near(got, want, 0.005) {
		t.Errorf("LLR(one draw) = %v, want about %v", got, want)
	}
	// A streak of 10 wins is far from proof of 20 Elo: about 10 ln(s1/s0)
	// = 0.56. (The linear normal approximation, with the sample variance
	// 0, would be infinite.)
	if got := test.LLR(Score{Wins: 10}); test.Decide(got) != Continue || !near(got, 10*math.Log(s1/s0), 0.05) {
		t.Errorf("LLR(10 wins) = %v (%v), want about %v and continue", got, test.Decide(got), 10*math.Log(s1/s0))
	}
	// Near the hypotheses, with thousands of games, the normal
	// approximation is close.
	for _, s := range []Score{{3300, 4000, 2700}, {2900, 4100, 3000}, {1200, 500, 1000}} {
		got, want := test.LLR(s), normalLLR(test, s)
		if math.Abs(got-want) > 0.02*math.Abs(want)+0.01 {
			t.Errorf("LLR(%v) = %v, want about the normal approximation %v", s, got, want)
		}
	}
	// Adding wins never lowers the LLR.
	for _, draws := range []int{0, 3, 40} {
		for _, losses := range []int{0, 1, 7, 60} {
			prev := math.Inf(-1)
			for wins := range 150 {
				s := Score{wins, draws, losses}
				if s.Games() == 0 {
					continue
				}
				llr := test.LLR(s)
				if math.IsNaN(llr) || llr < prev-1e-9 {
					t.Fatalf("LLR(%v) = %v after %v with one win fewer", s, llr, prev)
				}
				prev = llr
			}
		}
	}
	// The opponent's view, with the hypotheses mirrored, negates the LLR.
	mirror := SPRT{Elo0: -test.Elo1, Elo1: -test.Elo0, Alpha: test.Alpha, Beta: test.Beta}
	for _, s := range []Score{{1, 0, 0}, {30, 20, 10}, {0, 12, 3}, {500, 1000, 480}} {
		if a, b := test.LLR(s), mirror.LLR(s.Flip()); !near(b, -a, 1e-6*(1+math.Abs(a))) {
			t.Errorf("LLR(%v) = %v but mirrored LLR(%v) = %v", s, a, s.Flip(), b)
		}
	}
	for _, p := range []Pairs{{0, 0, 0, 0, 1}, {3, 10, 20, 12, 5}, {0, 0, 9, 0, 0}} {
		if a, b := test.LLRPairs(p), mirror.LLRPairs(p.Flip()); !near(b, -a, 1e-6*(1+math.Abs(a))) {
			t.Errorf("LLRPairs(%v) = %v but mirrored LLRPairs(%v) = %v", p, a, p.Flip(), b)
		}
	}
}

// TestSecularRoot checks the constrained maximum-likelihood distribution:
// it sums to 1 and has mean s, also with the tiny regularising frequencies
// that put the root next to a pole. There x can only be as exact as a
// float64, so 1 + x b of the near-pole class, about 1e-9, keeps a relative
// error near 1e-7; the LLR weighs that class by its tiny frequency.
func TestSecularRoot(t *testing.T) {
	tests := []struct {
		a, p []float64
		s    float64
	}{
		{gameValues[:], []float64{0.3, 0.4, 0.3}, 0.53},
		{gameValues[:], []float64{1e-9, 1e-9, 1 - 2e-9}, 0.5},
		{gameValues[:], []float64{1e-9, 1 - 2e-9, 1e-9}, 0.53},
		{gameValues[:], []float64{1 - 2e-9, 1e-9, 1e-9}, 0.99},
		{pairValues[:], []float64{1e-8, 1e-8, 1e-8, 1e-8, 1 - 4e-8}, 0.2},
		{pairValues[:], []float64{0.1, 0.2, 0.4, 0.2, 0.1}, 0.5},
	}
	for _, tt := range tests {
		x := secularRoot(tt.a, tt.p, tt.s)
		sum, mean := 0.0, 0.0
		for j, a := range tt.a {
			q := tt.p[j] / (1 + x*(a-tt.s))
			if !(q >= 0) {
				t.Errorf("secularRoot(%v, %v, %v) = %v: q_%d = %v", tt.a, tt.p, tt.s, x, j, q)
			}
			sum += q
			mean += q * a
		}
		if !near(sum, 1, 1e-6) || !near(mean, tt.s, 1e-6) {
			t.Errorf("secularRoot(%v, %v, %v) = %v: q sums to %v with mean %v", tt.a, tt.p, tt.s, x, sum, mean)
		}
	}
	if x := secularRoot(gameValues[:], []float64{0.3, 0.4, 0.3}, 1); !math.IsNaN(x) {
		t.Errorf("secularRoot with s at the edge = %v, want NaN", x)
	}
}

// runSPRT plays games (in colour-swapped pairs when pairs is set) at trueElo
// until the test decides or maxGames is reached, checking the LLR after
// every game or pair.
func runSPRT(test SPRT, g game, pairs bool, rng *rand.Rand) (Decision, int) {
	const maxGames = 100000
	var s Score
	var p Pairs
	for games := 0; games < maxGames; {
		var d Decision
		if pairs {
			p = p.Record(g.play(rng), g.play(rng))
			games += 2
			d = test.Decide(test.LLRPairs(p))
		} else {
			s = s.record(g.play(rng))
			games++
			d = test.Decide(test.LLR(s))
		}
		if d != Continue {
			return d, games
		}
	}
	return Continue, maxGames
}

// TestSPRTSimulation runs a few hundred SPRTs of H0: 0 Elo against H1: 20 Elo
// at several true strengths, from fixed seeds, and checks the decisions and
// the error rates against alpha = beta = 0.05. The bounds are reached with
// an overshoot, so the observed error rates are usually below the nominal
// ones; the tolerance allows about three binomial standard deviations above.
func TestSPRTSimulation(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}
	if err := test.Validate(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		trueElo float64
		runs    int
		// maxH1, maxH0: the largest acceptable fraction of runs ending in H1 or H0.
		maxH1, maxH0 float64
	}{
		{trueElo: test.Elo0, runs: 300, maxH1: 0.09, maxH0: 1}, // false positives ≲ alpha
		{trueElo: test.Elo1, runs: 300, maxH1: 1, maxH0: 0.09}, // false negatives ≲ beta
		{trueElo: 60, runs: 100, maxH1: 1, maxH0: 0.01},        // clearly better: H1
		{trueElo: -40, runs: 100, maxH1: 0.01, maxH0: 1},       // clearly worse: H0
	}
	for _, pairs := range []bool{false, true} {
		for k, tt := range tests {
			g := newGame(tt.trueElo, 0.4)
			seq := uint64(1)
			if pairs {
				seq = 2
			}
			rng := rand.New(rand.NewPCG(uint64(k)+10, seq))
			var h0, h1, open, games int
			for range tt.runs {
				d, n := runSPRT(test, g, pairs, rng)
				games += n
				switch d {
				case AcceptH0:
					h0++
				case AcceptH1:
					h1++
				default:
					open++
				}
			}
			r0, r1 := float64(h0)/float64(tt.runs), float64(h1)/float64(tt.runs)
			t.Logf("pairs %v, true elo %v: H0 %.3f, H1 %.3f, undecided %d, mean games %.0f",
				pairs, tt.trueElo, r0, r1, open, float64(games)/float64(tt.runs))
			if open > 0 || r0 > tt.maxH0 || r1 > tt.maxH1 {
				t.Errorf("pairs %v, true elo %v: H0 rate %.3f (max %v), H1 rate %.3f (max %v), %d undecided",
					pairs, tt.trueElo, r0, tt.maxH0, r1, tt.maxH1, open)
			}
		}
	}
}

// roundRobin simulates games games between each two of the players rated
// elos, with draw rate draw, and returns the results keyed (i, j), i < j.
func roundRobin(elos []float64, games int, draw float64, rng *rand.Rand) map[[2]int]Score {
	res := map[[2]int]Score{}
	for i := range elos {
		for j := i + 1; j < len(elos); j++ {
			g := newGame(elos[i]-elos[j], draw)
			var s Score
			for range games {
				s = s.record(g.play(rng))
			}
			res[[2]int{i, j}] = s
		}
	}
	return res
}

func TestRatingsRecoversStrengths(t *testing.T) {
	elos := []float64{0, 100, 250}
	res := roundRobin(elos, 1500, 0.3, rand.New(rand.NewPCG(5, 6)))
	rs, err := Ratings(len(elos), res, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rs {
		if r.Player != i || r.Games != 3000 {
			t.Errorf("rating %d = %+v, want player %d with 3000 games", i, r, i)
		}
		if !(r.Low <= elos[i] && elos[i] <= r.High) {
			t.Errorf("player %d: true Elo %v outside [%.1f, %.1f] (estimate %.1f)", i, elos[i], r.Low, r.High, r.Elo)
		}
		if i > 0 && r.High-r.Low > 60 {
			t.Errorf("player %d: interval [%.1f, %.1f] wider than 60 Elo", i, r.Low, r.High)
		}
	}
	if r := rs[0]; r.Elo != 0 || r.Low != 0 || r.High != 0 {
		t.Errorf("anchor rating = %+v, want 0 in [0, 0]", r)
	}
	points := 0.0
	for _, r := range rs {
		points += r.Points
	}
	if points != 3*1500 {
		t.Errorf("points add up to %v, want %v", points, 3*1500)
	}

	// Anchored on the mean, the differences stay and the mean is 0.
	mean, err := Ratings(len(elos), res, -1)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for i, r := range mean {
		sum += r.Elo
		if d := r.Elo - mean[0].Elo; !near(d, rs[i].Elo, 1e-6) {
			t.Errorf("player %d: %v above player 0 with the mean anchor, %v with anchor 0", i, d, rs[i].Elo)
		}
		if !(r.High-r.Low > 0) {
			t.Errorf("player %d: empty interval [%v, %v] with the mean anchor", i, r.Low, r.High)
		}
	}
	if !near(sum, 0, 1e-6) {
		t.Errorf("ratings anchored on the mean sum to %v, want 0", sum)
	}

	// The same games keyed the other way round give the same ratings.
	flipped := map[[2]int]Score{}
	for k, s := range res {
		flipped[[2]int{k[1], k[0]}] = s.Flip()
	}
	again, err := Ratings(len(elos), flipped, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rs {
		if !near(again[i].Elo, rs[i].Elo, 1e-9) || !near(again[i].High, rs[i].High, 1e-9) {
			t.Errorf("player %d: %+v with flipped keys, %+v before", i, again[i], rs[i])
		}
	}
}

// TestRatingsCoverage repeats a smaller round robin and checks that the
// intervals hold the true differences at least about 95% of the time (they
// are conservative when there are draws).
func TestRatingsCoverage(t *testing.T) {
	elos := []float64{0, -80, 150}
	const runs = 200
	rng := rand.New(rand.NewPCG(7, 8))
	covered, total := 0, 0
	for range runs {
		rs, err := Ratings(len(elos), roundRobin(elos, 100, 0.3, rng), 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(elos); i++ {
			total++
			if rs[i].Low <= elos[i] && elos[i] <= rs[i].High {
				covered++
			}
		}
	}
	if rate := float64(covered) / float64(total); rate < 0.92 {
		t.Errorf("Ratings intervals covered the truth in %.3f of cases, want at least about 0.95", rate)
	}
}

// TestRatingsTwoPlayers compares Ratings with the head-to-head EloInterval:
// without draws the Bradley–Terry information is the binomial one, so
// estimate and width agree up to the prior's small pull.
func TestRatingsTwoPlayers(t *testing.T) {
	s := Score{Wins: 600, Losses: 400}
	rs, err := Ratings(2, map[[2]int]Score{{1, 0}: s}, 0)
	if err != nil {
		t.Fatal(err)
	}
	elo, low, high := EloInterval(s)
	r := rs[1]
	if !near(r.Elo, elo, 0.5) {
		t.Errorf("Ratings Elo = %v, want about %v", r.Elo, elo)
	}
	if w, want := r.High-r.Low, high-low; math.Abs(w-want) > 0.02*want {
		t.Errorf("Ratings interval width = %v, want about %v", w, want)
	}
}

func TestRatingsPerfectScores(t *testing.T) {
	res := map[[2]int]Score{
		{0, 1}: {Wins: 50},
		{2, 0}: {Losses: 50},
		{1, 2}: {Wins: 20, Draws: 20, Losses: 10},
	}
	// Player 3 has not played.
	rs, err := Ratings(4, res, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		for _, x := range []float64{r.Elo, r.Low, r.High} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("rating %+v is not finite", r)
			}
		}
	}
	if r := rs[0]; !(r.Elo > 200 && r.Low > rs[2].Elo) {
		t.Errorf("all-wins player rated %+v, want well above the others (%+v, %+v)", r, rs[1], rs[2])
	}
	if r := rs[3]; r.Games != 0 || !(r.High-r.Low > 500) {
		t.Errorf("player without games rated %+v, want a wide interval", r)
	}
}

func TestRatingsErrors(t *testing.T) {
	good := map[[2]int]Score{{0, 1}: {Wins: 1}}
	tests := []struct {
		name    string
		n       int
		results map[[2]int]Score
		anchor  int
	}{
		{"one player", 1, nil, 0},
		{"no players", 0, nil, -1},
		{"anchor out of range", 2, good, 2},
		{"player out of range", 3, map[[2]int]Score{{0, 3}: {Wins: 1}}, 0},
		{"negative player", 3, map[[2]int]Score{{-1, 0}: {Wins: 1}}, 0},
		{"against itself", 3, map[[2]int]Score{{1, 1}: {Wins: 1}}, 0},
		{"negative count", 3, map[[2]int]Score{{0, 1}: {Wins: -1}}, 0},
	}
	for _, tt := range tests {
		if _, err := Ratings(tt.n, tt.results, tt.anchor); err == nil {
			t.Errorf("Ratings(%s) succeeded, want an error", tt.name)
		}
	}
	if _, err := Ratings(2, good, -1); err != nil {
		t.Errorf("Ratings with the mean anchor: %v", err)
	}
}
