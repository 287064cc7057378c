package cecp

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"chuzero/rules"
)

// handle runs one command; it reports "quit".
func (e *Engine) handle(ctx context.Context, line string) (quit bool) {
	defer func() {
		if p := recover(); p != nil { // never crash on input: report and carry on
			e.cfg.Log.Error("cecp: internal error", "command", line, "panic", p, "stack", string(debug.Stack()))
			e.send("Error (internal error): %s", strings.TrimSpace(line))
		}
	}()
	line = strings.TrimSpace(line)
	if line == "" {
		return false
	}
	e.cfg.Log.Debug("cecp <", "line", line)
	cmd, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	if e.handleAnytime(cmd, arg, line) {
		return false
	}
	e.waitForSearch(cmd)
	return e.handleCommand(ctx, cmd, arg, line)
}

// handleAnytime runs the commands that may come while the engine thinks
// and leave its search alone; it reports whether cmd was one of them.
func (e *Engine) handleAnytime(cmd, arg, line string) bool {
	switch cmd {
	case "?":
		if e.thinking != nil {
			e.thinking.cancel()
		}
	case "post":
		e.post = true
	case "nopost":
		e.post = false
	case "easy", "hard", ".", "computer", "random", "accepted", "rejected", "name", "rating", "ics", "hint", "bk", "draw", "cores", "egtpath":
	case "time", "otim":
		e.setClock(cmd, arg, line)
	default:
		return false
	}
	return true
}

// waitForSearch ends the search in progress, if any, before cmd: a game
// command discards it, the rest (ping, usermove) lets it finish and move
// first.
func (e *Engine) waitForSearch(cmd string) {
	if e.thinking == nil {
		return
	}
	switch cmd {
	case "force", "new", "quit", "result", "setboard", "undo", "remove", "variant", "edit", "white", "black", "exit":
		e.stopThinking(true)
	default:
		r := <-e.thinking.done
		e.finishThinking(r)
	}
}

// handleCommand runs a command that waits for the search; it reports
// "quit".
func (e *Engine) handleCommand(ctx context.Context, cmd, arg, line string) (quit bool) {
	switch cmd {
	case "xboard":
	case "protover":
		e.protoVersion, _ = strconv.Atoi(arg)
		e.features()
	case "quit":
		return true
	case "new":
		e.newGame(line)
	case "variant":
		e.setVariant(arg, line)
	case "force", "result":
		e.force = true
	case "go":
		e.force = false
		e.engineSide = e.game.Position().SideToMove()
		e.maybeThink(ctx)
	case "playother":
		e.force = false
		e.engineSide = e.game.Position().SideToMove().Other()
	case "white", "black": // protocol 1: the side to move, and the engine plays the other
		e.force = true
		e.engineSide = map[string]rules.Color{"white": rules.Gote, "black": rules.Sente}[cmd]
	case "usermove":
		e.userMove(ctx, arg, line)
	case "setboard":
		e.setBoard(arg)
	case "level":
		e.setLevel(arg, line)
	case "st":
		e.setMoveTime(arg, line)
	case "sd":
		e.setInt(&e.depth, 0, "depth", arg, line)
	case "memory":
		e.setInt(&e.memoryMB, 1, "memory size", arg, line)
	case "ping":
		e.send("pong %s", arg)
	case "undo", "remove":
		e.undo(cmd, line)
	case "option":
		e.setOption(arg, line)
	case "edit", "analyze", "exit":
		e.send("Error (unknown command): %s", line)
	default:
		if looksLikeMove(cmd) && arg == "" { // a bare move (an engine without usermove=1 gets these)
			e.userMove(ctx, cmd, line)
		} else {
			e.send("Error (unknown command): %s", line)
		}
	}
	return false
}

// newGame handles "new": a game of the current variant from its start,
// the engine playing Gote.
func (e *Engine) newGame(line string) {
	e.force = false
	e.engineSide = rules.Gote
	e.depth = 0 // the protocol: new sets the depth back to unlimited
	if err := e.reset(e.variant); err != nil {
		e.send("Error (%v): %s", err, line)
	}
}

// setVariant handles "variant NAME": a new game of that variant.
func (e *Engine) setVariant(arg, line string) {
	v, err := rules.ParseVariant(arg)
	if err != nil || !e.offers(v) {
		e.send("Error (unsupported variant): %s", arg)
		return
	}
	if err := e.reset(v); err != nil {
		e.send("Error (%v): %s", err, line)
		return
	}
	e.announce()
}

// undo handles "undo" (take back one move) and "remove" (two).
func (e *Engine) undo(cmd, line string) {
	n := 1
	if cmd == "remove" {
		n = 2
	}
	if e.game.Len() < n {
		e.send("Error (command not legal now): %s", line)
		return
	}
	for range n {
		e.game.Undo()
	}
}

