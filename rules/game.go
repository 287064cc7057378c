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

// Clone returns an independent copy of g: the same position, history and
// result, sharing nothing that either changes.
func (g *Game) Clone() *Game {
	c := *g
	c.plies = append([]ply(nil), g.plies...)
	c.keys = append([]uint64(nil), g.keys...)
	c.moves = append(make([]Move, 0, cap(g.moves)), g.moves...)
	c.moveStart = append([]int(nil), g.moveStart...)
	return &c
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
