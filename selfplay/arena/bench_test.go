package arena_test

import (
	"context"
	"testing"
	"time"

	"chuzero/rules"
	"chuzero/selfplay/arena"
)

// BenchmarkMatch measures the arena's own overhead and the baselines'
// speed: greedy against random on Sho, two games at a time, in games/h.
func BenchmarkMatch(b *testing.B) {
	games := 0
	start := time.Now()
	for i := 0; i < b.N; i++ {
		m, err := arena.New(arena.Config{Rules: rules.DefaultConfig(rules.Sho), Games: 4, Concurrency: 2, Seed: uint64(i)}, arena.Greedy{}, arena.Random{})
		if err != nil {
			b.Fatal(err)
		}
		st, err := m.Run(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		games += st.Games
	}
	b.ReportMetric(float64(games)/time.Since(start).Hours(), "games/h")
}
