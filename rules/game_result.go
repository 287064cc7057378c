package rules

// The result of a game, judged after every move (§9.4): see Game.

// evaluate computes the result of the current position (§9.4).
func (g *Game) evaluate() Result {
	p := &g.pos
	v := &g.r.v
	side := p.side
	if p.nroyal[side] == 0 {
		return winFor(side.Other(), ReasonNoRoyal)
	}
	switch v.BareKing {
	case BareKingJCSA:
		for _, c := range []Color{side, side.Other()} {
			if g.baredJCSA(c) {
				return winFor(c.Other(), ReasonBareKing)
			}
		}
	case BareKingSimple: // judged right after a move: not on the start position
		if len(g.plies) > 0 {
			if res := g.bareSimple(); res.Over() {
				return res
			}
		}
	}
	if len(g.currentMoves()) == 0 {
		return winFor(side.Other(), ReasonNoLegalMoves)
	}
	if res := g.repetition(); res.Over() {
		return res
	}
	if v.TwoBareRoyalsDraw && g.twoBareRoyals() {
		return Result{Draw, ReasonTwoBareRoyals}
	}
	if p.Plies() >= v.MaxPlies {
		return Result{Draw, ReasonMaxPlies}
	}
	return Result{}
}

// material summarizes a side for the bare-King rules; dead pieces are
// ignored.
type material struct {
	royals    int
	royalSq   Square
	others    int // non-royal pieces
	otherSq   Square
	effective int // pieces (royals included) without TraitIneffective
}

// material sums up c's pieces.
func (g *Game) material(c Color) material {
	var m material
	p := &g.pos
	r := p.r
	for _, s := range r.squares {
		pc := p.board[s]
		if pc == Empty || pc.Color() != c || r.dead[pc.index()][s] {
			continue
		}
		t := &r.table[pc.index()]
		if t.royal {
			m.royals++
			m.royalSq = s
		} else {
			m.others++
			m.otherSq = s
		}
		if t.traits&TraitIneffective == 0 {
			m.effective++
		}
	}
	return m
}

// baredJCSA applies lishogi's bare-King test to side c (chu-shogi.md §9.1).
func (g *Game) baredJCSA(c Color) bool {
	mc := g.material(c)
	if mc.royals != 1 || mc.others != 0 {
		return false
	}
	d := c.Other()
	md := g.material(d)
	if md.effective < 2 || md.royals == 0 {
		return false
	}
	p := &g.pos
	r := p.r
	king := p.board[mc.royalSq]
	for _, s := range r.squares {
		pc := p.board[s]
		if pc == Empty || pc.Color() != d || r.dead[pc.index()][s] {
			continue
		}
		t := &r.table[pc.index()]
		if t.royal && p.pieceAttacks(king, mc.royalSq, s) {
			return false // condition 3: the bared royal can take a royal
		}
		if md.effective < 3 && t.traits&TraitIneffective == 0 && chebyshev(s, mc.royalSq) == 1 {
			return false // condition 4: it can take D's only other effective piece
		}
	}
	return true
}

// bareSimple applies the Simple rule right after the move of X, the side
// not to move, against Y, the side to move (heian-dai-shogi.md §6).
func (g *Game) bareSimple() Result {
	y := g.pos.side
	x := y.Other()
	my := g.material(y)
	if my.royals == 0 || my.others != 0 {
		return Result{}
	}
	mx := g.material(x)
	if mx.others == 0 {
		return Result{Draw, ReasonTwoBareRoyals}
	}
	if mx.others == 1 {
		for _, m := range g.currentMoves() {
			if m.IsPass() || !g.r.table[g.pos.board[m.From()].index()].royal {
				continue
			}
			if m.To() == mx.otherSq || m.Mid() == mx.otherSq {
				return Result{Draw, ReasonBareKingDraw}
			}
		}
	}
	return winFor(x, ReasonBareKing)
}

// twoBareRoyals: ignoring dead pieces, one royal each and nothing else, and
// neither attacked.
func (g *Game) twoBareRoyals() bool {
	ms, mg := g.material(Sente), g.material(Gote)
	if ms.royals != 1 || mg.royals != 1 || ms.others != 0 || mg.others != 0 {
		return false
	}
	return !g.pos.Attacked(ms.royalSq, Gote) && !g.pos.Attacked(mg.royalSq, Sente)
}

// repetition applies the variant's rule when the current position occurs
// for the fourth time (chu-shogi.md §9.3).
func (g *Game) repetition() Result {
	rule := g.r.v.Repetition
	if rule == RepetitionForbid {
		return Result{}
	}
	count, first := g.occurrences()
	if count < 4 {
		return Result{}
	}
	cycle := g.plies[first:]
	// onlyOne returns the one side all of whose cycle moves satisfy f.
	onlyOne := func(f func(*ply) bool) (Color, bool) {
		all := [2]bool{true, true}
		for i := range cycle {
			if !f(&cycle[i]) {
				all[cycle[i].mover] = false
			}
		}
		switch {
		case all[Sente] && !all[Gote]:
			return Sente, true
		case all[Gote] && !all[Sente]:
			return Gote, true
		}
		return Sente, false
	}
	if c, ok := onlyOne(func(p *ply) bool { return p.check }); ok {
		return winFor(c.Other(), ReasonPerpetualCheck)
	}
	switch rule {
	case RepetitionHGM:
		return winFor(cycle[len(cycle)-1].mover.Other(), ReasonRepetitionLoss)
	case RepetitionJCSA4:
		if c, ok := onlyOne(func(p *ply) bool { return p.attack }); ok {
			return winFor(c.Other(), ReasonPerpetualAttack)
		}
		allPass := true
		for i := range cycle {
			allPass = allPass && cycle[i].move.IsPass()
		}
		if allPass {
			return winFor(cycle[0].mover.Other(), ReasonMutualPassing)
		}
	}
	return Result{Draw, ReasonRepetition}
}

// RepetitionCount returns how many times the current position has occurred
// (1 the first time).
func (g *Game) RepetitionCount() int {
	n, _ := g.occurrences()
	return n
}

// occurrences counts the current key in the history and returns the index
// of its first occurrence.
func (g *Game) occurrences() (count, first int) {
	cur := len(g.keys) - 1
	h := g.keys[cur]
	first = cur
	for i := cur; i >= g.lastIrreversible(); i -= 2 {
		if g.keys[i] == h {
			count++
			first = i
		}
	}
	return count, first
}

// seen reports whether key h occurred since the last irreversible move.
func (g *Game) seen(h uint64) bool {
	for i := g.lastIrreversible(); i < len(g.keys); i++ {
		if g.keys[i] == h {
			return true
		}
	}
	return false
}

// lastIrreversible returns the index in keys of the position after the
// last irreversible ply (a capture or promotion), 0 if none: no earlier
// position can recur.
func (g *Game) lastIrreversible() int {
	if n := len(g.plies); n > 0 {
		return g.plies[n-1].irrev
	}
	return 0
}