// looksLikeMove reports a word shaped like a machine-notation move.
func looksLikeMove(s string) bool {
	if s == "@@@@" || s == "0000" {
		return true
	}
	if len(s) < 4 || len(s) > 16 {
		return false
	}
	return s[0] >= 'a' && s[0] <= 'z' && s[1] >= '0' && s[1] <= '9'
}

// announce tells the GUI the board of an engine-defined variant.
func (e *Engine) announce() {
	if lines := SetupLines(e.rules); len(lines) > 0 {
		for _, l := range lines {
			e.send("%s", l)
		}
	}
}

// setBoard handles "setboard FEN" (XBoard FEN: "w" = Sente to move).
func (e *Engine) setBoard(fen string) {
	pos, err := e.rules.ParseFEN(fen)
	if err != nil {
		e.send("tellusererror Illegal position: %v", err)
		e.badPos = true
		return
	}
	e.game = rules.NewGame(pos)
	e.badPos = false
	if r := e.game.Result(); r.Over() {
		e.send("%s {%s}", r.PGN(), r)
	}
}

// userMove plays the GUI's move and, if it is then the engine's turn,
// thinks.
func (e *Engine) userMove(ctx context.Context, text, line string) {
	if text == "" {
		e.send("Error (missing move): %s", line)
		return
	}
	if e.badPos {
		e.send("Illegal move (illegal position): %s", text)
		return
	}
	if e.game.Result().Over() {
		e.send("Illegal move (the game is over): %s", text)
		return
	}
	m, err := e.game.Position().ParseMove(text)
	if err == nil {
		err = e.game.Play(m)
	}
	if err != nil {
		e.cfg.Log.Debug("cecp: illegal move", "move", text, "err", err)
		e.send("Illegal move: %s", text)
		return
	}
	if r := e.game.Result(); r.Over() {
		e.send("%s {%s}", r.PGN(), r)
		return
	}
	e.maybeThink(ctx)
}

// setLevel handles "level MPS BASE INC" (BASE in minutes or min:sec).
func (e *Engine) setLevel(arg, line string) {
	f := strings.Fields(arg)
	if len(f) != 3 {
		e.send("Error (bad time control): %s", line)
		return
	}
	mps, err1 := strconv.Atoi(f[0])
	base, err2 := parseMinutes(f[1])
	inc, err3 := strconv.ParseFloat(f[2], 64)
	if err1 != nil || err2 != nil || err3 != nil || mps < 0 || !(inc >= 0) || math.IsInf(inc, 0) {
		e.send("Error (bad time control): %s", line)
		return
	}
	e.mps, e.base, e.inc = mps, base, time.Duration(inc*float64(time.Second))
	e.moveTime = 0
	e.clock, e.clockKnown = base, base > 0
}

// setMoveTime handles "st SECONDS".
func (e *Engine) setMoveTime(arg, line string) {
	sec, err := strconv.ParseFloat(arg, 64)
	if err != nil || !(sec > 0) || math.IsInf(sec, 0) {
		e.send("Error (bad time): %s", line)
		return
	}
	e.moveTime = time.Duration(sec * float64(time.Second))
}

// setInt handles a command with a whole number of at least least ("sd
// DEPTH", "memory MB"): it sets *v, or answers "bad what".
func (e *Engine) setInt(v *int, least int, what, arg, line string) {
	n, err := strconv.Atoi(arg)
	if err != nil || n < least {
		e.send("Error (bad %s): %s", what, line)
		return
	}
	*v = n
}

// parseMinutes reads "5" (minutes) or "0:30" (minutes:seconds).
func parseMinutes(s string) (time.Duration, error) {
	m, sec, hasSec := strings.Cut(s, ":")
	mins, err := strconv.Atoi(m)
	if err != nil || mins < 0 {
		return 0, fmt.Errorf("bad minutes %q", s)
	}
	d := time.Duration(mins) * time.Minute
	if hasSec {
		secs, err := strconv.Atoi(sec)
		if err != nil || secs < 0 || secs > 59 {
			return 0, fmt.Errorf("bad seconds %q", s)
		}
		d += time.Duration(secs) * time.Second
	}
	return d, nil
}

// setClock handles "time N" (the engine's clock) and "otim N", in
// centiseconds.
func (e *Engine) setClock(cmd, arg, line string) {
	cs, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || cs < -1<<40 || cs > 1<<40 {
		e.send("Error (bad time): %s", line)
		return
	}
	if cmd == "time" {
		e.clock = max(time.Duration(cs)*10*time.Millisecond, 0)
		e.clockKnown = true
	}
}
