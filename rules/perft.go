package rules

import (
	"sort"
	"sync"
)

// Perft counts the sequences of legal moves of the given depth from p
// (perft(0) = 1). It counts canonical moves and applies no game-end rule
// inside the tree (../shared/perft/README.md). The last ply is counted in
// bulk: at depth 1 the moves are counted, not played. p is unchanged
// afterwards.
func Perft(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var buf [MaxMoves]Move
	moves := p.GenerateMoves(buf[:0])
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		u := p.Make(m)
		n += Perft(p, depth-1)
		p.Unmake(m, u)
	}
	return n
}

// DivideEntry is one root move of a Divide with the perft of its child.
type DivideEntry struct {
	Move  Move
	Text  string // machine notation
	Nodes uint64
}

// Divide returns perft(depth-1) below every root move, sorted by the moves'
// machine notation, for hunting mismatches against another generator.
func Divide(p *Position, depth int) []DivideEntry {
	if depth < 1 {
		return nil
	}
	var buf [MaxMoves]Move
	moves := p.GenerateMoves(buf[:0])
	out := make([]DivideEntry, 0, len(moves))
	for _, m := range moves {
		e := DivideEntry{Move: m, Text: p.MoveString(m)}
		u := p.Make(m)
		e.Nodes = Perft(p, depth-1)
		p.Unmake(m, u)
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Text < out[j].Text })
	return out
}

// ParallelDivide is Divide at depth with workers goroutines sharing the
// root moves, each on its own copy of the position, and the total count
// (1 at depth 0, with no entries).
func ParallelDivide(p *Position, depth, workers int) ([]DivideEntry, uint64) {
	if depth == 0 {
		return nil, 1
	}
	entries := Divide(p, 1) // root moves, sorted, with perft(0) = 1
	if depth > 1 {
		var wg sync.WaitGroup
		next := make(chan int)
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(q Position) {
				defer wg.Done()
				for i := range next {
					u := q.Make(entries[i].Move)
					entries[i].Nodes = Perft(&q, depth-1)
					q.Unmake(entries[i].Move, u)
				}
			}(*p)
		}
		for i := range entries {
			next <- i
		}
		close(next)
		wg.Wait()
	}
	var total uint64
	for _, e := range entries {
		total += e.Nodes
	}
	return entries, total
}
