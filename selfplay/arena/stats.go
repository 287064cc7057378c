package arena

import (
	"fmt"
	"math"
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

// sq returns x².
func sq(x float64) float64 { return x * x }
