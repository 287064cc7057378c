package arena

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Ratings here are logistic Elo: a player rated d Elo above its opponent is
// expected to score ScoreFromElo(d) = 1 / (1 + 10^(-d/400)) points per game,
// a draw counting half a point. Internally a difference is kept in natural
// units r (the log-odds of the expected score), and Elo = r · 400 / ln 10.

// eloPerNat converts a rating difference in natural units (log-odds of the
// expected score) to Elo: 400 / ln 10 ≈ 173.72 Elo per nat.
const eloPerNat = 400 / math.Ln10

// z95 is Φ⁻¹(0.975), the standard normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// Score is a result count from one player's point of view: Wins are games
// that player won, Losses games it lost. Counts are never negative; the
// functions of this file panic on a negative count, which no tally of games
// can produce.
type Score struct {
	Wins, Draws, Losses int
}

// Games returns the number of games counted, Wins + Draws + Losses.
func (s Score) Games() int { return s.Wins + s.Draws + s.Losses }

// Points returns the player's points, Wins + Draws/2.
func (s Score) Points() float64 { return float64(s.Wins) + float64(s.Draws)/2 }

// Add returns the sum of two scores from the same player's point of view.
func (s Score) Add(o Score) Score {
	return Score{Wins: s.Wins + o.Wins, Draws: s.Draws + o.Draws, Losses: s.Losses + o.Losses}
}

// Flip returns the same games from the opponent's point of view: wins and
// losses swap.
func (s Score) Flip() Score { return Score{Wins: s.Losses, Draws: s.Draws, Losses: s.Wins} }

// String writes the score as "+W =D -L", for example "+60 =20 -20".
func (s Score) String() string { return fmt.Sprintf("+%d =%d -%d", s.Wins, s.Draws, s.Losses) }

func (s Score) check() {
	if s.Wins < 0 || s.Draws < 0 || s.Losses < 0 {
		panic(fmt.Sprintf("arena: negative count in score %v", s))
	}
}

// EloFromScore returns the logistic Elo difference at which a player's
// expected score per game is p: 400 · log10(p / (1-p)) = -400 · log10(1/p - 1).
// It is -Inf for p <= 0, +Inf for p >= 1 and NaN for NaN.
func EloFromScore(p float64) float64 {
	switch {
	case p <= 0:
		return math.Inf(-1)
	case p >= 1:
		return math.Inf(1)
	}
	return 400 * math.Log10(p/(1-p))
}

// ScoreFromElo returns the expected score per game, in [0, 1], of a player
// rated elo logistic Elo above its opponent: 1 / (1 + 10^(-elo/400)).
func ScoreFromElo(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// EloInterval returns the logistic Elo difference of the score and a 95%
// confidence interval [low, high] for it, the way cutechess-cli computes
// "Elo difference: x +/- y" (it prints y = (high-low)/2):
//
//	p   = (W + D/2) / n                            mean score per game
//	v   = (W (1-p)² + D (1/2-p)² + L p²) / n        trinomial variance of one game's score
//	se  = √(v / n)                                 standard error of p
//	elo = EloFromScore(p), low, high = EloFromScore(p ∓ 1.96 se)
//
// The interval is symmetric in score and mapped through the logistic curve,
// so it is asymmetric in Elo; for large n it equals the delta-method interval
// elo ± 1.96 · se · 400 / (ln 10 · p (1-p)).
//
// Edge cases, none of which gives NaN: with no games elo is 0 and the
// interval (-Inf, +Inf). A perfect score gives elo = +Inf (a zero score -Inf),
// which is the honest maximum-likelihood answer; use Ratings for a
// regularised, finite estimate. When every game had the same result the
// sample variance is 0 and the interval would shrink to a point, so v is then
// taken as if one extra win and one extra loss were pooled with the games
// around the same mean: v = (p² + (1-p)²) / (n + 2). An interval end whose
// score falls outside (0, 1) is ∓Inf.
func EloInterval(s Score) (elo, low, high float64) {
	s.check()
	n := s.Games()
	if n == 0 {
		return eloInterval(0, 0, 0)
	}
	p := s.Points() / float64(n)
	v := (float64(s.Wins)*sq(1-p) + float64(s.Draws)*sq(0.5-p) + float64(s.Losses)*sq(p)) / float64(n)
	return eloInterval(n, p, v)
}

// eloInterval maps the mean score p of n independent units (games or game
// pairs) with per-unit variance v to an Elo estimate and 95% interval; see
// EloInterval for the formulas and edge cases.
func eloInterval(n int, p, v float64) (elo, low, high float64) {
	if n == 0 {
		return 0, math.Inf(-1), math.Inf(1)
	}
	if v <= 0 {
		v = (sq(p) + sq(1-p)) / float64(n+2)
	}
	se := math.Sqrt(v / float64(n))
	return EloFromScore(p), EloFromScore(p - z95*se), EloFromScore(p + z95*se)
}

// LOS returns the likelihood of superiority, the probability that the player
// is the stronger of the two, from its decisive games only (as cutechess-cli
// prints it): Φ((W-L) / √(W+L)) = ½ (1 + erf((W-L) / √(2 (W+L)))).
// It is 0.5 when no game was decisive.
func LOS(s Score) float64 {
	s.check()
	decisive := s.Wins + s.Losses
	if decisive == 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf(float64(s.Wins-s.Losses)/math.Sqrt(2*float64(decisive))))
}

