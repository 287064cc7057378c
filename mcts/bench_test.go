package mcts

import (
	"context"
	"testing"

	"chuzero/rules"
)

// BenchmarkSimulations measures pure search overhead: simulations per
// second with the uniform evaluator (no network), one core.
func BenchmarkSimulations(b *testing.B) { benchSimulations(b, Options{Simulations: 800}) }

// BenchmarkGumbelSimulations is BenchmarkSimulations for a Gumbel search
// (sequential halving at the root, Gumbel's rule below it).
func BenchmarkGumbelSimulations(b *testing.B) {
	benchSimulations(b, Options{Simulations: 800, Gumbel: true})
}

func benchSimulations(b *testing.B, o Options) {
	for _, v := range rules.Variants {
		b.Run(v.String(), func(b *testing.B) {
			g := game(b, v, "")
			for i := 0; i < 20; i++ { // a middle-game position
				g.Play(g.LegalMoves()[(i*13)%len(g.LegalMoves())])
			}
			cfg := DefaultConfig()
			cfg.ReuseTree = false
			s := search(b, cfg, Uniform{}, 1)
			ctx := context.Background()
			s.Run(ctx, g, o)
			b.ReportAllocs()
			sims := 0
			for b.Loop() {
				res, err := s.Run(ctx, g, o)
				if err != nil {
					b.Fatal(err)
				}
				sims += res.Simulations
			}
			b.ReportMetric(float64(sims)/b.Elapsed().Seconds(), "sims/s")
			b.ReportMetric(b.Elapsed().Seconds()/float64(sims)*1e6, "µs/sim")
		})
	}
}

// TestSimulationAllocs: a search allocates per move, not per simulation,
// with PUCT and with Gumbel (root and interior).
func TestSimulationAllocs(t *testing.T) {
	for _, gumbel := range []bool{false, true} {
		g := game(t, rules.Chu, "")
		cfg := DefaultConfig()
		cfg.ReuseTree = false
		s := search(t, cfg, Uniform{}, 1)
		ctx := context.Background()
		s.Run(ctx, g, Options{Simulations: 2000, Gumbel: gumbel}) // grow the arena
		few := testing.AllocsPerRun(5, func() { s.Run(ctx, g, Options{Simulations: 100, Gumbel: gumbel}) })
		many := testing.AllocsPerRun(5, func() { s.Run(ctx, g, Options{Simulations: 1000, Gumbel: gumbel}) })
		if many > few+5 {
			t.Errorf("gumbel %v: 1000 simulations allocate %.0f times, 100 allocate %.0f: allocations grow with simulations", gumbel, many, few)
		}
	}
}
