package mcts

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"chuzero/mcts/eval"
	"chuzero/rules"
)

// child is a hand-built child of a node: prior, visits, paths in flight
// and mean value q (for the side to move at the parent).
type child struct {
	prior           float32
	visits, flights int32
	q               float64
}

// handTree returns a search whose node 1 (below the root 0) has the given
// network value, visits, mean value parentQ and children (nodes 2...).
func handTree(t *testing.T, cfg Config, value float32, visits int32, parentQ float64, kids []child) *Search {
	t.Helper()
	s := search(t, cfg, Uniform{}, 1)
	s.t.nodes.truncate()
	s.t.nodes.push(node{state: expanded, first: 1, n: 1, visits: visits + 1})
	s.t.nodes.push(node{state: expanded, first: 2, n: int32(len(kids)), visits: visits, valueSum: -parentQ * float64(visits), value: value})
	for _, k := range kids {
		s.t.nodes.push(node{prior: k.prior, visits: k.visits, inFlight: k.flights, valueSum: k.q * float64(k.visits)})
	}
	return s
}

// wantGumbelInterior is the rule written out: argmax pi'(a) - N(a)/(1 +
// sum N), pi' = softmax(log prior + sigma(completed q)), q min-max
// normalised first with GumbelRescaleQ.
func wantGumbelInterior(s *Search, value float64, kids []child) int {
	var sumN, sumVisits, maxN int32
	var piVisited, piQ float64
	for _, k := range kids {
		sumN += k.visits + k.flights
		if k.visits > 0 {
			sumVisits += k.visits
			maxN = max(maxN, k.visits)
			piVisited += float64(k.prior)
			piQ += float64(k.prior) * k.q
		}
	}
	vmix := value
	if sumVisits > 0 {
		vmix = (value + float64(sumVisits)/piVisited*piQ) / (1 + float64(sumVisits))
	}
	q := make([]float64, len(kids))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, k := range kids {
		q[i] = vmix
		if k.visits > 0 {
			q[i] = k.q
		}
		lo, hi = min(lo, q[i]), max(hi, q[i])
	}
	z := make([]float64, len(kids))
	var sum float64
	for i, k := range kids {
		sigma := s.sigma(q[i], maxN)
		if s.cfg.GumbelRescaleQ { // mctx: q min-max normalised to [0, 1]
			sigma = (s.cfg.GumbelCVisit + float64(maxN)) * s.cfg.GumbelCScale * (q[i] - lo) / max(hi-lo, 1e-8)
		}
		z[i] = math.Exp(math.Log(float64(k.prior)) + sigma)
		sum += z[i]
	}
	best, bestScore := 0, math.Inf(-1)
	for i, k := range kids {
		if score := z[i]/sum - float64(k.visits+k.flights)/float64(1+sumN); score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

func TestGumbelInteriorRule(t *testing.T) {
	tests := []struct {
		name  string
		value float32
		kids  []child
		want  int
	}{
		{"fresh: highest prior", 0.1, []child{{0.2, 0, 0, 0}, {0.5, 0, 0, 0}, {0.3, 0, 0, 0}}, 1},
		{"a good visited move", 0, []child{{0.3, 3, 0, 0.9}, {0.5, 1, 0, -0.8}, {0.2, 0, 0, 0}}, 0},
		{"visits spread", 0, []child{{0.6, 10, 0, 0.1}, {0.4, 0, 0, 0}}, 1},
		{"in flight counts", 0, []child{{0.5, 0, 1, 0}, {0.45, 0, 0, 0}, {0.05, 0, 0, 0}}, 1},
		{"a visited move well above v_mix", -0.9, []child{{0.1, 2, 0, 0.5}, {0.6, 0, 0, 0}, {0.3, 0, 0, 0}}, 0},
	}
	for _, tt := range tests {
		s := handTree(t, DefaultConfig(), tt.value, 1+tt.kids[0].visits, 0, tt.kids)
		want := wantGumbelInterior(s, float64(tt.value), tt.kids)
		if want != tt.want {
			t.Fatalf("%s: the written-out rule picks %d, the table says %d", tt.name, want, tt.want)
		}
		if got := int(s.pickGumbel(1) - 2); got != want {
			t.Errorf("%s: pickGumbel = child %d, want %d", tt.name, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		kids := make([]child, 2+rng.IntN(40))
		var sum float32
		for i := range kids {
			kids[i].prior = float32(math.Exp(3 * rng.Float64()))
			sum += kids[i].prior
			if rng.IntN(3) == 0 {
				kids[i].visits = int32(1 + rng.IntN(30))
				kids[i].q = 2*rng.Float64() - 1
			}
			if rng.IntN(5) == 0 {
				kids[i].flights = int32(1 + rng.IntN(3))
			}
		}
		for i := range kids {
			kids[i].prior /= sum
		}
		value := float32(2*rng.Float64() - 1)
		cfg := DefaultConfig()
		if trial%2 == 1 {
			cfg.GumbelRescaleQ, cfg.GumbelCScale = true, 0.1
		}
		s := handTree(t, cfg, value, 10, 0, kids)
		if got, want := int(s.pickGumbel(1)-2), wantGumbelInterior(s, float64(value), kids); got != want {
			t.Errorf("random node %d (rescale %v): pickGumbel = child %d, want %d", trial, cfg.GumbelRescaleQ, got, want)
		}
	}
}

// TestFPU: an unvisited child is valued at parentQ - reduction *
// sqrt(prior mass of the visited children), so a small visited mass
// costs little; the cases are chosen so that the constant reduction
// would choose otherwise.
func TestFPU(t *testing.T) {
	tests := []struct {
		name      string
		root      bool
		reduction float64
		parentQ   float64
		visits    int32
		kids      []child
		want      int
	}{
		{"little mass visited: explore", false, 0.2, 0, 2,
			[]child{{0.3, 1, 0, -0.15}, {0.15, 0, 0, 0}, {0.1, 0, 0, 0}}, 1},
		{"most mass visited: stay", false, 0.2, 0, 2,
			[]child{{0.85, 1, 0, -0.15}, {0.15, 0, 0, 0}}, 0},
		{"root, FPURoot 0.5", true, 0.5, 0.1, 2,
			[]child{{0.16, 1, 0, -0.05}, {0.14, 0, 0, 0}, {0.1, 0, 0, 0}}, 1},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		cfg.FPUReduction, cfg.FPURoot = tt.reduction, 0
		if tt.root {
			cfg.FPUReduction, cfg.FPURoot = 0, tt.reduction
		}
		s := handTree(t, cfg, 0, tt.visits, tt.parentQ, tt.kids)
		if tt.root {
			s.t.root = 1
		}
		want := func(sqrtMass bool) int {
			parentN := float64(tt.visits)
			cs := (cfg.CPuct + math.Log((1+parentN+cfg.CPuctBase)/cfg.CPuctBase)) * math.Sqrt(parentN)
			var mass float64
			for _, k := range tt.kids {
				if k.visits > 0 {
					mass += float64(k.prior)
				}
			}
			fpu := tt.parentQ - tt.reduction
			if sqrtMass {
				fpu = tt.parentQ - tt.reduction*math.Sqrt(mass)
			}
			best, bestScore := 0, math.Inf(-1)
			for i, k := range tt.kids {
				q := fpu
				if k.visits > 0 {
					q = k.q
				}
				if score := q + cs*float64(k.prior)/float64(1+k.visits); score > bestScore {
					best, bestScore = i, score
				}
			}
			return best
		}
		if w := want(true); w != tt.want || (tt.name != "most mass visited: stay" && want(false) == w) {
			t.Fatalf("%s: a case that does not tell the rules apart (sqrt %d, constant %d)", tt.name, w, want(false))
		}
		if got := int(s.pick(1) - 2); got != tt.want {
			t.Errorf("%s: pick = child %d, want %d", tt.name, got, tt.want)
		}
	}
}

// sharp is an evaluator whose prior puts 0.97 on the first move and a
// draw value everywhere: a learned prior at its narrowest.
type sharp struct{}

func (sharp) Evaluate(_ context.Context, reqs []*eval.Request) error {
	for _, r := range reqs {
		for i := range r.Priors {
			r.Priors[i] = 0.03 / float32(max(len(r.Priors)-1, 1))
		}
		r.Priors[0] = 0.97
		r.WDL = [3]float32{0, 1, 0}
	}
	return nil
}

func TestRootFullWidth(t *testing.T) {
	g := game(t, rules.Sho, "")
	legal := len(g.LegalMoves())
	for _, wide := range []bool{false, true} {
		cfg := DefaultConfig()
		cfg.ReuseTree, cfg.RootFullWidth, cfg.Quiescence = false, wide, 0
		s := search(t, cfg, sharp{}, 1)
		res, err := s.Run(context.Background(), g, Options{Simulations: legal + 10})
		if err != nil {
			t.Fatal(err)
		}
		unvisited := 0
		for _, v := range res.Visits {
			if v == 0 {
				unvisited++
			}
		}
		if wide && unvisited != 0 {
			t.Errorf("full width: %d of %d root moves unvisited after %d playouts", unvisited, legal, legal+10)
		}
		if !wide && unvisited < legal/2 {
			t.Errorf("PUCT under a sharp prior visited all but %d of %d root moves: the test tells nothing apart", unvisited, legal)
		}
		if wide && res.Visits[0] != 11 {
			t.Errorf("full width: the prior's move got %d visits, want 1 + the 10 playouts past the width", res.Visits[0])
		}
	}
}
