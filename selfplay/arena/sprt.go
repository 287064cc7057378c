package arena

import (
	"fmt"
	"math"
)

// SPRT is a sequential probability ratio test of H0: elo = Elo0 against
// H1: elo = Elo1 (logistic Elo of the candidate against its opponent), with
// error rates Alpha (accepting H1 when H0 holds) and Beta (accepting H0 when
// H1 holds). Play games, compute LLR after each game or batch, and Decide.
type SPRT struct {
	Elo0  float64 `json:"elo0"` // hypotheses in logistic Elo, Elo0 < Elo1
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"` // error rates, each in (0, 1), Alpha + Beta < 1
	Beta  float64 `json:"beta"`
}

// Validate reports whether the test is well formed.
func (t SPRT) Validate() error {
	for _, e := range []float64{t.Elo0, t.Elo1} {
		if s := ScoreFromElo(e); !(s > 0 && s < 1) {
			return fmt.Errorf("arena: sprt elo %v: expected score %v not inside (0, 1)", e, s)
		}
	}
	if !(t.Elo0 < t.Elo1) {
		return fmt.Errorf("arena: sprt needs elo0 < elo1, got %v and %v", t.Elo0, t.Elo1)
	}
	if !(t.Alpha > 0 && t.Alpha < 1) || !(t.Beta > 0 && t.Beta < 1) {
		return fmt.Errorf("arena: sprt error rates alpha %v, beta %v not inside (0, 1)", t.Alpha, t.Beta)
	}
	if !(t.Alpha+t.Beta < 1) {
		return fmt.Errorf("arena: sprt needs alpha + beta < 1, got %v", t.Alpha+t.Beta)
	}
	return nil
}

// Bounds returns Wald's stopping bounds on the log-likelihood ratio:
// lower = ln(β / (1-α)) and upper = ln((1-β) / α); ±2.944 for α = β = 0.05.
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR returns the generalized log-likelihood ratio of H1 against H0 for the
// candidate's score, as fishtest's LLR_logistic computes it (Michel Van den
// Bergh's GSPRT). With s_i = ScoreFromElo(Elo_i) and the observed
// frequencies p_j of the game scores a_j ∈ {0, 1/2, 1}, the most likely
// result distribution with mean s is q_j = p_j / (1 + x (a_j - s)), x the root
// of Σ p_j (a_j - s) / (1 + x (a_j - s)) = 0, and
//
//	LLR = n Σ p_j ln(q1_j / q0_j).
//
// For large n this is the normal approximation
// LLR ≈ n (s1 - s0) (2 p̄ - s0 - s1) / (2 v) of the same paper, p̄ the mean
// and v the variance of one game's score; unlike that approximation it stays
// sane on short streaks (a lone win adds ln(s1/s0), not a huge jump from a
// near-zero variance). As in fishtest, empty result classes count 0.001
// games so the root exists. An empty score gives 0. The test must be valid.
func (t SPRT) LLR(s Score) float64 {
	s.check()
	if s.Games() == 0 {
		return 0
	}
	counts := [3]int{s.Losses, s.Draws, s.Wins}
	return t.llr(counts[:], gameValues[:])
}

// LLRPairs returns the generalized log-likelihood ratio of H1 against H0 for
// game pairs, as LLR does for games but with the five pair scores
// a_k = k/4 (per game) and n the number of pairs (fishtest's pentanomial
// LLR). An empty count gives 0. The test must be valid.
func (t SPRT) LLRPairs(p Pairs) float64 {
	p.check()
	if p.Count() == 0 {
		return 0
	}
	return t.llr(p[:], pairValues[:])
}

// regularization is the count given to empty result classes in the LLR,
// fishtest's epsilon.
const regularization = 1e-3

// llr computes the GSPRT log-likelihood ratio for counts of the result
// values (ascending from 0 to 1); see LLR.
func (t SPRT) llr(counts []int, values []float64) float64 {
	var freq [5]float64
	p := freq[:len(counts)]
	n := 0.0
	for j, c := range counts {
		p[j] = max(float64(c), regularization)
		n += p[j]
	}
	for j := range p {
		p[j] /= n
	}
	s0, s1 := ScoreFromElo(t.Elo0), ScoreFromElo(t.Elo1)
	x0, x1 := secularRoot(values, p, s0), secularRoot(values, p, s1)
	sum := 0.0
	for j, a := range values {
		sum += p[j] * (math.Log1p(x0*(a-s0)) - math.Log1p(x1*(a-s1)))
	}
	return n * sum
}

// secularRoot solves f(x) = Σ p_j b_j / (1 + x b_j) = 0 with b_j = a_j - s,
// the secular equation of the maximum-likelihood distribution with mean s
// near the observed frequencies p (Van den Bergh, "support_MLE_multinomial",
// Proposition 1.1). The values a must be ascending with a_0 < s < a_last and
// every p_j > 0; then f falls from +Inf to -Inf on the open interval
// (-1/b_last, -1/b_0) where all 1 + x b_j > 0, and the root is unique. It
// returns NaN when s is outside (a_0, a_last). Newton steps, with bisection
// whenever a step would leave the bracket.
func secularRoot(a, p []float64, s float64) float64 {
	bLow, bHigh := a[0]-s, a[len(a)-1]-s
	if !(bLow < 0 && bHigh > 0) {
		return math.NaN()
	}
	lo, hi := -1/bHigh, -1/bLow
	x := 0.0
	for range 200 {
		f, df, stiff := 0.0, 0.0, 0.0
		for j, aj := range a {
			b := aj - s
			d := 1 + x*b
			f += p[j] * b / d
			df -= p[j] * sq(b/d)
			stiff = max(stiff, math.Abs(b)/d)
		}
		if f == 0 {
			return x
		}
		if f > 0 {
			lo = x
		} else {
			hi = x
		}
		next := x - f/df
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		// The relative error of every 1 + x b_j is |Δx| · |b_j| / (1 + x b_j).
		if next == x || math.Abs(next-x)*stiff < 1e-13 {
			return next
		}
		x = next
	}
	return x
}

// Decision is the state of an SPRT after a Decide.
type Decision int

// The decisions of an SPRT.
const (
	Continue Decision = iota // neither bound reached: play more games
	AcceptH0                 // LLR at or below the lower bound: elo = Elo0, reject the candidate
	AcceptH1                 // LLR at or above the upper bound: elo = Elo1, accept the candidate
)

// String returns "continue", "H0" or "H1".
func (d Decision) String() string {
	switch d {
	case Continue:
		return "continue"
	case AcceptH0:
		return "H0"
	case AcceptH1:
		return "H1"
	}
	return fmt.Sprintf("Decision(%d)", int(d))
}

// MarshalText writes the decision as its String ("continue", "H0", "H1").
func (d Decision) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (d *Decision) UnmarshalText(b []byte) error {
	for _, c := range []Decision{Continue, AcceptH0, AcceptH1} {
		if c.String() == string(b) {
			*d = c
			return nil
		}
	}
	return fmt.Errorf("arena: unknown SPRT decision %q", b)
}

// Decide compares a log-likelihood ratio with the test's Bounds: AcceptH1 at
// or above the upper bound, AcceptH0 at or below the lower one, Continue
// between them (and for NaN).
func (t SPRT) Decide(llr float64) Decision {
	lower, upper := t.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}
