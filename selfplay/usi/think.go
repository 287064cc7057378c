package usi

import (
	"context"
	"fmt"
	"math"
	"sort"
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
	res   *mcts.Result
	lines []pvLine // lines[0]: the principal variation
	sims  int
	err   error
	dur   time.Duration
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
	player, maxNodes, multiPV := e.player, e.hashMB<<20/mcts.NodeBytes, e.multiPV
	go func() {
		r := e.runSearch(tctx, player, g, searchBounds{think, sims, maxNodes, multiPV})
		if endless { // USI: no bestmove before stop or ponderhit
			<-tctx.Done()
		}
		t.done <- r
	}()
}

// searchBounds bound a search: think (0: no time bound), sims playouts
// (0: no bound), maxNodes; multiPV is the lines to report.
type searchBounds struct {
	think                   time.Duration
	sims, maxNodes, multiPV int
}

// runSearch searches g within b, in slices of infoEvery with info lines
// after each.
func (e *Engine) runSearch(ctx context.Context, p *arena.SearchPlayer, g *rules.Game, b searchBounds) thinkResult {
	think, sims, maxNodes := b.think, b.sims, b.maxNodes
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
		e.sendInfo(g, topLines(p.Search, last, b.multiPV), total, elapsed)
	}
	return thinkResult{res: last, lines: topLines(p.Search, last, b.multiPV), sims: total, dur: time.Since(start)}
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
		e.sendInfo(g, r.lines, r.sims, r.dur)
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
	if len(r.lines) > 0 && len(r.lines[0].moves) > 1 && r.lines[0].moves[0] == m {
		pv := r.lines[0].moves
		pos := *g.Position()
		pos.Make(m)
		text += " ponder " + pos.USI(pv[1])
	}
	e.send("bestmove %s", text)
}

// pvLine is a line of the search with its value for the side to move.
type pvLine struct {
	moves []rules.Move
	value float64
}

// topLines returns the principal variation valued at the root value, or
// with multiPV > 1 the lines of the multiPV most visited root moves,
// valued at their mean values. Call it between searches.
func topLines(s *mcts.Search, res *mcts.Result, multiPV int) []pvLine {
	if multiPV <= 1 {
		return []pvLine{{s.PV(maxPV), res.RootValue}}
	}
	order := make([]int, len(res.Moves))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return res.Visits[order[a]] > res.Visits[order[b]] })
	var lines []pvLine
	for _, i := range order[:min(multiPV, len(order))] {
		if res.Visits[i] > 0 || len(lines) == 0 {
			lines = append(lines, pvLine{s.Line(res.Moves[i], maxPV), res.Q[i]})
		}
	}
	return lines
}

// sendInfo sends the info lines of a search: depth is each line's
// length, nodes the playouts; "multipv K" when there are several.
func (e *Engine) sendInfo(g *rules.Game, lines []pvLine, sims int, dur time.Duration) {
	ms := dur.Milliseconds()
	nps := int64(sims) * 1000 / max(ms, 1)
	for k, l := range lines {
		var b strings.Builder
		b.WriteString("info")
		if len(lines) > 1 {
			fmt.Fprintf(&b, " multipv %d", k+1)
		}
		fmt.Fprintf(&b, " depth %d nodes %d nps %d time %d score cp %d", max(len(l.moves), 1), sims, nps, ms, Centipawns(l.value))
		if len(l.moves) > 0 {
			b.WriteString(" pv")
		}
		pos := *g.Position()
		for _, m := range l.moves {
			b.WriteString(" " + pos.USI(m))
			pos.Make(m)
		}
		e.send("%s", b.String())
	}
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
