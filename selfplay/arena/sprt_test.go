package arena

import (
	"math"
	"math/rand/v2"
	"testing"
)

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
