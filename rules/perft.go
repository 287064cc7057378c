package rules

import "sort"

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
