package qsearch_test

import (
	"math/rand/v2"
	"testing"

	"chuzero/encode"
	"chuzero/mcts/qsearch"
	"chuzero/model"
	"chuzero/rules"
)

// BenchmarkLeaf measures what the quiescence blend costs per leaf of the
// tree search beside what the leaf's network evaluation costs: "qs" is
// the capture search of one position (µs/leaf, nodes/leaf), "net" the
// small network's forward pass per position in batches of 32, the
// self-play batcher's typical fill. The positions are those of seeded
// random playouts 20 to 60 plies in: more pieces hang there than in real
// games, so "qs" is an upper bound.
func BenchmarkLeaf(b *testing.B) {
	for _, v := range []rules.VariantID{rules.Sho, rules.Chu, rules.Heian} {
		games := leafGames(b, v, 64)
		b.Run(v.String()+"/qs", func(b *testing.B) {
			q := qsearch.New(games[0].Rules(), qsearch.DefaultDepth)
			n := 0
			for b.Loop() {
				q.Value(games[n%len(games)])
				n++
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(n)*1e6, "µs/leaf")
			b.ReportMetric(float64(q.Nodes)/float64(n), "nodes/leaf")
		})
		b.Run(v.String()+"/net-small", func(b *testing.B) {
			const batch = 32
			spec := encode.MustSpec(v, encode.DefaultOptions())
			w, err := model.NewWeights(model.Presets["small"], spec, 1)
			if err != nil {
				b.Fatal(err)
			}
			net := model.NewNet(w)
			ws := net.NewWorkspace(batch)
			planes := make([]float32, batch*spec.PlaneSize())
			var hist []rules.Move
			for i := 0; i < batch; i++ {
				st := encode.StateOf(games[i%len(games)], hist)
				if err := spec.Encode(&st, planes[i*spec.PlaneSize():][:spec.PlaneSize()]); err != nil {
					b.Fatal(err)
				}
			}
			n := 0
			for b.Loop() {
				if err := net.Forward(ws, planes, batch); err != nil {
					b.Fatal(err)
				}
				n += batch
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(n)*1e6, "µs/leaf")
		})
	}
}

// leafGames returns n games of seeded random playouts, each stopped 20 to
// 60 plies in (or where it ended, a ply before).
func leafGames(b *testing.B, v rules.VariantID, n int) []*rules.Game {
	r := rules.MustNew(rules.DefaultConfig(v))
	rng := rand.New(rand.NewPCG(1, 2))
	var out []*rules.Game
	for len(out) < n {
		g := rules.NewGame(r.StartPosition())
		plies := 20 + rng.IntN(41)
		for g.Len() < plies {
			moves := g.LegalMoves()
			m := moves[rng.IntN(len(moves))]
			g.Push(m)
			if g.Result().Over() {
				g.Undo()
				break
			}
		}
		if !g.Result().Over() {
			out = append(out, g)
		}
	}
	return out
}
