package rules

import (
	"fmt"
	"testing"
)

// Benchmarks report nodes/s (perft nodes counted per second; the last ply is
// counted in bulk, see Perft), positions/s and moves/s.
//
//	go test ./rules -run '^$' -bench . -benchtime 2s

func benchPerft(b *testing.B, r *Rules, sfen string, depth int) {
	p := mustSFEN(b, r, sfen)
	b.ReportAllocs()
	var nodes uint64
	for b.Loop() {
		nodes += Perft(&p, depth)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func BenchmarkPerftStart(b *testing.B) {
	for _, v := range Variants {
		r := MustNew(DefaultConfig(v))
		for _, d := range []int{3, 4} {
			b.Run(fmt.Sprintf("%s/depth%d", v, d), func(b *testing.B) { benchPerft(b, r, r.v.StartSFEN, d) })
		}
	}
}

// BenchmarkPerftMidgame runs perft(2) over the mid-game and rule-edge rows
// of the shared Chu table.
func BenchmarkPerftMidgame(b *testing.B) {
	r := MustNew(DefaultConfig(Chu))
	var ps []Position
	for _, row := range readPerftTable(b, "chu.tsv") {
		if row.depth == 2 {
			ps = append(ps, mustSFEN(b, r, row.sfen))
		}
	}
	b.ReportAllocs()
	var nodes uint64
	for b.Loop() {
		for i := range ps {
			nodes += Perft(&ps[i], 2)
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// benchPositions returns a spread of positions from seeded random play.
func benchPositions(b *testing.B, r *Rules) []Position {
	var ps []Position
	g := NewGame(r.StartPosition())
	for i := 0; len(ps) < 64; i++ {
		if g.Result().Over() {
			g = NewGame(r.StartPosition())
		}
		moves := g.LegalMoves()
		g.Push(moves[(i*7919)%len(moves)])
		if i%3 == 0 {
			ps = append(ps, *g.Position())
		}
	}
	return ps
}

func BenchmarkGenerateMoves(b *testing.B) {
	for _, v := range Variants {
		r := MustNew(DefaultConfig(v))
		b.Run(v.String(), func(b *testing.B) {
			ps := benchPositions(b, r)
			buf := make([]Move, 0, MaxMoves)
			b.ReportAllocs()
			var n, moves int
			for b.Loop() {
				p := &ps[n%len(ps)]
				moves += len(p.GenerateMoves(buf[:0]))
				n++
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "positions/s")
			b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}

func BenchmarkMakeUnmake(b *testing.B) {
	for _, v := range Variants {
		r := MustNew(DefaultConfig(v))
		b.Run(v.String(), func(b *testing.B) {
			ps := benchPositions(b, r)
			var all [][]Move
			for i := range ps {
				all = append(all, ps[i].GenerateMoves(nil))
			}
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				i := n % len(ps)
				p := &ps[i]
				for _, m := range all[i] {
					u := p.Make(m)
					p.Unmake(m, u)
				}
				n += len(all[i])
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}

func BenchmarkGamePushUndo(b *testing.B) {
	r := MustNew(DefaultConfig(Chu))
	g := NewGame(r.StartPosition())
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		g.Push(g.LegalMoves()[n%len(g.LegalMoves())])
		g.Undo()
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "plies/s")
}

func TestGenerateZeroAllocs(t *testing.T) {
	for _, v := range Variants {
		r := MustNew(DefaultConfig(v))
		p := r.StartPosition()
		buf := make([]Move, 0, MaxMoves)
		moves := p.GenerateMoves(nil)
		allocs := testing.AllocsPerRun(100, func() {
			buf = p.GenerateMoves(buf[:0])
			for _, m := range moves {
				u := p.Make(m)
				p.Unmake(m, u)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: move generation and make/unmake allocate %.1f times", v, allocs)
		}
	}
}

// perftNoBulk is Perft that plays every leaf move (make/unmake) instead of
// counting the last ply in bulk, for an honest per-node figure.
func perftNoBulk(p *Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var buf [MaxMoves]Move
	var n uint64
	for _, m := range p.GenerateMoves(buf[:0]) {
		u := p.Make(m)
		n += perftNoBulk(p, depth-1)
		p.Unmake(m, u)
	}
	return n
}

func BenchmarkPerftNoBulk(b *testing.B) {
	r := MustNew(DefaultConfig(Chu))
	p := r.StartPosition()
	if got := perftNoBulk(&p, 3); got != 48315 {
		b.Fatalf("perftNoBulk(3) = %d", got)
	}
	var nodes uint64
	for b.Loop() {
		nodes += perftNoBulk(&p, 4)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
