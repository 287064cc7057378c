package mcts

import (
	"cmp"
	"context"
	"math"
	"slices"

	"chuzero/rules"
)

// Gumbel root search (Danihelka et al., "Policy improvement by planning
// with Gumbel", ICLR 2022): sample k moves without replacement by
// Gumbel-top-k on the prior logits, share the simulations among them by
// sequential halving (each phase keeps the better half by g + logit +
// sigma(completed q), never fewer than two, as DeepMind's mctx), play the
// best remaining by that score, and train on the completed-Q improved
// policy softmax(logit + sigma(completed q)). The completed q of an
// unvisited move is v_mix, which mixes the node's own network value with
// the prior-weighted q of the visited moves. Below the root the search
// uses the deterministic rule of pickGumbel (Config.GumbelInterior) or
// PUCT.

type gumbelScratch struct {
	g     []float64 // Gumbel sample per root move
	logit []float64
	score []float64 // ranking score per root move
	cands []int32
}

// sigma is the monotone transform of a value q in [-1, 1] without
// GumbelRescaleQ, (CVisit + maxVisits) * CScale * (q + 1) / 2; maxVisits
// is the most visits of a child of the node.
func (s *Search) sigma(q float64, maxVisits int32) float64 {
	return s.qSlope(maxVisits, -1, 1) * (q + 1)
}

// rescaleEpsilon is the smallest span of q that GumbelRescaleQ stretches
// to [0, 1], as mctx's epsilon: children all of one value stay level.
const rescaleEpsilon = 1e-8

// qSlope returns the Q transform's logits per unit of q at a node whose
// children's completed q lie in [lo, hi] and whose most visited child has
// maxVisits: sigma's slope, or with GumbelRescaleQ the slope that maps
// [lo, hi] onto [0, 1] first. Every softmax over the children is shift
// invariant, so slope * q serves for sigma(q).
func (s *Search) qSlope(maxVisits int32, lo, hi float64) float64 {
	span := 2.0
	if s.cfg.GumbelRescaleQ {
		span = max(hi-lo, rescaleEpsilon)
	}
	return (s.cfg.GumbelCVisit + float64(maxVisits)) * s.cfg.GumbelCScale / span
}

// rootSlope returns qSlope for the completed q of a node's children; it
// looks for their span only with GumbelRescaleQ.
func (s *Search) rootSlope(q []float64, maxVisits int32) float64 {
	if !s.cfg.GumbelRescaleQ || len(q) == 0 {
		return s.qSlope(maxVisits, -1, 1)
	}
	return s.qSlope(maxVisits, slices.Min(q), slices.Max(q))
}

// childQ returns a visited child's value for the side to move at its
// parent: its mean, blended with its implicit minimax value by
// Config.MinimaxWeight.
func (s *Search) childQ(n *node) float64 {
	return s.blendMinimax(n.valueSum/float64(n.visits), n)
}

// mixValue returns v_mix = (v + sumN / piVisited * piQ) / (1 + sumN): v
// is the node's network value, sumN the visits of its children, piVisited
// their summed prior and piQ the sum of prior * q over the visited ones
// (v itself when none is visited).
func mixValue(v float64, sumN int32, piVisited, piQ float64) float64 {
	if piVisited <= 0 {
		return v
	}
	return (v + float64(sumN)/piVisited*piQ) / (1 + float64(sumN))
}

// completedQ writes the completed q of every child of node idx into dst
// (for the side to move at idx: the child's mean value, or v_mix if it
// has no visit) and returns it with the most visits of a child.
func (s *Search) completedQ(idx int32, dst []float64) ([]float64, int32) {
	kids := s.t.children(idx)
	var sumN, maxN int32
	var piVisited, piQ float64
	for i := range kids {
		if ch := &kids[i]; ch.visits > 0 {
			sumN += ch.visits
			maxN = max(maxN, ch.visits)
			piVisited += float64(ch.prior)
			piQ += float64(ch.prior) * s.childQ(ch)
		}
	}
	vmix := mixValue(float64(s.t.nodes.at(idx).value), sumN, piVisited, piQ)
	dst = dst[:0]
	for i := range kids {
		q := vmix
		if kids[i].visits > 0 {
			q = s.childQ(&kids[i])
		}
		dst = append(dst, q)
	}
	return dst, maxN
}

// runGumbel runs sims playouts by sequential halving over the Gumbel-top-k
// root moves and sets res.Best to the winner.
func (s *Search) runGumbel(ctx context.Context, g *rules.Game, sims int, res *Result) error {
	root := s.t.root
	sc := &s.gumbel
	sc.g, sc.logit, sc.cands = sc.g[:0], sc.logit[:0], sc.cands[:0]
	for i, p := range s.origPrior {
		sc.g = append(sc.g, gumbelSample(s.rng))
		sc.logit = append(sc.logit, math.Log(max(float64(p), 1e-30)))
		sc.cands = append(sc.cands, int32(i))
	}
	// The first ranking is by g + logit alone, whatever a reused subtree
	// holds, so that the candidates are a sample from the prior.
	sc.score = sc.score[:0]
	for i := range sc.g {
		sc.score = append(sc.score, sc.g[i]+sc.logit[i])
	}
	s.sortCandidates(sc.cands)
	k := min(s.cfg.GumbelK, len(sc.cands))
	cands := sc.cands[:k]
	phases := max(1, int(math.Ceil(math.Log2(float64(k)))))
	for remaining := sims; remaining > 0; {
		per := max(1, sims/(phases*len(cands)))
		m := min(per*len(cands), remaining)
		if err := s.simulate(ctx, g, m, cands, res); err != nil {
			return err
		}
		remaining -= m
		s.rankCandidates(cands)
		cands = cands[:max(min(2, len(cands)), (len(cands)+1)/2)]
	}
	res.Best = s.t.children(root)[cands[0]].move
	return nil
}

// rankCandidates sorts the root moves cands by g + logit + sigma(completed
// q), best first.
func (s *Search) rankCandidates(cands []int32) {
	sc := &s.gumbel
	q, maxN := s.completedQ(s.t.root, sc.score)
	a := s.rootSlope(q, maxN)
	for i := range q {
		q[i] = sc.g[i] + sc.logit[i] + a*q[i]
	}
	sc.score = q
	s.sortCandidates(cands)
}

// sortCandidates sorts cands by gumbel.score, highest first (stable).
func (s *Search) sortCandidates(cands []int32) {
	score := s.gumbel.score
	slices.SortStableFunc(cands, func(a, b int32) int { return cmp.Compare(score[b], score[a]) })
}

// improvedPolicy returns softmax(logit + sigma(completed q)) over the root
// moves; q holds the completed q of each and maxN the most visits.
func (s *Search) improvedPolicy(prior []float32, q []float64, maxN int32) []float32 {
	z := make([]float64, len(prior))
	m, a := math.Inf(-1), s.rootSlope(q, maxN)
	for i := range prior {
		z[i] = math.Log(max(float64(prior[i]), 1e-30)) + a*q[i]
		m = max(m, z[i])
	}
	var sum float64
	for i := range z {
		z[i] = math.Exp(z[i] - m)
		sum += z[i]
	}
	out := make([]float32, len(prior))
	for i := range z {
		out[i] = float32(z[i] / sum)
	}
	return out
}