// Pairs counts game pairs played from the same opening with colours swapped,
// by the points one player scored in the pair (fishtest's pentanomial
// model): Pairs[k] is the number of pairs worth k/2 points to the player,
// k = 0..4, that is LL, LD+DL, LW+WL+DD, DW+WD, WW. Counts are never
// negative. Scoring pairs rather than games removes the variance the
// opening and colour add, so with balanced openings the interval is narrower
// than the trinomial one from the same games.
type Pairs [5]int

// pairValues are the pair scores of the Pairs indices as a fraction of the
// pair's 2 points: k/4.
var pairValues = [5]float64{0, 0.25, 0.5, 0.75, 1}

// gameValues are the game scores of the trinomial counts Losses, Draws, Wins.
var gameValues = [3]float64{0, 0.5, 1}

// Count returns the number of pairs.
func (p Pairs) Count() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Games returns the number of games, two per pair.
func (p Pairs) Games() int { return 2 * p.Count() }

// Points returns the player's points over all the pairs' games: Σ k/2 · p[k].
func (p Pairs) Points() float64 {
	return float64(p[1]+2*p[2]+3*p[3]+4*p[4]) / 2
}

// Add returns the sum of two pair counts from the same player's point of view.
func (p Pairs) Add(o Pairs) Pairs {
	for k := range p {
		p[k] += o[k]
	}
	return p
}

// Flip returns the same pairs from the opponent's point of view: a pair worth
// k/2 points to the player is worth 2 - k/2 to the opponent.
func (p Pairs) Flip() Pairs { return Pairs{p[4], p[3], p[2], p[1], p[0]} }

// Record returns p with one more pair in which the player scored first and
// second points (each 0, 0.5 or 1) in the pair's two games. It panics on any
// other value.
func (p Pairs) Record(first, second float64) Pairs {
	if !validGamePoints(first) || !validGamePoints(second) {
		panic(fmt.Sprintf("arena: game points %v, %v not in {0, 0.5, 1}", first, second))
	}
	p[int(2*(first+second))]++
	return p
}

func validGamePoints(x float64) bool { return x == 0 || x == 0.5 || x == 1 }

func (p Pairs) check() {
	for _, c := range p {
		if c < 0 {
			panic(fmt.Sprintf("arena: negative count in pairs %v", p))
		}
	}
}

// EloInterval returns the logistic Elo difference of the pairs with a 95%
// interval, as EloInterval does for a Score but with the variance taken over
// pairs (fishtest's pentanomial estimate):
//
//	x_k = k/4                       score of a pair of kind k, per game
//	p   = Σ x_k N_k / N             N = number of pairs
//	v   = Σ N_k (x_k - p)² / N      variance of one pair's per-game score
//	se  = √(v / N)
//	elo = EloFromScore(p), low, high = EloFromScore(p ∓ 1.96 se)
//
// The edge cases are those of EloInterval, with pairs for games (with no
// variance, v = (p² + (1-p)²) / (N + 2)).
func (p Pairs) EloInterval() (elo, low, high float64) {
	p.check()
	n := p.Count()
	if n == 0 {
		return eloInterval(0, 0, 0)
	}
	mean := float64(p[1]+2*p[2]+3*p[3]+4*p[4]) / float64(4*n)
	v := 0.0
	for k, c := range p {
		v += float64(c) * sq(pairValues[k]-mean)
	}
	return eloInterval(n, mean, v/float64(n))
}

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

