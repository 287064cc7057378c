package arena

import (
	"testing"

	"chuzero/rules"
)

// BenchmarkAlphaBeta searches the start position (and one after a few
// seeded random moves) to a fixed depth with a fresh table each time, in
// nodes/s (nodes: negamax and quiescence calls).
func BenchmarkAlphaBeta(b *testing.B) {
	for _, tc := range []struct {
		name  string
		v     rules.VariantID
		depth int
	}{
		{"sho-d4", rules.Sho, 4}, {"chu-d3", rules.Chu, 3}, {"heian-d3", rules.Heian, 3},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var games []*rules.Game
			abPlayout(b, tc.v, 5, 12, func(g *rules.Game) {
				if g.Len() == 0 || g.Len() == 11 {
					games = append(games, abGame(b, tc.v, g.Position().SFEN()))
				}
			})
			b.ReportAllocs()
			var nodes int64
			for b.Loop() {
				for _, g := range games {
					nodes += abThink(b, AlphaBeta{Depth: tc.depth}, g).Nodes
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N*len(games)), "nodes/search")
		})
	}
}
