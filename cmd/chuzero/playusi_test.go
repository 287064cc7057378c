package main

import (
	"strings"
	"testing"

	"chuzero/model/modeltest"
	"chuzero/rules"
)

// USI through a real pipe, the protocol told by the first command, as the
// Lishogi-Bot bridge drives an engine: the handshake, options, a position
// with moves, a clock, a bad position, quit.
func TestPlayUSIPipe(t *testing.T) {
	p := startPlay(t, "-checkpoint", "none", "-sims", "16")
	p.send("usi")
	_, opts := p.expect("usiok")
	all := strings.Join(opts, "\n")
	if !strings.Contains(all, "id name chuzero (no network)") || !strings.Contains(all, "option name USI_Variant type combo default chushogi") {
		t.Errorf("usi: %s", all)
	}
	p.send("setoption name USI_Variant value shoshogi", "setoption name USI_Hash value 64", "isready")
	if _, before := p.expect("readyok"); len(before) > 0 {
		t.Errorf("setoption: %q", before)
	}
	g := rules.NewGame(rules.MustNew(rules.DefaultConfig(rules.Sho)).StartPosition())
	pos := g.Position()
	first := pos.USI(g.LegalMoves()[0])
	playUSIMove(t, g, first)
	p.send("usinewgame", "position startpos moves "+first, "go btime 1000 wtime 1000 byoyomi 300")
	line, info := p.expect("bestmove ")
	if len(info) == 0 || !strings.HasPrefix(info[len(info)-1], "info depth ") {
		t.Errorf("no info line before %q: %q", line, info)
	}
	playUSIMove(t, g, strings.Fields(line)[1])
	p.send("position sfen nonsense b - 1", "isready")
	if _, before := p.expect("readyok"); len(before) != 1 || !strings.HasPrefix(before[0], "info string error ") {
		t.Errorf("bad sfen: %q", before)
	}
	p.send("quit")
	for range p.lines { // the process ends
	}
}

// -protocol usi without the "usi" command first, and a network's engine:
// it offers the network's game only.
func TestPlayUSIForcedCheckpoint(t *testing.T) {
	dir := modeltest.FakeRun(t, rules.Sho, 10)
	p := startPlay(t, "-run", dir, "-sims", "8", "-protocol", "usi")
	p.send("isready")
	p.expect("readyok")
	p.send("setoption name USI_Variant value chushogi", "isready")
	if _, before := p.expect("readyok"); len(before) != 1 || !strings.Contains(before[0], "not offered") {
		t.Errorf("chushogi on a Sho network: %q", before)
	}
	p.send("usi")
	if _, opts := p.expect("usiok"); !strings.Contains(strings.Join(opts, "\n"), "default shoshogi var shoshogi\n") {
		t.Errorf("options: %q", opts)
	}
	p.send("setoption name USI_Variant value shoshogi", "position startpos", "go nodes 8")
	line, _ := p.expect("bestmove ")
	g := rules.NewGame(rules.MustNew(rules.DefaultConfig(rules.Sho)).StartPosition())
	playUSIMove(t, g, strings.Fields(line)[1])
	p.send("quit")
	for range p.lines {
	}
}

func playUSIMove(t *testing.T, g *rules.Game, text string) {
	t.Helper()
	m, err := g.Position().ParseUSI(text)
	if err == nil {
		err = g.Play(m)
	}
	if err != nil {
		t.Fatalf("move %q: %v", text, err)
	}
}

// -sims 0 is the clock alone: the engine starts, searches by the GUI's
// clock, and by NoClockSimulations playouts when the GUI sends none.
func TestPlayClockAlone(t *testing.T) {
	p := startPlay(t, "-checkpoint", "none", "-sims", "0")
	p.send("usi")
	_, opts := p.expect("usiok")
	if !strings.Contains(strings.Join(opts, "\n"), "option name Simulations type spin default 0") {
		t.Errorf("options: %q", opts)
	}
	p.send("setoption name USI_Variant value shoshogi", "isready")
	p.expect("readyok")
	p.send("position startpos", "go btime 0 wtime 0 byoyomi 300")
	p.expect("bestmove ")
	p.send("position startpos", "go")
	line, info := p.expect("bestmove ")
	if len(info) == 0 || !strings.Contains(info[len(info)-1], " nodes ") {
		t.Errorf("no info line before %q: %q", line, info)
	}
	p.send("quit")
	for range p.lines {
	}
}