// Rating is one player's rating from Ratings.
type Rating struct {
	Player    int     // index of the player, 0..n-1
	Elo       float64 // logistic Elo relative to the anchor
	Low, High float64 // 95% interval of Elo; [0, 0] for an anchor player
	Games     int     // games played, the prior's virtual games not counted
	Points    float64 // points scored in those games
}

// Ratings fits logistic (Bradley–Terry) ratings to the results of any set of
// games among n players, a round robin or not. results[[2]int{i, j}] is i's
// score against j; (i, j) and (j, i) may both be present and are added up.
// A draw counts as half a win for each side, as in ordo and BayesElo's simple
// mode. The ratings r (natural units) maximise the log-likelihood
//
//	Σ_{i,j} w_ij ln σ(r_i - r_j) + Σ_i ½ [ln σ(r_i) + ln σ(-r_i)]
//
// where w_ij are i's points against j and σ(x) = 1 / (1 + e^-x). The second
// sum is the prior: each player also has one virtual draw against a virtual
// opponent fixed at r = 0. It keeps a player with all wins or all losses (or
// no games) finite, and pins the likelihood, which only sees differences; it
// pulls every rating toward the same point, so it shrinks spreads slightly
// (by far less than the interval once players have tens of games) without
// moving the mean. Players not connected by games are compared through the
// prior only, with wide intervals.
//
// The ratings are then shifted so that player anchor is at 0 Elo, or, for
// anchor < 0, so that their mean is 0. The 95% intervals come from the
// inverse of the observed Fisher information I (the negative Hessian of the
// log-likelihood, prior included, at the maximum): with C = I⁻¹ the variance
// of e_i = r_i - r_anchor is C_ii - 2 C_i,anchor + C_anchor,anchor, and of
// e_i = r_i - mean(r) it is C_ii - 2 mean_j C_ij + mean_jk C_jk; the interval
// is e_i ± 1.96 √Var in Elo. Since a draw is scored as a half win and half
// loss, the information assumes a per-game variance of s (1-s), more than a
// drawish pairing really has, so the intervals err on the wide side.
//
// The result has one Rating per player, in player order. Ratings returns an
// error for n < 2, an anchor >= n, a key with a player out of range or a
// player against itself, or a negative count.
func Ratings(n int, results map[[2]int]Score, anchor int) ([]Rating, error) {
	if n < 2 {
		return nil, fmt.Errorf("arena: ratings need at least 2 players, got %d", n)
	}
	if anchor >= n {
		return nil, fmt.Errorf("arena: anchor %d out of range for %d players", anchor, n)
	}
	// games[i*n+j] counts games between i and j; points[i*n+j] is i's points
	// against j. Both are sums of halves, exact in float64, so the map's
	// iteration order does not change them.
	games := make([]float64, n*n)
	points := make([]float64, n*n)
	ratings := make([]Rating, n)
	for key, s := range results {
		i, j := key[0], key[1]
		if i < 0 || i >= n || j < 0 || j >= n {
			return nil, fmt.Errorf("arena: result %v for players out of range [0, %d)", key, n)
		}
		if i == j {
			return nil, fmt.Errorf("arena: result %v of player %d against itself", key, i)
		}
		if s.Wins < 0 || s.Draws < 0 || s.Losses < 0 {
			return nil, fmt.Errorf("arena: result %v has a negative count: %v", key, s)
		}
		g := float64(s.Games())
		games[i*n+j] += g
		games[j*n+i] += g
		points[i*n+j] += s.Points()
		points[j*n+i] += s.Flip().Points()
		ratings[i].Games += s.Games()
		ratings[j].Games += s.Games()
		ratings[i].Points += s.Points()
		ratings[j].Points += s.Flip().Points()
	}
	bt := bradleyTerry{n: n, games: games, points: points}
	r, info, err := bt.fit()
	if err != nil {
		return nil, err
	}
	var chol mat.Cholesky
	if !chol.Factorize(info) {
		return nil, errors.New("arena: ratings information matrix not positive definite")
	}
	var cov mat.SymDense
	if err := chol.InverseTo(&cov); err != nil {
		return nil, fmt.Errorf("arena: ratings covariance: %w", err)
	}
	// Express e = A r with A = I - 1 u^T, u the unit vector of the anchor or
	// (1/n, ..., 1/n) for the mean; Var(e_i) = C_ii - 2 (C u)_i + u^T C u.
	u := make([]float64, n)
	if anchor >= 0 {
		u[anchor] = 1
	} else {
		for i := range u {
			u[i] = 1 / float64(n)
		}
	}
	cu := make([]float64, n)
	ref, uCu := 0.0, 0.0
	for i := range n {
		ref += u[i] * r[i]
		for j := range n {
			cu[i] += cov.At(i, j) * u[j]
		}
		uCu += u[i] * cu[i]
	}
	for i := range ratings {
		sd := math.Sqrt(max(0, cov.At(i, i)-2*cu[i]+uCu))
		if i == anchor {
			sd = 0
		}
		e := r[i] - ref
		if i == anchor {
			e = 0
		}
		ratings[i].Player = i
		ratings[i].Elo = e * eloPerNat
		ratings[i].Low = (e - z95*sd) * eloPerNat
		ratings[i].High = (e + z95*sd) * eloPerNat
	}
	return ratings, nil
}

