package mcts

import (
	"context"
	"math"
	"sort"

	"chuzero/rules"
)

// Gumbel root search (Danihelka et al., "Policy improvement by planning
// with Gumbel", ICLR 2022): sample k moves without replacement by
// Gumbel-top-k on the prior logits, share the simulations among them by
// sequential halving (each round keeps the better half by g + logit +
// sigma(q)), play the winner, and train on the completed-Q improved
// policy softmax(logit + sigma(completed q)). Below the root the search is
// PUCT.

type gumbelScratch struct {
	g     []float64 // Gumbel sample per root move
	logit []float64
	cands []int32
}

// sigma is the monotone transform of a value q in [-1, 1].
func (s *Search) sigma(q float64, maxVisits int32) float64 {
	return (s.cfg.GumbelCVisit + float64(maxVisits)) * s.cfg.GumbelCScale * (q + 1) / 2
}

// childQ returns the root child's value for the side to move at the root.
func childQ(n *node) float64 { return n.valueSum / float64(n.visits) }

// runGumbel runs sims playouts by sequential halving over the Gumbel-top-k
// root moves and sets res.Best to the winner.
func (s *Search) runGumbel(ctx context.Context, g *rules.Game, sims int, res *Result) error {
	root := s.t.root
	n := int(s.t.nodes[root].n)
	sc := &s.gumbel
	sc.g, sc.logit = sc.g[:0], sc.logit[:0]
	sc.cands = sc.cands[:0]
	for i, p := range s.origPrior {
		sc.g = append(sc.g, gumbelSample(s.rng))
		sc.logit = append(sc.logit, math.Log(max(float64(p), 1e-30)))
		sc.cands = append(sc.cands, int32(i))
	}
	k := min(s.cfg.GumbelK, n)
	s.gumbelScores(s.t.children(root), sc.cands) // no visits count yet: g + logit
	cands := sc.cands[:k]
	phases := int(math.Ceil(math.Log2(float64(k))))
	remaining := sims
	for len(cands) > 1 && remaining > 0 {
		per := max(1, sims/(phases*len(cands)))
		m := min(per*len(cands), remaining)
		if err := s.simulate(ctx, g, m, cands, res); err != nil {
			return err
		}
		remaining -= m
		s.gumbelScores(s.t.children(root), cands)
		cands = cands[:(len(cands)+1)/2]
	}
	if remaining > 0 {
		if err := s.simulate(ctx, g, remaining, cands[:1], res); err != nil {
			return err
		}
	}
	res.Best = s.t.children(root)[cands[0]].move
	return nil
}

func (s *Search) gumbelScores(kids []node, cands []int32) {
	sc := &s.gumbel
	var maxN int32
	for i := range kids {
		maxN = max(maxN, kids[i].visits)
	}
	score := func(i int32) float64 {
		v := sc.g[i] + sc.logit[i]
		if kids[i].visits > 0 {
			v += s.sigma(childQ(&kids[i]), maxN)
		}
		return v
	}
	sort.SliceStable(cands, func(a, b int) bool { return score(cands[a]) > score(cands[b]) })
}

// improvedPolicy returns softmax(logit + sigma(completed q)) over the root
// moves, where an unvisited move's q is the mixed value v_mix.
func (s *Search) improvedPolicy(kids []node, prior []float32) []float32 {
	var maxN, sumN int32
	var piVisited, piQ float64
	for i := range kids {
		maxN = max(maxN, kids[i].visits)
		sumN += kids[i].visits
		if kids[i].visits > 0 {
			piVisited += float64(prior[i])
			piQ += float64(prior[i]) * childQ(&kids[i])
		}
	}
	vmix := s.netValue
	if piVisited > 0 {
		vmix = (s.netValue + float64(sumN)/piVisited*piQ) / (1 + float64(sumN))
	}
	out := make([]float32, len(kids))
	z := make([]float64, len(kids))
	m := math.Inf(-1)
	for i := range kids {
		q := vmix
		if kids[i].visits > 0 {
			q = childQ(&kids[i])
		}
		z[i] = math.Log(max(float64(prior[i]), 1e-30)) + s.sigma(q, maxN)
		m = max(m, z[i])
	}
	var sum float64
	for i := range z {
		z[i] = math.Exp(z[i] - m)
		sum += z[i]
	}
	for i := range z {
		out[i] = float32(z[i] / sum)
	}
	return out
}
