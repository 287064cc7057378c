package rules

// Left-right mirroring. Every piece of the built-in variants is left-right
// symmetric and zones depend on ranks only, so the rules are
// mirror-invariant: the legal moves of a mirrored position are the mirrored
// legal moves (tested over random positions of every variant). Training
// uses this for augmentation.

// MirrorSquare returns s reflected across the board's vertical axis.
func (r *Rules) MirrorSquare(s Square) Square {
	if s == NoSquare {
		return NoSquare
	}
	return Sq(r.files-1-s.File(), s.Rank())
}

// MirrorMove returns m with every square reflected.
func (r *Rules) MirrorMove(m Move) Move {
	if m.IsPass() || m == NoMove {
		return m
	}
	out := NewMove(r.MirrorSquare(m.From()), r.MirrorSquare(m.To()))
	if m.IsDouble() {
		out = NewDoubleMove(r.MirrorSquare(m.From()), r.MirrorSquare(m.Mid()), r.MirrorSquare(m.To()))
	}
	if m.IsPromotion() {
		out = out.WithPromotion()
	}
	return out
}

// Mirrored returns the position reflected left-right: board, counter-strike
// and suppression squares; side to move and move number are kept.
func (p *Position) Mirrored() Position {
	q := *p
	r := p.r
	for _, s := range r.squares {
		q.board[s] = p.board[r.MirrorSquare(s)]
	}
	q.cs = r.MirrorSquare(p.cs)
	q.sup = [2]Square{r.MirrorSquare(p.sup[0]), r.MirrorSquare(p.sup[1])}
	q.finish()
	return q
}
