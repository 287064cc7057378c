// Package probe measures what a run's networks have learned, on held-out
// self-play positions: how sharp the policy is and whether its first
// choice agrees with the search that trained it and with the capture
// search (mcts/qsearch), how the value head's predictions match the
// games' results, and how much of the value is the capture search's own
// material. It is the first thing to run when a run's strength looks flat
// ("chuzero probe"; scripts/learning.sh adds matches to it).
//
// The positions are the samples of the games the trainer holds out
// (model.ReplayConfig.HeldOut) at every Every-th ply, drawn uniformly over
// the run's sample files, so no network has trained on them.
package probe

import (
	"math"
	"sort"
	"time"

	"chuzero/encode"
	"chuzero/mcts"
	"chuzero/mcts/eval"
)

// Config sets which positions the probe reads and how it scores them.
type Config struct {
	Every     int    // take the positions at every Every-th ply (0, Every, 2·Every, ...)
	Positions int    // at most this many positions
	Seed      uint64 // the draw of the positions
	// HeldOut, if set, picks the games the positions come from (the
	// trainer's hold-out); nil: every game.
	HeldOut func(game uint64) bool
	// Search is the run's search settings: the probe's capture search is
	// theirs (Search.CaptureSearch, scaled by Search.QuiescenceScale).
	Search mcts.Config
	// Blunder is the material, in capture-search points ×100, a move must
	// lose against the position's best capture-search move to count as
	// dropping material.
	Blunder int32
	// Bins is the number of value-calibration bins over [-1, 1].
	Bins int
}

// DefaultConfig returns every 9th ply, 400 positions, the default
// search's capture search, a blunder of 2 points and
// 5 calibration bins.
func DefaultConfig() Config {
	return Config{Every: 9, Positions: 400, Seed: 1, Search: mcts.DefaultConfig(),
		Blunder: 200, Bins: 5}
}

// Evaluator answers a position's request: the priors of its moves and the
// win/draw/loss of the side to move (a network, as the search sees it).
type Evaluator interface {
	Evaluate(req *eval.Request) error
}

// Result is one network's probe.
type Result struct {
	Name      string
	Positions int
	// The policy: mean entropy (nats) against the mean of its maximum
	// (log of the legal moves), mean effective moves (exp entropy) and the
	// mean probability of the first move.
	Entropy, MaxEntropy, Effective, TopMass float64
	// SearchAgree is the share of full-search positions where the
	// policy's first move is the search target's; SearchN those positions.
	SearchAgree float64
	SearchN     int
	// CaptureAgree is the share of positions where the policy's first move
	// is one of the capture search's best; CaptureRank the mean rank
	// (1: first) of the capture search's best move in the policy's order;
	// Blunders the share where the first move loses cfg.Blunder or more
	// against the best; CaptureMass the policy's mean probability on
	// the capture search's best moves.
	CaptureAgree, CaptureRank, Blunders, CaptureMass float64
	// The value (win - loss): its correlation with the capture search's
	// value, with its training target (Position.Target) and with the
	// game's result, its mean square error against the result, and its
	// calibration by bins of the prediction on the positions of decisive
	// games (Decisive of them).
	CorrCapture, CorrTarget, CorrResult, MSE float64
	Bins                                     []Bin
	Decisive                                 int
	// Residual is the network's residual weight (model.Config.
	// ValueResidual, eval.Request.Residual): its value is a residual of
	// the capture value, and its target (CorrTarget) the training target
	// less Residual times the capture value. 0: a whole value.
	Residual float64
	// CorrPlayed is the correlation with the result of the value a match
	// search backs up from the network: the blend at the match weight
	// (mcts.MatchConfig().Quiescence) with the capture value, or for a
	// residual, the value plus Residual times the capture value.
	// CorrCaptureResult is the capture value's own correlation with the
	// result, the same for every network: what the network adds to.
	CorrPlayed, CorrCaptureResult float64
	// PerPosition is the evaluator's mean time a position.
	PerPosition time.Duration
}

// Bin is one calibration bin: the positions whose predicted value lies in
// [Lo, Hi), their mean prediction and their mean result.
type Bin struct {
	Lo, Hi        float64
	N             int
	Value, Result float64
}

