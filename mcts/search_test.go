package mcts

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"chuzero/mcts/eval"
	"chuzero/rules"
)

func game(t testing.TB, v rules.VariantID, sfen string) *rules.Game {
	t.Helper()
	r := rules.MustNew(rules.DefaultConfig(v))
	if sfen == "" {
		return rules.NewGame(r.StartPosition())
	}
	g, err := r.NewGameFromSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func search(t testing.TB, cfg Config, e Evaluator, seed uint64) *Search {
	t.Helper()
	s, err := New(cfg, e, seed)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func moveText(g *rules.Game, m rules.Move) string { return g.Position().MoveString(m) }

// Chu positions (no check rule: royals can be taken).
const (
	// The Gote king on b12 stands next to the Sente gold on b11 and is
	// unprotected: taking it wins.
	royalHangs = "1k10/1G10/12/12/8p3/12/12/12/8P3/12/12/11K b - 1"
	// The Sente king on a1 may step onto b1 or b2, both on the file of the
	// Gote rook on b3; a1a2 is safe (the bishop on c4 is blocked by its own
	// rook). Sente has pawns to move too, so quiet moves exist.
	royalInDanger = "k11/12/12/12/12/12/12/12/2b9/1r10/12/K6PP3 b - 1"
)

func TestCapturesHangingRoyal(t *testing.T) {
	for _, gumbel := range []bool{false, true} {
		for _, e := range []Evaluator{Uniform{}, Random{Seed: 3}} {
			g := game(t, rules.Chu, royalHangs)
			cfg := DefaultConfig()
			s := search(t, cfg, e, 1)
			res, err := s.Run(context.Background(), g, Options{Simulations: 64, Gumbel: gumbel})
			if err != nil {
				t.Fatal(err)
			}
			if got := moveText(g, s.Choose(res, 100, gumbel)); !strings.HasPrefix(got, "b11b12") {
				t.Errorf("gumbel %v, %T: played %s, want the royal capture b11b12", gumbel, e, got)
			}
		}
	}
}

func TestAvoidsLosingLastRoyal(t *testing.T) {
	for _, gumbel := range []bool{false, true} {
		g := game(t, rules.Chu, royalInDanger)
		s := search(t, DefaultConfig(), Uniform{}, 2)
		res, err := s.Run(context.Background(), g, Options{Simulations: 400, Gumbel: gumbel})
		if err != nil {
			t.Fatal(err)
		}
		m := s.Choose(res, 100, gumbel)
		if losesRoyal(g, m) {
			t.Errorf("gumbel %v: played %s, giving away the king", gumbel, moveText(g, m))
		}
	}
}

// losesRoyal reports whether after m the opponent has a move that wins.
func losesRoyal(g *rules.Game, m rules.Move) bool {
	g.Play(m)
	defer g.Undo()
	mover := g.Position().SideToMove().Other()
	for _, r := range g.LegalMoves() {
		g.Play(r)
		w, ok := g.Result().Winner()
		g.Undo()
		if ok && w != mover {
			return true
		}
	}
	return false
}

func TestVisitsSumToBudget(t *testing.T) {
	for _, sims := range []int{1, 7, 100, 333} {
		g := game(t, rules.Sho, "")
		cfg := DefaultConfig()
		cfg.ReuseTree = false
		s := search(t, cfg, Random{}, 1)
		res, err := s.Run(context.Background(), g, Options{Simulations: sims, Noise: true})
		if err != nil {
			t.Fatal(err)
		}
		var sum int32
		for _, v := range res.Visits {
			sum += v
		}
		if int(sum) != sims || res.Simulations != sims {
			t.Errorf("%d simulations: visits sum to %d, Simulations %d", sims, sum, res.Simulations)
		}
		if g.Len() != 0 {
			t.Errorf("the game was not restored")
		}
	}
}

func TestReproducible(t *testing.T) {
	play := func() []string {
		g := game(t, rules.Chu, "")
		s := search(t, DefaultConfig(), Random{Seed: 9}, 42)
		var out []string
		for i := 0; i < 6; i++ {
			res, err := s.Run(context.Background(), g, Options{Simulations: 50, Noise: true})
			if err != nil {
				t.Fatal(err)
			}
			m := s.Choose(res, g.Len(), false)
			out = append(out, moveText(g, m))
			g.Play(m)
		}
		return out
	}
	a, b := play(), play()
	if !reflect.DeepEqual(a, b) {
		t.Errorf("same seed, different games: %v vs %v", a, b)
	}
}

func TestTreeReuse(t *testing.T) {
	g := game(t, rules.Sho, "")
	s := search(t, DefaultConfig(), Random{}, 1)
	res, _ := s.Run(context.Background(), g, Options{Simulations: 200})
	g.Play(res.Best)
	var childVisits int32
	for i, m := range res.Moves {
		if m == res.Best {
			childVisits = res.Visits[i]
		}
	}
	before := s.NodeCount()
	res2, err := s.Run(context.Background(), g, Options{Simulations: 10})
	if err != nil {
		t.Fatal(err)
	}
	var sum int32
	for _, v := range res2.Visits {
		sum += v
	}
	// the reused subtree's visits are kept: its own visit minus the root's
	if int(sum) != int(childVisits)-1+10 {
		t.Errorf("after reuse: visits sum %d, want %d", sum, childVisits-1+10)
	}
	if s.NodeCount() >= before+200 {
		t.Errorf("the tree was not compacted: %d nodes", s.NodeCount())
	}
	// a different game resets the tree
	other := game(t, rules.Sho, "")
	other.Play(other.LegalMoves()[3])
	other.Play(other.LegalMoves()[3])
	res3, _ := s.Run(context.Background(), other, Options{Simulations: 5})
	sum = 0
	for _, v := range res3.Visits {
		sum += v
	}
	if sum != 5 {
		t.Errorf("a new game should start a new tree: visits %d", sum)
	}
}

// TestGumbelImprovesPolicy: at 16 simulations the improved policy puts more
// mass on the winning capture than the prior did.
func TestGumbelImprovesPolicy(t *testing.T) {
	g := game(t, rules.Chu, royalHangs)
	s := search(t, DefaultConfig(), Random{Seed: 5}, 3)
	res, err := s.Run(context.Background(), g, Options{Simulations: 16, Gumbel: true})
	if err != nil {
		t.Fatal(err)
	}
	var prior, improved float32
	for i, m := range res.Moves {
		if strings.HasPrefix(moveText(g, m), "b11b12") { // with or without promotion
			prior += res.Prior[i]
			improved += res.Policy[i]
		}
	}
	t.Logf("the capture: prior %.3f, improved policy %.3f", prior, improved)
	if improved <= prior {
		t.Errorf("improved policy %.3f on the capture, prior %.3f", improved, prior)
	}
	if !strings.HasPrefix(moveText(g, res.Best), "b11b12") {
		t.Errorf("Gumbel chose %s", moveText(g, res.Best))
	}
	var sum float32
	for _, p := range res.Policy {
		sum += p
	}
	if sum < 0.999 || sum > 1.001 {
		t.Errorf("improved policy sums to %v", sum)
	}
}

// TestGumbelTactics: Gumbel search with 16 simulations plays a winning
// capture or mate when there is one: the position after its move is won.
func TestGumbelTactics(t *testing.T) {
	tests := []struct {
		v    rules.VariantID
		sfen string
	}{
		{rules.Chu, royalHangs},                                             // take the hanging king
		{rules.Sho, "k8/9/1G7/9/9/9/9/9/1L6K b - 1"},                        // mate with the gold
		{rules.Chu, "12/12/6ks4/12/12/12/12/2G9/12/12/12/7R3K b - 1"},       // bare the king: h1h10
		{rules.Heian, "12k/13/13/3p9/13/13/13/13/13/3A9/13/2G10/K12 b - 1"}, // bare the king: d4d10
	}
	for _, tt := range tests {
		for seed := uint64(1); seed <= 4; seed++ {
			g := game(t, tt.v, tt.sfen)
			s := search(t, DefaultConfig(), Random{Seed: seed}, seed)
			res, err := s.Run(context.Background(), g, Options{Simulations: 16, Gumbel: true})
			if err != nil {
				t.Fatal(err)
			}
			m := moveText(g, res.Best)
			g.Play(res.Best)
			if w, ok := g.Result().Winner(); !ok || w != rules.Sente {
				t.Errorf("%s seed %d: Gumbel played %s, result %v", tt.sfen, seed, m, g.Result())
			}
		}
	}
}

func TestCache(t *testing.T) {
	c := NewCache(Random{Seed: 1}, 1000)
	g := game(t, rules.Chu, "")
	req := &eval.Request{}
	req.Set(g, g.LegalMoves())
	direct := &eval.Request{}
	direct.Set(g, g.LegalMoves())
	Random{Seed: 1}.Evaluate(context.Background(), []*eval.Request{direct})
	for i := 0; i < 3; i++ {
		if err := c.Evaluate(context.Background(), []*eval.Request{req}); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(req.Priors, direct.Priors) || req.WDL != direct.WDL {
			t.Fatalf("cached answer differs from the direct one")
		}
	}
	if h, m := c.Counts(); h != 2 || m != 1 {
		t.Errorf("hits %d, misses %d; want 2, 1", h, m)
	}
	// bounded: many distinct positions never grow the cache beyond capacity
	for i := 0; i < 3000; i++ {
		if g.Result().Over() {
			g = game(t, rules.Chu, "")
		}
		g.Play(g.LegalMoves()[i%len(g.LegalMoves())])
		req.Set(g, g.LegalMoves())
		c.Evaluate(context.Background(), []*eval.Request{req})
	}
	n := 0
	for i := range c.shards {
		n += len(c.shards[i].index)
	}
	if n > 1000 {
		t.Errorf("cache holds %d entries, capacity 1000", n)
	}
}

func TestDirichletSumsToOne(t *testing.T) {
	s := search(t, DefaultConfig(), Uniform{}, 1)
	for _, alpha := range []float64{0.03, 0.3, 1, 5} {
		v := dirichlet(s.rng, alpha, 50)
		var sum float64
		for _, x := range v {
			if x < 0 {
				t.Fatalf("negative component %v", x)
			}
			sum += x
		}
		if sum < 0.999999 || sum > 1.000001 {
			t.Errorf("alpha %v: sum %v", alpha, sum)
		}
	}
}

func TestNodeBytes(t *testing.T) {
	if got := int(unsafe.Sizeof(node{})); got != NodeBytes {
		t.Errorf("NodeBytes = %d, the node is %d bytes", NodeBytes, got)
	}
}
