package cecp

import (
	"context"
	"errors"
	"math"
	"time"

	"chuzero/mcts"
	"chuzero/rules"
)

// maybeThink starts a search if the engine is to move.
func (e *Engine) maybeThink(ctx context.Context) {
	if e.force || e.thinking != nil || e.badPos || e.game.Result().Over() || e.game.Position().SideToMove() != e.engineSide {
		return
	}
	b := e.budget()
	e.player.Budget = b
	e.player.MaxNodes = 0
	if e.memoryMB > 0 {
		e.player.MaxNodes = e.memoryMB << 20 / mcts.NodeBytes
	}
	tctx, cancel := context.WithCancel(ctx)
	t := &thought{cancel: cancel, done: make(chan thinkResult, 1)}
	e.thinking = t
	g := e.game
	player := e.player
	go func() {
		start := time.Now()
		res, err := player.Think(tctx, g)
		t.done <- thinkResult{res: res, err: err, dur: time.Since(start)}
	}()
}

// budget returns the next search's bounds: the clock's share of time (st,
// or level with time), the simulation cap (configured budget, sd).
func (e *Engine) budget() mcts.Budget {
	b := mcts.Budget{Simulations: e.cfg.Budget.Simulations}
	switch {
	case e.moveTime > 0:
		b.Time = e.moveTime * 95 / 100
	case e.clockKnown:
		togo := 40
		if e.mps > 0 {
			played := e.game.Len() / 2
			togo = e.mps - played%e.mps
		}
		t := e.clock/time.Duration(togo) + e.inc*9/10
		t = min(t, e.clock/2-50*time.Millisecond)
		b.Time = max(t, 20*time.Millisecond)
	case e.cfg.Budget.Time > 0:
		b.Time = e.cfg.Budget.Time
	}
	if e.depth > 0 {
		cap := 100 * e.depth
		if b.Simulations == 0 || cap < b.Simulations {
			b.Simulations = cap
		}
	}
	if b.Time == 0 {
		// untimed: still chunked, so "?" can stop it
		b.Time = 24 * time.Hour
	}
	return b
}

// stopThinking cancels a search; discard drops its move.
func (e *Engine) stopThinking(discard bool) {
	if e.thinking == nil {
		return
	}
	e.thinking.discard = discard
	e.thinking.cancel()
	r := <-e.thinking.done
	e.finishThinking(r)
}

// finishThinking plays and announces the move of a finished search.
func (e *Engine) finishThinking(r thinkResult) {
	t := e.thinking
	e.thinking = nil
	t.cancel()
	if t.discard {
		return
	}
	var m rules.Move
	switch {
	case r.err == nil && r.res != nil:
		m = r.res.Best
	case errors.Is(r.err, mcts.ErrGameOver):
		return
	default: // stopped before any result: the first legal move rather than none
		e.cfg.Log.Warn("cecp: search failed; playing the first legal move", "err", r.err)
		moves := e.game.LegalMoves()
		if len(moves) == 0 {
			return
		}
		m = moves[0]
	}
	if r.res != nil && !e.allowEnPrise {
		m = SafeMove(e.game, r.res, m)
	}
	text := e.game.Position().MoveString(m)
	if e.post && r.res != nil {
		score := int(math.Round(100 * r.res.RootValue))
		e.send("%d %d %d %d %s", 1, score, r.dur.Milliseconds()/10, r.res.Simulations, text)
	}
	if err := e.game.Play(m); err != nil {
		e.cfg.Log.Error("cecp: the search chose an illegal move", "move", text, "err", err)
		return
	}
	e.send("move %s", text)
	if res := e.game.Result(); res.Over() {
		e.send("%s {%s}", res.PGN(), res)
	}
}

// SafeMove returns the search's choice best in g unless it leaves one of
// the mover's royals attacked while another move does not: then the most
// visited of those. Chu has no rule against it (the King is simply
// taken), but XBoard, testing legality, forfeits such a move, and it is a
// blunder anyway. Variants with a check rule already forbid it.
func SafeMove(g *rules.Game, res *mcts.Result, best rules.Move) rules.Move {
	if g.Rules().Variant().CheckRule != rules.NoCheck || !exposes(g, best) {
		return best
	}
	pick, visits := best, int32(-1)
	for i, m := range res.Moves {
		if res.Visits[i] > visits && !exposes(g, m) {
			pick, visits = m, res.Visits[i]
		}
	}
	return pick
}

// exposes reports whether m leaves a royal of the mover attacked.
func exposes(g *rules.Game, m rules.Move) bool {
	pos := *g.Position()
	me := pos.SideToMove()
	pos.Make(m)
	var buf [4]rules.Square
	for _, sq := range pos.RoyalSquares(buf[:0], me) {
		if pos.Attacked(sq, me.Other()) {
			return true
		}
	}
	return false
}
