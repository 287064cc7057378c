package usi

import (
	"context"
	"errors"
	"strings"

	"chuzero/rules"
	"chuzero/selfplay/engine"
)

// Handle implements engine.Handler: it runs one command.
func (s *handler) Handle(ctx context.Context, cmd, arg, line string) (quit bool) {
	e := (*Engine)(s)
	switch cmd { // the commands that may come during a search
	case "isready":
		e.Send("readyok")
		return false
	case "stop":
		e.Cancel()
		e.sendHeld()
		return false
	case "ponderhit":
		e.ponderHit(ctx)
		return false
	case "quit":
		e.Stop(true)
		return true
	case "gameover":
		e.Stop(true)
		e.held = "" // the game is over: nothing to answer
		return false
	}
	// the rest: a search in progress ends first, with its bestmove (a GUI
	// should have sent stop), and so does a held answer
	e.Stop(false)
	e.sendHeld()
	switch cmd {
	case "usi":
		e.identify()
	case "setoption":
		e.setOption(arg)
	case "usinewgame":
		if err := e.NewPlayer(); err != nil {
			e.sendError("%v", err)
		}
	case "position":
		e.setPosition(arg)
	case "go":
		e.goCommand(ctx, arg)
	default:
		e.sendError("unknown command: %s", line)
	}
	return false
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
		e.sendError("position: want startpos or sfen: %s", engine.Clip(arg))
		return
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			e.sendError("position: want moves after the position, got %s", engine.Clip(rest[0]))
			return
		}
		rest = rest[1:]
	}
	for i, text := range rest {
		if g.Result().Over() {
			e.sendError("move %d %s: the game is over (%s)", i+1, engine.Clip(text), g.Result())
			return
		}
		m, err := parseMove(g, text)
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			e.sendError("illegal move %d %s in %s: %v", i+1, engine.Clip(text), g.Position().SFEN(), err)
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
