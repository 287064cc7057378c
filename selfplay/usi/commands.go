package usi

import (
	"context"
	"errors"
	"runtime/debug"
	"strings"

	"chuzero/rules"
)

// handle runs one command; it reports "quit".
func (e *Engine) handle(ctx context.Context, line string) (quit bool) {
	defer func() {
		if p := recover(); p != nil { // never crash on input: report and carry on
			e.cfg.Log.Error("usi: internal error", "command", line, "panic", p, "stack", string(debug.Stack()))
			e.sendError("internal error: %s", clip(line))
		}
	}()
	line = strings.TrimSpace(line)
	if line == "" {
		return false
	}
	e.cfg.Log.Debug("usi <", "line", line)
	cmd, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch cmd { // the commands that may come during a search
	case "isready":
		e.send("readyok")
		return false
	case "stop":
		if e.thinking != nil {
			e.thinking.cancel()
		}
		return false
	case "ponderhit":
		e.ponderHit(ctx)
		return false
	case "quit":
		e.stopThinking(true)
		return true
	case "gameover":
		e.stopThinking(true)
		return false
	}
	// the rest: a search in progress ends first, with its bestmove (a GUI
	// should have sent stop)
	e.stopThinking(false)
	switch cmd {
	case "usi":
		e.identify()
	case "setoption":
		e.setOption(arg)
	case "usinewgame":
		if err := e.newPlayer(); err != nil {
			e.sendError("%v", err)
		}
	case "position":
		e.setPosition(arg)
	case "go":
		e.goCommand(ctx, arg)
	default:
		e.sendError("unknown command: %s", clip(line))
	}
	return false
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// setPosition handles "position startpos|sfen SFEN [moves M...]". A
// position refused (bad SFEN, an illegal move) leaves none: "go" then
// resigns.
func (e *Engine) setPosition(arg string) {
	e.game = nil
	f := strings.Fields(arg)
	r, err := e.currentRules()
	if err != nil {
		e.sendError("rules: %v", err)
		return
	}
	var g *rules.Game
	var rest []string
	switch {
	case len(f) > 0 && f[0] == "startpos":
		g, rest = rules.NewGame(r.StartPosition()), f[1:]
	case len(f) > 0 && f[0] == "sfen":
		n := 1
		for n < len(f) && f[n] != "moves" {
			n++
		}
		g, err = r.NewGameFromSFEN(strings.Join(f[1:n], " "))
		if err != nil {
			e.sendError("bad position: %v", err)
			return
		}
		rest = f[n:]
	default:
		e.sendError("position: want startpos or sfen: %s", clip(arg))
		return
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			e.sendError("position: want moves after the position, got %s", clip(rest[0]))
			return
		}
		rest = rest[1:]
	}
	for i, text := range rest {
		if g.Result().Over() {
			e.sendError("move %d %s: the game is over (%s)", i+1, clip(text), g.Result())
			return
		}
		m, err := parseMove(g, text)
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			e.sendError("illegal move %d %s in %s: %v", i+1, clip(text), g.Position().SFEN(), err)
			return
		}
	}
	e.game = g
}

// parseMove reads a USI move of g: lishogi's notation, or "pass" (what
// rules writes for a pass with no square to pass through).
func parseMove(g *rules.Game, text string) (rules.Move, error) {
	if text == "pass" {
		for _, m := range g.LegalMoves() {
			if m.IsPass() {
				return m, nil
			}
		}
		return rules.NoMove, errors.New("no pass is legal here")
	}
	return g.Position().ParseUSI(text)
}

// variantNames are lishogi's names of the variants (USI_Variant).
var variantNames = map[rules.VariantID]string{rules.Chu: "chushogi", rules.Sho: "shoshogi", rules.Heian: "heiandaishogi"}

// parseVariant reads a USI_Variant value: lishogi's name or ours.
func parseVariant(s string) (rules.VariantID, bool) {
	for v, n := range variantNames {
		if strings.EqualFold(s, n) {
			return v, true
		}
	}
	v, err := rules.ParseVariant(s)
	return v, err == nil
}
