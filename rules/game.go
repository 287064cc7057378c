package rules

import (
	"errors"
	"fmt"
)

// Game is a position with its history: it keeps the moves played, the
// repetition keys, the legal moves of the current position and the result,
// evaluated after every move in the order of chu-shogi.md §9.4:
//
//  1. the side to move has no royal: it loses;
//  2. the bare-King rule of the variant;
//  3. the side to move has no legal move: it loses;
//  4. fourfold repetition (the variant's Repetition rule);
//  5. two bare royals (Chu): draw;
//  6. MaxPlies reached: draw.
//
// Play and Undo allocate nothing in steady state, so search can walk a
// Game down and back up the tree.
type Game struct {
	r     *Rules
	start Position
	pos   Position
	plies []ply
	keys  []uint64 // keys[i]: repetition key after i plies
	// legal moves of every position on the current line, stacked:
	// moves[moveStart[i]:moveStart[i+1]] belong to the position after i plies
	moves     []Move
	moveStart []int
	result    Result
}

// ply records one move played.
type ply struct {
	move   Move
	undo   Undo
	mover  Color
	check  bool   // the move gave check
	attack bool   // the move gave check or left the moved piece attacking an enemy piece
	irrev  int    // index of the last irreversible ply at or before this one, +1 (0: none)
	result Result // the result before this move
}

// NewGame starts a game from p (which is copied).
func NewGame(p Position) *Game {
	g := &Game{r: p.r, start: p, pos: p}
	g.keys = append(g.keys, p.hash)
	g.moveStart = append(g.moveStart, 0)
	g.pushMoves()
	g.result = g.evaluate()
	return g
}

// NewGameFromSFEN starts a game from an SFEN string.
func (r *Rules) NewGameFromSFEN(sfen string) (*Game, error) {
	p, err := r.ParseSFEN(sfen)
	if err != nil {
		return nil, err
	}
	return NewGame(p), nil
}

// Rules returns the game's rules.
func (g *Game) Rules() *Rules { return g.r }

// Position returns the current position. It is owned by the game: read it,
// copy it, but do not modify it.
func (g *Game) Position() *Position { return &g.pos }

// Start returns the start position.
func (g *Game) Start() Position { return g.start }

// Moves returns a copy of the moves played so far.
func (g *Game) Moves() []Move {
	out := make([]Move, len(g.plies))
	for i := range g.plies {
		out[i] = g.plies[i].move
	}
	return out
}

// Len returns the number of moves played.
func (g *Game) Len() int { return len(g.plies) }

// MoveAt returns the i-th move played (0-based).
func (g *Game) MoveAt(i int) Move { return g.plies[i].move }

// HashAt returns the repetition key of the position after i plies
// (0 <= i <= Len()).
func (g *Game) HashAt(i int) uint64 { return g.keys[i] }

// GaveCheck reports whether the i-th move played gave check.
func (g *Game) GaveCheck(i int) bool { return g.plies[i].check }

// LegalMoves returns the legal moves of the current position, after the
// Repetition=Forbid filter; empty once the game is over. The slice is owned
// by the game and valid until the next Play or Undo.
func (g *Game) LegalMoves() []Move {
	if g.result.Over() {
		return nil
	}
	return g.currentMoves()
}

func (g *Game) currentMoves() []Move {
	n := len(g.moveStart)
	return g.moves[g.moveStart[n-1]:]
}

// Result returns the game's result.
func (g *Game) Result() Result { return g.result }

// ErrGameOver is returned by Play once the game has ended.
var ErrGameOver = errors.New("rules: the game is over")

// Play plays m if it is legal.
func (g *Game) Play(m Move) error {
	if g.result.Over() {
		return ErrGameOver
	}
	for _, l := range g.currentMoves() {
		if l == m {
			g.push(m)
			return nil
		}
	}
	return fmt.Errorf("rules: illegal move %s in %s", g.pos.MoveString(m), g.pos.SFEN())
}

// PlayString parses a move in machine notation and plays it.
func (g *Game) PlayString(s string) (Move, error) {
	if g.result.Over() {
		return NoMove, ErrGameOver
	}
	m, err := g.pos.ParseMove(s)
	if err != nil {
		return NoMove, err
	}
	return m, g.Play(m)
}

// Push plays m without checking it; m must be one of LegalMoves. Search
// uses it to save the check.
func (g *Game) Push(m Move) { g.push(m) }

func (g *Game) push(m Move) {
	n := len(g.plies)
	irrev := 0
	if n > 0 {
		irrev = g.plies[n-1].irrev
	}
	pl := ply{move: m, mover: g.pos.side, result: g.result}
	pl.undo = g.pos.Make(m)
	if to, mid := pl.undo.Captured(); to != Empty || mid != Empty || m.IsPromotion() {
		irrev = n + 1
	}
	pl.irrev = irrev
	pl.check = g.pos.InCheck()
	pl.attack = pl.check || (!m.IsPass() && g.pos.attacksEnemy(m.To()))
	g.plies = append(g.plies, pl)
	g.keys = append(g.keys, g.pos.hash)
	g.moveStart = append(g.moveStart, len(g.moves))
	g.pushMoves()
	g.result = g.evaluate()
}

// Undo takes back the last move; ok is false at the start.
func (g *Game) Undo() (m Move, ok bool) {
	n := len(g.plies)
	if n == 0 {
		return NoMove, false
	}
	pl := &g.plies[n-1]
	g.pos.Unmake(pl.move, pl.undo)
	g.result = pl.result
	g.moves = g.moves[:g.moveStart[len(g.moveStart)-1]]
	g.moveStart = g.moveStart[:len(g.moveStart)-1]
	g.keys = g.keys[:n]
	g.plies = g.plies[:n-1]
	return pl.move, true
}

// pushMoves generates the current position's legal moves onto the stack.
func (g *Game) pushMoves() {
	start := len(g.moves)
	if cap(g.moves)-start < MaxMoves {
		g.moves = append(make([]Move, 0, 2*cap(g.moves)+MaxMoves), g.moves...)
	}
	g.moves = g.pos.GenerateMoves(g.moves)
	if g.r.v.Repetition != RepetitionForbid {
		return
	}
	// Forbid: drop moves that recreate an earlier position
	kept := start
	for _, m := range g.moves[start:] {
		u := g.pos.Make(m)
		h := g.pos.hash
		g.pos.Unmake(m, u)
		if !g.seen(h) {
			g.moves[kept] = m
			kept++
		}
	}
	g.moves = g.moves[:kept]
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

func (g *Game) lastIrreversible() int {
	if n := len(g.plies); n > 0 {
		return g.plies[n-1].irrev
	}
	return 0
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
