package mcts

import (
	"context"
	"math"
	"testing"

	"chuzero/mcts/eval"
	"chuzero/mcts/qsearch"
	"chuzero/rules"
)

// TestQuiescenceBlend: the value of an evaluated position is
// (1-λ)·v_eval + λ·tanh(k·qs/army), at the root and at the leaves.
func TestQuiescenceBlend(t *testing.T) {
	// Sente to move can take a hanging gold with its rook; the uniform
	// evaluator calls every position a draw.
	const sfen = "4k4/9/9/9/2g6/9/9/2R6/4K4 b - 1"
	g := game(t, rules.Sho, sfen)
	q := qsearch.New(g.Rules(), qsearch.DefaultDepth)
	qv := q.Scaled(g, 3)
	if !(qv > 0.3) {
		t.Fatalf("the quiescence value of a hanging gold with a rook up is %v", qv)
	}
	for _, lambda := range []float64{0, 0.25, 1} {
		cfg := DefaultConfig()
		cfg.Quiescence = lambda
		s, err := New(cfg, Uniform{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Run(context.Background(), g, Options{Simulations: 1})
		if err != nil {
			t.Fatal(err)
		}
		if want := lambda * qv; math.Abs(res.NetValue-want) > 1e-6 {
			t.Errorf("λ %v: root value %v, want %v", lambda, res.NetValue, want)
		}
		if lambda > 0 && s.QuiescenceNodes() == 0 {
			t.Errorf("λ %v: no quiescence node counted", lambda)
		}
		if g.Position().SFEN() != sfen || g.Len() != 0 {
			t.Fatalf("the search moved the game: %s", g.Position().SFEN())
		}
	}
}

// TestQuiescenceFindsCapture: with λ 1 and uniform priors, a short search
// takes the hanging gold, and prefers it over every other move.
func TestQuiescenceFindsCapture(t *testing.T) {
	g := game(t, rules.Sho, "4k4/9/9/9/2g6/9/9/2R6/4K4 b - 1")
	capture := rules.NoMove
	for _, m := range g.LegalMoves() {
		if pc := g.Position().At(m.To()); pc.IsPiece() && pc.Color() == rules.Gote {
			capture = m
		}
	}
	cfg := MatchConfig()
	cfg.Quiescence = 1
	s, err := New(cfg, Uniform{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Run(context.Background(), g, Options{Simulations: 64, Gumbel: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Best != capture {
		t.Errorf("best move %s, want the capture %s", g.Position().MoveString(res.Best), g.Position().MoveString(capture))
	}
}

// TestQuiescenceValidate: λ out of [0, 1] and a bad scale are refused.
func TestQuiescenceValidate(t *testing.T) {
	for _, c := range []func(*Config){
		func(c *Config) { c.Quiescence = -0.1 },
		func(c *Config) { c.Quiescence = 1.5 },
		func(c *Config) { c.Quiescence, c.QuiescenceScale = 0.5, 0 },
		func(c *Config) { c.QuiescenceDepth = -1 },
	} {
		cfg := DefaultConfig()
		c(&cfg)
		if cfg.Validate() == nil {
			t.Errorf("%+v validates", cfg)
		}
	}
}

// residualEval is Uniform with a fixed value, reported as a residual of
// the capture value with weight r.
type residualEval struct {
	wdl [3]float32
	r   float32
}

func (e residualEval) Evaluate(ctx context.Context, reqs []*eval.Request) error {
	_ = Uniform{}.Evaluate(ctx, reqs)
	for _, req := range reqs {
		req.WDL, req.Residual = e.wdl, e.r
	}
	return nil
}

// TestResidualValue: a residual evaluator's value is completed by its own
// weight, v + r·qs clamped, whatever the search's blend weight (which only
// switches the capture search on); without the capture search it is the
// residual alone; a whole value (r 0) is blended as before.
func TestResidualValue(t *testing.T) {
	const sfen = "4k4/9/9/9/2g6/9/9/2R6/4K4 b - 1" // a hanging gold, as above
	g := game(t, rules.Sho, sfen)
	qv := qsearch.New(g.Rules(), qsearch.DefaultDepth).Scaled(g, 3)
	for _, c := range []struct {
		name      string
		wdl       [3]float32
		r, lambda float64
		want      float64
	}{
		{"residual, match blend", [3]float32{0.3, 0.5, 0.2}, 0.75, 0.75, 0.1 + 0.75*qv},
		{"residual, blend 1", [3]float32{0.3, 0.5, 0.2}, 0.75, 1, 0.1 + 0.75*qv},
		{"residual, clamped", [3]float32{1, 0, 0}, 1, 0.5, 1},
		{"residual, no capture search", [3]float32{0.3, 0.5, 0.2}, 0.75, 0, 0.1},
		{"whole value", [3]float32{0.3, 0.5, 0.2}, 0, 0.75, 0.25*0.1 + 0.75*qv},
	} {
		cfg := DefaultConfig()
		cfg.Quiescence = c.lambda
		s, err := New(cfg, residualEval{c.wdl, float32(c.r)}, 1)
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Run(context.Background(), g, Options{Simulations: 1})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(res.NetValue-c.want) > 1e-6 {
			t.Errorf("%s: root value %v, want %v", c.name, res.NetValue, c.want)
		}
	}
}
