package mcts

import (
	"context"
	"math"
	"testing"

	"chuzero/mcts/eval"
	"chuzero/rules"
)

func TestMaterialEvaluator(t *testing.T) {
	// The Sho start position, then the same without Gote's rook (Sente
	// to move, and Gote to move after a pawn push).
	start := game(t, rules.Sho, "")
	noRook := game(t, rules.Sho, "lnsgkgsnl/4e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1")
	r := start.Rules()
	rook := noRook.Position().Balance(r.PieceValues(), rules.Sente)
	want := math.Tanh(3 * rook / r.Army())
	cases := []struct {
		name string
		g    *rules.Game
		push bool // play a (quiet) move first
		v    float64
	}{
		{"start", start, false, 0},
		{"Sente a rook up", noRook, false, want},
		{"Gote a rook down", noRook, true, -want},
	}
	for _, c := range cases {
		if c.push {
			c.g.Push(c.g.LegalMoves()[0]) // no capture is possible yet
		}
		var req eval.Request
		req.Set(c.g, c.g.LegalMoves())
		if err := (Material{Scale: 3}).Evaluate(context.Background(), []*eval.Request{&req}); err != nil {
			t.Fatal(err)
		}
		v := float64(req.WDL[0] - req.WDL[2])
		if math.Abs(v-c.v) > 1e-6 || req.WDL[0]+req.WDL[1]+req.WDL[2] < 0.9999 {
			t.Errorf("%s: WDL %v (value %.4f), want value %.4f", c.name, req.WDL, v, c.v)
		}
		var sum float32
		for _, p := range req.Priors {
			sum += p
			if p != req.Priors[0] {
				t.Errorf("%s: priors not uniform: %v", c.name, req.Priors)
				break
			}
		}
		if math.Abs(float64(sum)-1) > 1e-5 {
			t.Errorf("%s: priors sum to %v", c.name, sum)
		}
	}
}

// TestBestTiesToPrior: among root moves of equal visits the PUCT result
// names the one of higher prior, not the first generated.
func TestBestTiesToPrior(t *testing.T) {
	g := game(t, rules.Sho, "")
	s := search(t, DefaultConfig(), Uniform{}, 1)
	moves := g.LegalMoves()
	s.t.reset()
	priors := make([]float32, len(moves))
	for i := range priors {
		priors[i] = 0.5 / float32(len(moves)-1)
	}
	top := len(moves) - 1
	priors[top] = 0.5
	s.t.expand(s.t.root, moves, priors, 0)
	s.origPrior = priors
	root := s.t.nodes.at(s.t.root)
	root.visits, root.valueSum = 3, 0
	kids := s.t.children(s.t.root)
	kids[0].visits, kids[top].visits = 1, 1 // a tie between the first and the top prior
	kids[1].visits = 1
	kids[1].prior = 0.2 // below the top
	var res Result
	s.fillResult(&res, false)
	if res.Best != moves[top] {
		t.Errorf("best %s, want %s (visits tie, higher prior)", moveText(g, res.Best), moveText(g, moves[top]))
	}
}

// forecast is a test evaluator with uniform priors, a certain draw for a
// value and the exact material balance (in armies) as its material
// forecast: what a network whose material head had learnt material and
// whose value head had not would answer.
type forecast struct{}

func (forecast) Evaluate(ctx context.Context, reqs []*eval.Request) error {
	if err := (Uniform{}).Evaluate(ctx, reqs); err != nil {
		return err
	}
	for _, r := range reqs {
		rl := r.Pos.Rules()
		r.Material = float32(r.Pos.Balance(rl.PieceValues(), r.Pos.SideToMove()) / rl.Army())
	}
	return nil
}

// TestMaterialUtility: a Gote rook stands in front of a Sente pawn. On the
// value alone (a draw everywhere) every move is worth 0; with the material
// utility the search takes the rook, and the capture's Q is the utility of
// a rook ahead.
func TestMaterialUtility(t *testing.T) {
	const sfen = "lnsgkgsnl/4e2b1/ppppppppp/9/9/7r1/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1"
	noRook := game(t, rules.Sho, "lnsgkgsnl/4e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1")
	rook := noRook.Position().Balance(noRook.Rules().PieceValues(), rules.Sente)
	for _, u := range []float64{0, 0.5} {
		g := game(t, rules.Sho, sfen)
		r := g.Rules()
		before := g.Position().Balance(r.PieceValues(), rules.Sente)
		cfg := DefaultConfig()
		cfg.MaterialUtility, cfg.Quiescence = u, 0 // the utility alone, no quiescence blend
		res, err := search(t, cfg, forecast{}, 1).Run(context.Background(), g, Options{Simulations: 400})
		if err != nil {
			t.Fatal(err)
		}
		q, _ := res.ValueOf(res.Best)
		if u == 0 {
			for i, q := range res.Q {
				if q != 0 {
					t.Fatalf("utility 0: move %v has Q %v, want 0 (the value is a draw everywhere)", res.Moves[i], q)
				}
			}
			continue
		}
		g.Push(res.Best)
		gain := g.Position().Balance(r.PieceValues(), rules.Sente) - before
		if gain < rook || q <= 0 {
			t.Errorf("utility %v: best move %v gains %v material (a rook is %v), Q %.3f", u, res.Best, gain, rook, q)
		}
	}
	bad := DefaultConfig()
	bad.MaterialUtility = 1.5
	if bad.Validate() == nil {
		t.Error("MaterialUtility 1.5 validates")
	}
}