// Measure asks ev about every position and scores its answers.
func Measure(name string, ev Evaluator, ps []Position, cfg Config) (Result, error) {
	r := Result{Name: name, Positions: len(ps), Bins: newBins(cfg.Bins)}
	var req eval.Request
	var agree, capAgree, blunders, searchN int
	var vals, caps, targets, results, played []float64
	lambda := mcts.MatchConfig().Quiescence
	start := time.Now()
	for i := range ps {
		p := &ps[i]
		fill(&req, p)
		if err := ev.Evaluate(&req); err != nil {
			return r, err
		}
		top := argmax(req.Priors)
		h := entropy(req.Priors)
		r.Entropy += h
		r.MaxEntropy += math.Log(float64(len(p.Moves)))
		r.Effective += math.Exp(h)
		r.TopMass += float64(req.Priors[top])
		if t, ok := searchTop(p.Sample); ok {
			searchN++
			if p.Index[top] == t {
				agree++
			}
		}
		best := p.Best()
		if p.Capture[top] == best {
			capAgree++
		}
		if int64(best)-int64(p.Capture[top]) >= int64(cfg.Blunder) {
			blunders++
		}
		r.CaptureRank += float64(rankOf(req.Priors, p.Capture, best))
		for j, c := range p.Capture {
			if c == best {
				r.CaptureMass += float64(req.Priors[j])
			}
		}
		v := float64(req.WDL[0] - req.WDL[2])
		vals, caps, results = append(vals, v), append(caps, p.Value), append(results, p.Result)
		target, pv := p.Target, mcts.Blend(v, p.Value, lambda)
		if r.Residual = float64(req.Residual); r.Residual > 0 {
			target, pv = max(-1, min(1, target-r.Residual*p.Value)), mcts.Residual(v, p.Value, r.Residual)
		}
		targets, played = append(targets, target), append(played, pv)
		r.MSE += (v - p.Result) * (v - p.Result)
		if p.Result != 0 {
			r.Decisive++
			addBin(r.Bins, v, p.Result)
		}
	}
	if n := float64(len(ps)); n > 0 {
		r.PerPosition = time.Since(start) / time.Duration(len(ps))
		r.Entropy, r.MaxEntropy, r.Effective, r.TopMass = r.Entropy/n, r.MaxEntropy/n, r.Effective/n, r.TopMass/n
		r.CaptureAgree, r.Blunders = float64(capAgree)/n, float64(blunders)/n
		r.CaptureRank, r.CaptureMass, r.MSE = r.CaptureRank/n, r.CaptureMass/n, r.MSE/n
	}
	r.SearchN, r.SearchAgree = searchN, ratio(float64(agree), float64(searchN))
	r.CorrCapture, r.CorrTarget, r.CorrResult = pearson(vals, caps), pearson(vals, targets), pearson(vals, results)
	r.CorrPlayed, r.CorrCaptureResult = pearson(played, results), pearson(caps, results)
	for i := range r.Bins {
		b := &r.Bins[i]
		b.Value, b.Result = ratio(b.Value, float64(b.N)), ratio(b.Result, float64(b.N))
	}
	return r, nil
}

// fill makes req the request of position p.
func fill(req *eval.Request, p *Position) {
	req.Pos = p.Pos
	hist := p.History[max(0, len(p.History)-encode.MaxHistory):]
	req.NHistory = copy(req.History[:], hist)
	req.Repetitions = int(p.Sample.Repetitions)
	req.Moves = append(req.Moves[:0], p.Moves...)
	if cap(req.Priors) < len(p.Moves) {
		req.Priors = make([]float32, len(p.Moves))
	}
	req.Priors = req.Priors[:len(p.Moves)]
	req.WDL, req.Material, req.Residual = [3]float32{}, 0, 0
}

// searchTop returns the policy index the sample's search target puts
// first, if the sample had a full search.
func searchTop(s *encode.Sample) (int32, bool) {
	if !s.FullSearch || len(s.Policy) == 0 {
		return 0, false
	}
	best := 0
	for i, e := range s.Policy {
		if e.Prob > s.Policy[best].Prob {
			best = i
		}
	}
	return int32(s.Policy[best].Index), true
}

// rankOf returns the 1-based rank, in the priors' order (ties broken by
// move order), of the first move whose capture score is best.
func rankOf(priors []float32, capture []int32, best int32) int {
	order := make([]int, len(priors))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return priors[order[a]] > priors[order[b]] })
	for r, i := range order {
		if capture[i] == best {
			return r + 1
		}
	}
	return len(order)
}

func argmax(p []float32) int {
	best := 0
	for i, x := range p {
		if x > p[best] {
			best = i
		}
	}
	return best
}

func entropy(p []float32) float64 {
	var h float64
	for _, x := range p {
		if x > 0 {
			h -= float64(x) * math.Log(float64(x))
		}
	}
	return h
}

// pearson is the correlation of x and y (0 when either is constant).
func pearson(x, y []float64) float64 {
	n := float64(len(x))
	if n < 2 {
		return 0
	}
	var sx, sy, sxx, syy, sxy float64
	for i := range x {
		sx, sy = sx+x[i], sy+y[i]
		sxx, syy, sxy = sxx+x[i]*x[i], syy+y[i]*y[i], sxy+x[i]*y[i]
	}
	vx, vy := sxx-sx*sx/n, syy-sy*sy/n
	if vx <= 1e-12 || vy <= 1e-12 {
		return 0
	}
	return (sxy - sx*sy/n) / math.Sqrt(vx*vy)
}

func newBins(n int) []Bin {
	n = max(n, 1)
	bins := make([]Bin, n)
	for i := range bins {
		bins[i].Lo, bins[i].Hi = -1+2*float64(i)/float64(n), -1+2*float64(i+1)/float64(n)
	}
	return bins
}

func addBin(bins []Bin, v, result float64) {
	i := int((v + 1) / 2 * float64(len(bins)))
	i = min(max(i, 0), len(bins)-1)
	bins[i].N++
	bins[i].Value += v
	bins[i].Result += result
}
