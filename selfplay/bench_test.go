package selfplay

import (
	"context"
	"testing"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/rules"
)

// BenchmarkGames measures games per hour at a small budget with the
// uniform evaluator: the cost of self-play around the network.
func BenchmarkGames(b *testing.B) {
	for _, v := range []rules.VariantID{rules.Sho, rules.Chu} {
		b.Run(v.String(), func(b *testing.B) {
			cfg := DefaultConfig(v)
			cfg.Run = checkpoints.Run{Dir: b.TempDir()}
			cfg.Games = 2
			cfg.FullSimulations, cfg.CheapSimulations = 32, 8
			cfg.Rules.MaxPlies = 200
			games, plies := 0, int64(0)
			for b.Loop() {
				r, err := New(cfg, mcts.Uniform{}, "uniform")
				if err != nil {
					b.Fatal(err)
				}
				if err := r.Run(context.Background(), 2); err != nil {
					b.Fatal(err)
				}
				games += 2
				plies += r.Stats().Plies
			}
			b.ReportMetric(float64(games)/b.Elapsed().Hours(), "games/h")
			b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}