// bradleyTerry is the log-likelihood of Ratings, games and points as n×n
// row-major matrices.
type bradleyTerry struct {
	n             int
	games, points []float64
}

// logLikelihood returns the log-likelihood of ratings r (natural units),
// prior included.
func (bt bradleyTerry) logLikelihood(r []float64) float64 {
	n := bt.n
	ll := 0.0
	for i := range n {
		ll += 0.5 * (logSigmoid(r[i]) + logSigmoid(-r[i]))
		for j := range n {
			if w := bt.points[i*n+j]; w > 0 {
				ll += w * logSigmoid(r[i]-r[j])
			}
		}
	}
	return ll
}

// derivatives returns the gradient of logLikelihood at r and the observed
// information, its negative Hessian:
//
//	g_i  = Σ_j (w_ij - n_ij σ(r_i - r_j)) + ½ - σ(r_i)
//	I_ii = Σ_j n_ij σ(r_i - r_j) σ(r_j - r_i) + σ(r_i) σ(-r_i)
//	I_ij = -n_ij σ(r_i - r_j) σ(r_j - r_i)
//
// I is positive definite: diagonally dominant, with the prior's strictly
// positive term on the diagonal.
func (bt bradleyTerry) derivatives(r []float64) ([]float64, *mat.SymDense) {
	n := bt.n
	grad := make([]float64, n)
	info := mat.NewSymDense(n, nil)
	for i := range n {
		si := sigmoid(r[i])
		grad[i] = 0.5 - si
		diag := si * (1 - si)
		for j := range n {
			g := bt.games[i*n+j]
			if g == 0 {
				continue
			}
			sij := sigmoid(r[i] - r[j])
			grad[i] += bt.points[i*n+j] - g*sij
			w := g * sij * (1 - sij)
			diag += w
			if j > i {
				info.SetSym(i, j, -w)
			}
		}
		info.SetSym(i, i, diag)
	}
	return grad, info
}

// fit maximises logLikelihood by Newton's method with step halving (the
// function is strictly concave, so this converges from r = 0) and returns
// the ratings and the information matrix at the maximum.
func (bt bradleyTerry) fit() ([]float64, *mat.SymDense, error) {
	n := bt.n
	r := make([]float64, n)
	next := make([]float64, n)
	var chol mat.Cholesky
	var step mat.VecDense
	for range 100 {
		grad, info := bt.derivatives(r)
		if !chol.Factorize(info) {
			return nil, nil, errors.New("arena: ratings information matrix not positive definite")
		}
		if err := chol.SolveVecTo(&step, mat.NewVecDense(n, grad)); err != nil {
			return nil, nil, fmt.Errorf("arena: ratings newton step: %w", err)
		}
		ll := bt.logLikelihood(r)
		size := 0.0
		for t := 1.0; ; t /= 2 {
			size = 0
			for i := range n {
				next[i] = r[i] + t*step.AtVec(i)
				size = max(size, math.Abs(t*step.AtVec(i)))
			}
			if bt.logLikelihood(next) >= ll-1e-12*(1+math.Abs(ll)) || size < 1e-12 {
				break
			}
		}
		r, next = next, r
		if size < 1e-10 {
			_, info := bt.derivatives(r)
			return r, info, nil
		}
	}
	return nil, nil, errors.New("arena: ratings did not converge in 100 newton steps")
}

// sigmoid returns σ(x) = 1 / (1 + e^-x).
func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// logSigmoid returns ln σ(x) without overflow for large |x|.
func logSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

func sq(x float64) float64 { return x * x }
