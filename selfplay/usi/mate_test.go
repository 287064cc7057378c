package usi

import (
	"strings"
	"testing"

	"chuzero/rules"
	"chuzero/selfplay/engine"
)

// royalHangs: the Gote king on b12 stands next to the Sente gold on b11,
// unprotected; taking it ends the game.
const royalHangs = "1k10/1G10/12/12/8p3/12/12/12/8P3/12/12/11K b - 1"

// A won position: "score mate 1" on the winning line, "go mate" answers
// checkmate with it (at once, even when searching until stop); the start
// position has no mate to find.
func TestMate(t *testing.T) {
	s := newSession(t, engine.Config{})
	r := rules.MustNew(rules.DefaultConfig(rules.Chu))
	s.Send("position sfen " + royalHangs)
	move, _, info := s.bestmove("go nodes 300")
	f, pv := parseInfo(t, info[len(info)-1])
	if f["mate"] != "1" || len(pv) != 1 || pv[0] != move {
		t.Errorf("info %q for bestmove %s", info[len(info)-1], move)
	}
	g, err := r.NewGameFromSFEN(royalHangs)
	if err != nil {
		t.Fatal(err)
	}
	playUSI(t, g, move)
	if w, ok := g.Result().Winner(); !ok || w != rules.Sente {
		t.Errorf("%s does not win: %s", move, g.Result())
	}
	s.Send("go mate 300")
	line, _ := s.Expect("checkmate ")
	if line != "checkmate "+move {
		t.Errorf("go mate: %q, want checkmate %s", line, move)
	}
	s.Send("go mate infinite") // answered once the mate is found, without stop
	if line, _ := s.Expect("checkmate "); line != "checkmate "+move {
		t.Errorf("go mate infinite: %q, want checkmate %s", line, move)
	}
	s.Send("position startpos", "go mate 200")
	if line, _ := s.Expect("checkmate "); line != "checkmate timeout" {
		t.Errorf("go mate at the start: %q", line)
	}
	s.Send("go mate infinite")
	s.sync()
	s.Send("stop")
	if line, _ := s.Expect("checkmate "); line != "checkmate timeout" {
		t.Errorf("go mate infinite, stopped: %q", line)
	}
	s.Send("position sfen "+royalHangs+" moves "+move, "go mate 100")
	if line, _ := s.Expect("checkmate "); line != "checkmate nomate" {
		t.Errorf("go mate after the game's end: %q", line)
	}
	if strings.Contains(strings.Join(info, "\n"), "error") {
		t.Errorf("errors: %q", info)
	}
	s.Send("quit")
}
