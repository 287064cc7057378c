package usi

import (
	"context"
	"fmt"
	"strings"
	"time"

	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/engine"
)

// goCommand handles "go": a search of the position, answered with
// bestmove, always (resign where there is no move to play), or for "go
// mate" with checkmate.
func (e *Engine) goCommand(ctx context.Context, arg string) {
	received := time.Now()
	l, err := parseGo(arg)
	if err != nil {
		e.sendError("%v; searching by the configured budget", err)
		l = limits{}
	}
	over := e.game == nil || e.game.Result().Over() || len(e.game.LegalMoves()) == 0
	switch {
	case e.game == nil:
		e.sendError("go: no position to search")
	case over:
		e.Send("info string the game is over: %s", e.game.Result())
	}
	if over {
		switch {
		case l.mate:
			e.Send("checkmate nomate")
		case l.ponder || l.infinite: // held until stop or ponderhit
			e.held = "bestmove resign"
		default:
			e.Send("bestmove resign")
		}
		return
	}
	e.startThinking(ctx, l, received)
}

// startThinking searches e.game on a goroutine of its own within l; the
// clock runs from received, when the command came (what passed since, in
// a ponder search's stop, say, counts against the time).
func (e *Engine) startThinking(ctx context.Context, l limits, received time.Time) {
	g := e.game
	think := l.thinkTime(g.Position().SideToMove(), e.overhead, e.Cfg.Budget.Time)
	if think > 0 {
		think = max(think-time.Since(received), time.Millisecond)
	}
	b := engine.Bounds{
		Think:    think,
		Sims:     e.Cfg.Budget.Simulations,
		MaxNodes: e.hashMB << 20 / mcts.NodeBytes,
		Endless:  (l.infinite || l.ponder) && !l.mate, // USI: no bestmove before stop or ponderhit
	}
	if l.mate { // answered once a mate is found, else at the time or stop
		b.Until = func(p engine.Progress) bool { return len(p.Lines) > 0 && p.Lines[0].Mate > 0 }
	}
	switch {
	case b.Endless || l.mate:
		b.Sims = 0
	case l.nodes > 0:
		b.Sims = l.nodes
	case l.depth > 0 && (b.Sims == 0 || 100*l.depth < b.Sims):
		b.Sims = 100 * l.depth
	case b.Think == 0 && b.Sims == 0:
		b.Sims = engine.NoClockSimulations
	}
	e.Think(ctx, g, b, l, func(p engine.Progress) { e.sendInfo(p) })
}

// ponderHit handles "ponderhit": the move pondered on was played, so the
// search goes on (on the same tree) as a timed one from now.
func (e *Engine) ponderHit(ctx context.Context) {
	t := e.Thinking()
	if t == nil {
		e.sendHeld()
		return
	}
	l, _ := t.Tag.(limits)
	if !l.ponder {
		return
	}
	received := time.Now()
	e.Stop(true)
	l.ponder = false
	e.startThinking(ctx, l, received)
}

// Finish implements engine.Handler: it announces the move of a finished
// search.
func (s *handler) Finish(_ context.Context, o engine.Outcome) {
	e := (*Engine)(s)
	g := o.Game
	if l, _ := o.Tag.(limits); l.mate {
		e.finishMate(o)
		return
	}
	var m rules.Move
	if o.Res != nil {
		m = o.Res.Best
		if !e.AllowEnPrise {
			m = engine.SafeMove(g, o.Res, m)
		}
		e.sendInfo(o.Progress)
	} else {
		moves := g.LegalMoves()
		if len(moves) == 0 {
			e.Send("bestmove resign")
			return
		}
		e.Cfg.Log.Warn("usi: search failed; playing the first legal move", "err", o.Err)
		m = moves[0]
	}
	text := g.Position().USI(m)
	if len(o.Lines) > 0 && len(o.Lines[0].Moves) > 1 && o.Lines[0].Moves[0] == m {
		pos := *g.Position()
		pos.Make(m)
		text += " ponder " + pos.USI(o.Lines[0].Moves[1])
	}
	e.Send("bestmove %s", text)
}

// finishMate answers "go mate": the principal variation if it mates, else
// "checkmate timeout" (a tree search cannot prove there is none).
func (e *Engine) finishMate(o engine.Outcome) {
	e.sendInfo(o.Progress)
	if len(o.Lines) == 0 || o.Lines[0].Mate <= 0 {
		e.Send("checkmate timeout")
		return
	}
	e.Send("checkmate %s", usiLine(o.Game.Position(), o.Lines[0].Moves))
}

// usiLine writes moves from pos in USI notation.
func usiLine(from *rules.Position, moves []rules.Move) string {
	pos := *from
	var b strings.Builder
	for i, m := range moves {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(pos.USI(m))
		pos.Make(m)
	}
	return b.String()
}

// sendInfo sends the info lines of a search: depth is each line's
// length, seldepth the deepest playout, nodes the playouts; "multipv K"
// when there are several, then "info string visits M V ..." with each
// line's first move and visits; the score "mate N" for a line that ends
// the game decisively with the search sure of it (engine.MateValue), else
// "cp".
func (e *Engine) sendInfo(p engine.Progress) {
	defer e.sendVisits(p)
	ms := p.Elapsed.Milliseconds()
	nps := int64(p.Sims) * 1000 / max(ms, 1)
	for k, l := range p.Lines {
		var b strings.Builder
		b.WriteString("info")
		if len(p.Lines) > 1 {
			fmt.Fprintf(&b, " multipv %d", k+1)
		}
		fmt.Fprintf(&b, " depth %d seldepth %d nodes %d nps %d time %d", max(len(l.Moves), 1), max(p.SelDepth, len(l.Moves), 1), p.Sims, nps, ms)
		if l.Mate != 0 {
			fmt.Fprintf(&b, " score mate %d", l.Mate)
		} else {
			fmt.Fprintf(&b, " score cp %d", engine.Centipawns(l.Value))
		}
		if len(l.Moves) > 0 {
			b.WriteString(" pv " + usiLine(p.Game.Position(), l.Moves))
		}
		e.Send("%s", b.String())
	}
}

// sendVisits sends the visits of the MultiPV lines' first moves.
func (e *Engine) sendVisits(p engine.Progress) {
	if len(p.Lines) < 2 {
		return
	}
	var b strings.Builder
	b.WriteString("info string visits")
	for _, l := range p.Lines {
		if len(l.Moves) > 0 {
			fmt.Fprintf(&b, " %s %d", p.Game.Position().USI(l.Moves[0]), l.Visits)
		}
	}
	e.Send("%s", b.String())
}

// sendHeld sends the held answer of a "go ponder" or "go infinite" on a
// finished position, if any.
func (e *Engine) sendHeld() {
	if e.held != "" {
		e.Send("%s", e.held)
		e.held = ""
	}
}
