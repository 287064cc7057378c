package cecp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/engine"
)

// mode is what a search is for.
type mode int

const (
	playing   mode = iota // the engine's move
	pondering             // the position after the expected reply ("hard")
	analysis              // "analyze": the current position, until "exit"
)

// note is the Tag of a search.
type note struct {
	mode   mode
	expect rules.Move // pondering: the reply expected
	hit    bool       // playing: the reply came as expected, on a pondered tree
}

// searchNote returns what the search in progress is for (ok false: none).
func (e *Engine) searchNote() (n note, ok bool) {
	t := e.Thinking()
	if t == nil {
		return note{}, false
	}
	n, _ = t.Tag.(note)
	return n, true
}

// maybeThink starts a search if the engine is to move.
func (e *Engine) maybeThink(ctx context.Context) {
	n := note{mode: playing}
	if e.pondered != rules.NoMove {
		n.hit = e.game.Len() > 0 && e.game.MoveAt(e.game.Len()-1) == e.pondered
		e.pondered = rules.NoMove
	}
	if e.analyzing || e.force || e.Thinking() != nil || e.badPos || e.game.Result().Over() || e.game.Position().SideToMove() != e.engineSide {
		return
	}
	b := e.budget()
	bounds := engine.Bounds{Think: b.Time, Sims: b.Simulations, MaxNodes: e.maxNodes()}
	e.Think(ctx, e.game, bounds, n, e.reporter(false))
}

// analyze starts the analysis of the current position (on a copy: the
// GUI's commands may read the game meanwhile).
func (e *Engine) analyze(ctx context.Context) {
	if e.badPos || e.game.Result().Over() {
		return
	}
	e.stat.Store(nil)
	bounds := engine.Bounds{MaxNodes: e.maxNodes(), Endless: true}
	e.Think(ctx, e.game.Clone(), bounds, note{mode: analysis}, e.reporter(true))
}

// maybePonder starts thinking on the reply the principal variation o
// expects after the engine's move, if pondering is on.
func (e *Engine) maybePonder(ctx context.Context, played rules.Move, o engine.Outcome) {
	if !e.ponder || e.force || e.game.Result().Over() || len(o.Lines) == 0 {
		return
	}
	pv := o.Lines[0].Moves
	if len(pv) < 2 || pv[0] != played {
		return
	}
	g := e.game.Clone()
	if g.Play(pv[1]) != nil || g.Result().Over() {
		return
	}
	bounds := engine.Bounds{MaxNodes: e.maxNodes(), Endless: true}
	e.Think(ctx, g, bounds, note{mode: pondering, expect: pv[1]}, e.reporter(false))
}

// reporter returns the progress callback of a search: thinking output if
// post is on (or always, for analysis), and the "stat01" line.
func (e *Engine) reporter(always bool) func(engine.Progress) {
	return func(p engine.Progress) {
		if always || e.post.Load() {
			e.sendThinking(p)
		}
		if always {
			e.stat.Store(statLine(p))
		}
	}
}

// sendThinking sends the thinking output of p: a line "depth score time
// nodes pv" per line of the search (time in centiseconds, score in
// centipawns, or 100000+N for a mate in N moves, -100000-N mated; nodes
// the playouts, or with several lines (MultiPV) each line's visits).
func (e *Engine) sendThinking(p engine.Progress) {
	for _, l := range p.Lines {
		nodes := p.Sims
		if len(p.Lines) > 1 {
			nodes = int(l.Visits)
		}
		score := engine.Centipawns(l.Value)
		if l.Mate != 0 {
			moves := (abs(l.Mate) + 1) / 2
			score = 100000 + moves
			if l.Mate < 0 {
				score = -score
			}
		}
		e.Send("%d %d %d %d %s", max(len(l.Moves), 1), score, p.Elapsed.Milliseconds()/10, nodes, moveLine(p.Game.Position(), l.Moves))
	}
}

// statLine returns the answer to "." for p: "stat01: time nodes depth
// movesleft movestotal bestmove".
func statLine(p engine.Progress) *string {
	best := ""
	depth := 0
	if len(p.Lines) > 0 && len(p.Lines[0].Moves) > 0 {
		best = " " + p.Game.Position().MoveString(p.Lines[0].Moves[0])
		depth = len(p.Lines[0].Moves)
	}
	s := fmt.Sprintf("stat01: %d %d %d 0 %d%s", p.Elapsed.Milliseconds()/10, p.Sims, depth, len(p.Game.LegalMoves()), best)
	return &s
}

// moveLine writes moves from pos in machine notation.
func moveLine(from *rules.Position, moves []rules.Move) string {
	pos := *from
	text := make([]string, len(moves))
	for i, m := range moves {
		text[i] = pos.MoveString(m)
		pos.Make(m)
	}
	return strings.Join(text, " ")
}

func abs(n int) int { return max(n, -n) }

// Finish implements engine.Handler: it plays and announces the move of a
// finished search, then ponders if it should. Pondering and analysis end
// only when stopped, and play nothing.
func (h *handler) Finish(ctx context.Context, o engine.Outcome) {
	e := (*Engine)(h)
	n, _ := o.Tag.(note)
	if n.mode != playing {
		if o.Err != nil && !errors.Is(o.Err, context.Canceled) {
			e.Cfg.Log.Warn("cecp: search failed", "err", o.Err)
		}
		return
	}
	if n.hit {
		e.Cfg.Log.Debug("cecp: ponder hit", "playouts", o.Sims, "kept", o.RootVisits-o.Sims)
	}
	var m rules.Move
	switch {
	case o.Err == nil && o.Res != nil:
		m = o.Res.Best
	case errors.Is(o.Err, mcts.ErrGameOver):
		return
	default: // stopped before any result: the first legal move rather than none
		e.Cfg.Log.Warn("cecp: search failed; playing the first legal move", "err", o.Err)
		moves := e.game.LegalMoves()
		if len(moves) == 0 {
			return
		}
		m = moves[0]
	}
	if o.Res != nil && !e.AllowEnPrise {
		m = engine.SafeMove(e.game, o.Res, m)
	}
	text := e.game.Position().MoveString(m)
	if e.post.Load() && o.Res != nil {
		e.sendThinking(o.Progress)
	}
	if err := e.game.Play(m); err != nil {
		e.Cfg.Log.Error("cecp: the search chose an illegal move", "move", text, "err", err)
		return
	}
	e.Send("move %s", text)
	if res := e.game.Result(); res.Over() {
		e.Send("%s {%s}", res.PGN(), res)
		return
	}
	e.maybePonder(ctx, m, o)
}
