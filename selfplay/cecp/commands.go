package cecp

import (
	"context"
	"strconv"

	"chuzero/rules"
)

// Handle implements engine.Handler: it runs one command, then goes back
// to analysing if in analyze mode and the command stopped the analysis.
func (h *handler) Handle(ctx context.Context, cmd, arg, line string) (quit bool) {
	e := (*Engine)(h)
	if e.handleAnytime(cmd, arg, line) {
		return false
	}
	e.endSearchFor(cmd, arg)
	quit = e.handleCommand(ctx, cmd, arg, line)
	e.pondered = rules.NoMove // read by the move's search, if one started
	if e.analyzing && !quit && e.Thinking() == nil {
		e.analyze(ctx)
	}
	return quit
}

// handleAnytime runs the commands that may come while the engine thinks
// and leave its search alone; it reports whether cmd was one of them.
func (e *Engine) handleAnytime(cmd, arg, line string) bool {
	switch cmd {
	case "?":
		if n, ok := e.searchNote(); ok && n.mode == playing {
			e.Cancel()
		}
	case "post":
		e.post.Store(true)
	case "nopost":
		e.post.Store(false)
	case "hard":
		e.ponder = true
	case "easy":
		e.ponder = false
		if n, ok := e.searchNote(); ok && n.mode == pondering {
			e.Stop(true)
		}
	case ".":
		if s := e.stat.Load(); s != nil && e.analyzing {
			e.Send("%s", *s)
		}
	case "computer", "random", "accepted", "rejected", "name", "rating", "ics", "hint", "bk", "draw", "cores", "egtpath":
	case "time", "otim":
		e.setClock(cmd, arg, line)
	default:
		return false
	}
	return true
}

// gameCommands change the game or the engine's role in it: a search in
// progress is dropped before them.
var gameCommands = map[string]bool{
	"force": true, "new": true, "quit": true, "result": true, "setboard": true, "undo": true, "remove": true,
	"variant": true, "edit": true, "white": true, "black": true, "exit": true, "analyze": true,
	"go": true, "playother": true, "usermove": true,
}

// endSearchFor ends the search in progress, if it must, before cmd. A
// search for a move is dropped before a game command; before the others
// (ping, go, a move sent early) it finishes and moves first. Pondering and
// analysis are dropped before a game command or a move, and carry on
// under the others.
func (e *Engine) endSearchFor(cmd, arg string) {
	n, ok := e.searchNote()
	if !ok {
		return
	}
	move := cmd == "usermove" || (looksLikeMove(cmd) && arg == "")
	switch {
	case n.mode == playing && gameCommands[cmd] && !move && cmd != "go" && cmd != "playother":
		e.Stop(true)
	case n.mode == playing:
		e.Wait()
	case gameCommands[cmd] || move:
		if move && n.mode == pondering {
			e.pondered = n.expect
		}
		e.Stop(true)
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
	case "go", "playother":
		e.analyzing, e.force = false, false
		e.engineSide = e.game.Position().SideToMove()
		if cmd == "playother" {
			e.engineSide = e.engineSide.Other()
		}
		e.maybeThink(ctx)
	case "white", "black": // protocol 1: the side to move, and the engine plays the other
		e.force = true
		e.engineSide = map[string]rules.Color{"white": rules.Gote, "black": rules.Sente}[cmd]
	case "analyze":
		e.analyzing = true
	case "exit":
		e.analyzing = false
	case "usermove":
		e.userMove(ctx, arg, line)
	default:
		return e.handleSetting(ctx, cmd, arg, line)
	}
	return false
}

// handleSetting runs the commands that set the position, the clock and
// the options, and answers ping.
func (e *Engine) handleSetting(ctx context.Context, cmd, arg, line string) (quit bool) {
	switch cmd {
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
		e.Send("pong %s", arg)
	case "undo", "remove":
		e.undo(cmd, line)
	case "option":
		e.setOption(arg, line)
	case "edit":
		e.Send("Error (unknown command): %s", line)
	default:
		if looksLikeMove(cmd) && arg == "" { // a bare move (an engine without usermove=1 gets these)
			e.userMove(ctx, cmd, line)
		} else {
			e.Send("Error (unknown command): %s", line)
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
		e.Send("Error (%v): %s", err, line)
	}
}

// setVariant handles "variant NAME": a new game of that variant.
func (e *Engine) setVariant(arg, line string) {
	v, err := rules.ParseVariant(arg)
	if err != nil || !e.Offers(v) {
		e.Send("Error (unsupported variant): %s", arg)
		return
	}
	if err := e.reset(v); err != nil {
		e.Send("Error (%v): %s", err, line)
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
		e.Send("Error (command not legal now): %s", line)
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
			e.Send("%s", l)
		}
	}
}

// setBoard handles "setboard FEN" (XBoard FEN: "w" = Sente to move).
func (e *Engine) setBoard(fen string) {
	pos, err := e.rules.ParseFEN(fen)
	if err != nil {
		e.Send("tellusererror Illegal position: %v", err)
		e.badPos = true
		return
	}
	e.game = rules.NewGame(pos)
	e.badPos = false
	if r := e.game.Result(); r.Over() {
		e.Send("%s {%s}", r.PGN(), r)
	}
}

// userMove plays the GUI's move and, if it is then the engine's turn,
// thinks.
func (e *Engine) userMove(ctx context.Context, text, line string) {
	if text == "" {
		e.Send("Error (missing move): %s", line)
		return
	}
	if e.badPos {
		e.Send("Illegal move (illegal position): %s", text)
		return
	}
	if e.game.Result().Over() {
		e.Send("Illegal move (the game is over): %s", text)
		return
	}
	m, err := e.game.Position().ParseMove(text)
	if err == nil {
		err = e.game.Play(m)
	}
	if err != nil {
		e.Cfg.Log.Debug("cecp: illegal move", "move", text, "err", err)
		e.Send("Illegal move: %s", text)
		return
	}
	if r := e.game.Result(); r.Over() {
		e.Send("%s {%s}", r.PGN(), r)
		return
	}
	e.maybeThink(ctx)
}
