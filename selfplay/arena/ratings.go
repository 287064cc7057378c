package arena

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

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
	bt, ratings, err := tally(n, results)
	if err != nil {
		return nil, err
	}
	r, info, err := bt.fit()
	if err != nil {
		return nil, err
	}
	cov, err := covariance(info)
	if err != nil {
		return nil, err
	}
	setElo(ratings, r, cov, anchor)
	return ratings, nil
}

// tally checks the results of Ratings and adds them up into the
// likelihood's games and points and each player's games and points.
func tally(n int, results map[[2]int]Score) (bradleyTerry, []Rating, error) {
	// games[i*n+j] counts games between i and j; points[i*n+j] is i's points
	// against j. Both are sums of halves, exact in float64, so the map's
	// iteration order does not change them.
	games := make([]float64, n*n)
	points := make([]float64, n*n)
	ratings := make([]Rating, n)
	for key, s := range results {
		i, j := key[0], key[1]
		if i < 0 || i >= n || j < 0 || j >= n {
			return bradleyTerry{}, nil, fmt.Errorf("arena: result %v for players out of range [0, %d)", key, n)
		}
		if i == j {
			return bradleyTerry{}, nil, fmt.Errorf("arena: result %v of player %d against itself", key, i)
		}
		if s.Wins < 0 || s.Draws < 0 || s.Losses < 0 {
			return bradleyTerry{}, nil, fmt.Errorf("arena: result %v has a negative count: %v", key, s)
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
	return bradleyTerry{n: n, games: games, points: points}, ratings, nil
}

// covariance returns C = I⁻¹, the covariance of the ratings, from the
// information matrix I at the maximum.
func covariance(info *mat.SymDense) (*mat.SymDense, error) {
	var chol mat.Cholesky
	if !chol.Factorize(info) {
		return nil, errors.New("arena: ratings information matrix not positive definite")
	}
	var cov mat.SymDense
	if err := chol.InverseTo(&cov); err != nil {
		return nil, fmt.Errorf("arena: ratings covariance: %w", err)
	}
	return &cov, nil
}

// setElo fills in each player's Elo and 95% interval from the fitted
// ratings r (natural units) and their covariance cov, relative to player
// anchor, or to the mean for anchor < 0 (see Ratings).
func setElo(ratings []Rating, r []float64, cov *mat.SymDense, anchor int) {
	n := len(ratings)
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
