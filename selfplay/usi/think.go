package usi

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/arena"
	"chuzero/selfplay/cecp"
)

// infoEvery is the interval of info lines during a long search; maxPV
// bounds the principal variation reported.
const (
	infoEvery = time.Second
	maxPV     = 32
)

// thought is a search in progress.
type thought struct {
	cancel  context.CancelFunc
	discard bool
	done    chan thinkResult
	game    *rules.Game
	limits  limits // kept for ponderhit
}

type thinkResult struct {
	res  *mcts.Result
	pv   []rules.Move
	sims int
	err  error
	dur  time.Duration
}

// goCommand handles "go": a search of the position, answered with
// bestmove, always (resign where there is no move to play).
func (e *Engine) goCommand(ctx context.Context, arg string) {
	l, err := parseGo(arg)
	if err != nil {
		e.sendError("%v; searching by the configured budget", err)
		l = limits{}
	}
	if e.game == nil {
		e.sendError("go: no position to search")
		e.send("bestmove resign")
		return
	}
	if e.game.Result().Over() || len(e.game.LegalMoves()) == 0 {
		e.send("info string the game is over: %s", e.game.Result())
		e.send("bestmove resign")
		return
	}
	e.startThinking(ctx, l)
}

// startThinking searches e.game on a goroutine of its own within l.
func (e *Engine) startThinking(ctx context.Context, l limits) {
	g := e.game
	think := l.thinkTime(g.Position().SideToMove(), e.overhead, e.cfg.Budget.Time)
	sims := e.cfg.Budget.Simulations
	endless := l.infinite || l.ponder
	switch {
	case endless:
		sims = 0
	case l.nodes > 0:
		sims = l.nodes
	case l.depth > 0 && (sims == 0 || 100*l.depth < sims):
		sims = 100 * l.depth
	case think == 0 && sims == 0:
		sims = 400
	}
	tctx, cancel := context.WithCancel(ctx)
	t := &thought{cancel: cancel, done: make(chan thinkResult, 1), game: g, limits: l}
	e.thinking = t
	player, maxNodes := e.player, e.hashMB<<20/mcts.NodeBytes
	go func() {
		r := e.runSearch(tctx, player, g, think, sims, maxNodes)
		if endless { // USI: no bestmove before stop or ponderhit
			<-tctx.Done()
		}
		t.done <- r
	}()
}

// runSearch searches g for think (0: no time bound) and sims playouts (0:
// no bound), in slices of infoEvery with an info line after each.
func (e *Engine) runSearch(ctx context.Context, p *arena.SearchPlayer, g *rules.Game, think time.Duration, sims, maxNodes int) thinkResult {
	start := time.Now()
	var last *mcts.Result
	total := 0
	p.MaxNodes = maxNodes
	for {
		slice := infoEvery
		if think > 0 {
			slice = max(min(slice, think-time.Since(start)), time.Millisecond)
		}
		p.Budget = mcts.Budget{Time: slice}
		if sims > 0 {
			p.Budget.Simulations = sims - total
		}
		res, err := p.Think(ctx, g)
		if err != nil {
			if last != nil && ctx.Err() != nil {
				break
			}
			return thinkResult{err: err, dur: time.Since(start)}
		}
		total += res.Simulations
		last = res
		elapsed := time.Since(start)
		if ctx.Err() != nil || (think > 0 && elapsed >= think) || (sims > 0 && total >= sims) || p.Search.NodeCount() >= maxNodes {
			break
		}
		e.send("%s", infoLine(g, last, p.Search.PV(maxPV), total, elapsed))
	}
	return thinkResult{res: last, pv: p.Search.PV(maxPV), sims: total, dur: time.Since(start)}
}

// ponderHit handles "ponderhit": the move pondered on was played, so the
// search goes on (on the same tree) as a timed one from now.
func (e *Engine) ponderHit(ctx context.Context) {
	t := e.thinking
	if t == nil || !t.limits.ponder {
		return
	}
	e.stopThinking(true)
	l := t.limits
	l.ponder = false
	e.startThinking(ctx, l)
}

// stopThinking ends a search; discard drops its bestmove.
func (e *Engine) stopThinking(discard bool) {
	if e.thinking == nil {
		return
	}
	e.thinking.discard = discard
	e.thinking.cancel()
	e.finishThinking(<-e.thinking.done)
}

// finishThinking announces the move of a finished search.
func (e *Engine) finishThinking(r thinkResult) {
	t := e.thinking
	e.thinking = nil
	t.cancel()
	if t.discard {
		return
	}
	g := t.game
	var m rules.Move
	if r.res != nil {
		m = r.res.Best
		if !e.allowEnPrise {
			m = cecp.SafeMove(g, r.res, m)
		}
		e.send("%s", infoLine(g, r.res, r.pv, r.sims, r.dur))
	} else {
		moves := g.LegalMoves()
		if len(moves) == 0 {
			e.send("bestmove resign")
			return
		}
		e.cfg.Log.Warn("usi: search failed; playing the first legal move", "err", r.err)
		m = moves[0]
	}
	text := g.Position().USI(m)
	if len(r.pv) > 1 && r.pv[0] == m {
		pos := *g.Position()
		pos.Make(m)
		text += " ponder " + pos.USI(r.pv[1])
	}
	e.send("bestmove %s", text)
}

// infoLine is the info line of a search: depth is the principal
// variation's length, nodes the playouts.
func infoLine(g *rules.Game, res *mcts.Result, pv []rules.Move, sims int, dur time.Duration) string {
	ms := dur.Milliseconds()
	nps := int64(sims) * 1000 / max(ms, 1)
	s := fmt.Sprintf("info depth %d nodes %d nps %d time %d score cp %d", max(len(pv), 1), sims, nps, ms, Centipawns(res.RootValue))
	if len(pv) == 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s + " pv")
	pos := *g.Position()
	for _, m := range pv {
		b.WriteString(" " + pos.USI(m))
		pos.Make(m)
	}
	return b.String()
}

// Centipawns maps a value v in [-1, 1] (for the side to move) to USI's
// centipawns: 400*atanh(v), clamped to [-3000, 3000]; the inverse of
// v = tanh(cp/400), i.e. a win probability (1+v)/2 = 1/(1+exp(-cp/200)).
func Centipawns(v float64) int {
	if math.IsNaN(v) {
		return 0
	}
	cp := 400 * math.Atanh(max(-1, min(1, v)))
	return int(math.Round(max(-3000, min(3000, cp))))
}
