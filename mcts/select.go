package mcts

import (
	"math"

	"chuzero/rules"
)

// Selection: the walk from the root to a leaf, and the two rules that pick
// a child on the way: PUCT, and Gumbel's deterministic interior rule.

// interiorScratch holds the per-node work of pickGumbel, reused so that
// a simulation allocates nothing.
type interiorScratch struct {
	visited []int32   // children with visits, by index among the children
	weight  []float64 // prior * exp(sigma(q) - top) of each visited child
}

// selectPath walks from the root to a leaf, playing the moves on g and
// adding virtual loss along the way; the path is stored in s.paths[slot].
// forced >= 0 is the root child to take (Gumbel's sequential halving).
func (s *Search) selectPath(g *rules.Game, forced int32, slot int) []int32 {
	path := append(s.paths[slot][:0], s.t.root)
	idx := s.t.root
	for {
		n := s.t.nodes.at(idx)
		n.inFlight++
		if n.state != expanded {
			break
		}
		var next int32
		switch {
		case idx == s.t.root && forced >= 0:
			next = n.first + forced
		case s.gumbelInterior && idx != s.t.root:
			next = s.pickGumbel(idx)
		default:
			next = s.pick(idx)
		}
		g.Push(s.t.nodes.at(next).move)
		path = append(path, next)
		idx = next
	}
	s.paths[slot] = path
	return path
}

// pick returns the child of idx with the highest PUCT score,
// q + c(N) * P * sqrt(N) / (1 + n), where a child with no visit and none
// in flight is valued at the first-play urgency
// parentQ - reduction * sqrt(prior mass of the visited children).
// The fresh children share that value, so only the one with the highest
// prior is scored. With RootFullWidth, the root takes its highest-prior
// untouched child while it has one.
func (s *Search) pick(idx int32) int32 {
	n := s.t.nodes.at(idx)
	parentN := float64(n.visits + n.inFlight)
	c := s.cfg.CPuct + math.Log((1+parentN+s.cfg.CPuctBase)/s.cfg.CPuctBase)
	cs := c * math.Sqrt(max(parentN, 1))
	vl := s.cfg.VirtualLoss
	best, bestScore := int32(0), math.Inf(-1)
	fresh, freshPrior := int32(-1), float32(-1) // the highest-prior untouched child
	var visitedPrior float64
	kids := s.t.nodes.span(n.first, n.n)
	for i := range kids {
		ch := &kids[i]
		if ch.visits > 0 {
			visitedPrior += float64(ch.prior)
		}
		visits := ch.visits + ch.inFlight
		if visits == 0 {
			if ch.prior > freshPrior {
				fresh, freshPrior = int32(i), ch.prior
			}
			continue
		}
		score := s.blendMinimax(ch.q(vl), ch) + cs*float64(ch.prior)/float64(1+visits)
		if score > bestScore {
			best, bestScore = int32(i), score
		}
	}
	if fresh >= 0 && idx == s.t.root && s.cfg.RootFullWidth {
		return n.first + fresh // every root move before any a second time
	}
	if fresh >= 0 {
		reduction := s.cfg.FPUReduction
		if idx == s.t.root {
			reduction = s.cfg.FPURoot
		}
		parentQ := 0.0
		if n.visits > 0 {
			parentQ = -n.valueSum / float64(n.visits)
		}
		score := parentQ - reduction*math.Sqrt(visitedPrior) + cs*float64(freshPrior)
		if score > bestScore || (score == bestScore && fresh < best) {
			best = fresh
		}
	}
	return n.first + best
}

// pickGumbel returns the child of idx chosen by the deterministic rule of
// Gumbel MuZero below the root: argmax pi'(a) - N(a) / (1 + sum_b N(b)),
// where pi' = softmax(logit + sigma(completed q)) over the children of
// idx (an unvisited child's q is the node's v_mix) and N counts visits
// and paths in flight. It computes pi'(a) as prior(a) * exp(sigma(q(a)) -
// top) / Z: the unvisited children share one factor, so only the visited
// ones need an exponential.
func (s *Search) pickGumbel(idx int32) int32 {
	n := s.t.nodes.at(idx)
	kids := s.t.nodes.span(n.first, n.n)
	sc := &s.interior
	sc.visited = sc.visited[:0]
	var sumN, sumVisits, maxN int32
	var priorSum, piVisited, piQ float64
	maxQ, minQ := math.Inf(-1), math.Inf(1)
	for i := range kids {
		ch := &kids[i]
		sumN += ch.visits + ch.inFlight
		p := float64(ch.prior)
		priorSum += p
		if ch.visits > 0 {
			q := s.childQ(ch)
			sc.visited = append(sc.visited, int32(i))
			sumVisits += ch.visits
			maxN = max(maxN, ch.visits)
			piVisited += p
			piQ += p * q
			maxQ, minQ = max(maxQ, q), min(minQ, q)
		}
	}
	vmix := mixValue(float64(n.value), sumVisits, piVisited, piQ)
	top, low := maxQ, minQ
	if len(sc.visited) < len(kids) {
		top, low = max(top, vmix), min(low, vmix)
	}
	scale := s.qSlope(maxN, low, top) // sigma(q) = scale * q + a constant
	sc.weight = sc.weight[:0]
	z := 0.0
	for _, i := range sc.visited {
		w := float64(kids[i].prior) * math.Exp(scale*(s.childQ(&kids[i])-top))
		sc.weight = append(sc.weight, w)
		z += w
	}
	fresh := math.Exp(scale * (vmix - top)) // the factor of every unvisited child
	z += fresh * (priorSum - piVisited)
	invZ, invN := 0.0, 1/float64(1+sumN)
	if z > 0 {
		invZ = 1 / z
	}
	best, bestScore := int32(0), math.Inf(-1)
	for i := range kids {
		ch := &kids[i]
		if ch.visits > 0 {
			continue
		}
		score := float64(ch.prior)*fresh*invZ - float64(ch.inFlight)*invN
		if score > bestScore {
			best, bestScore = int32(i), score
		}
	}
	for k, i := range sc.visited {
		ch := &kids[i]
		score := sc.weight[k]*invZ - float64(ch.visits+ch.inFlight)*invN
		if score > bestScore || (score == bestScore && i < best) {
			best, bestScore = i, score
		}
	}
	return n.first + best
}
