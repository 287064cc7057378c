package usi

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/engine"
)

// selfPlay plays a game of v between two engines over USI, as the
// Lishogi-Bot bridge drives one: "position startpos moves ..." and a go
// line with each side's clock, which the test keeps as lishogi does (time
// used is taken off; byoyomi is per move; an increment is added after the
// move). It fails if a move comes late, and returns the game.
func selfPlay(t *testing.T, v rules.VariantID, options []string, main, inc, byoyomi time.Duration, plies int, ponder bool) *rules.Game {
	t.Helper()
	return selfPlayTimed(t, v, options, main, inc, byoyomi, plies, ponder, nil)
}

// selfPlayTimed is selfPlay; with observe set, it reports each move's time
// used and the time it had (the clock plus the byoyomi) instead of
// failing on a late one.
func selfPlayTimed(t *testing.T, v rules.VariantID, options []string, main, inc, byoyomi time.Duration, plies int, ponder bool,
	observe func(used, allowed time.Duration)) *rules.Game {
	t.Helper()
	cfg := rules.DefaultConfig(v)
	for _, o := range options {
		name, value, _ := strings.Cut(o, "=")
		if err := cfg.Set(name, value); err != nil {
			t.Fatal(err)
		}
	}
	g := rules.NewGame(rules.MustNew(cfg).StartPosition())
	engines := [2]*session{newGameEngine(t, v, options), newGameEngine(t, v, options)}
	clock := [2]time.Duration{main, main}
	var moves []string
	var expected [2]string // each engine's ponder move
	hits := 0
	for ply := 0; ply < plies && !g.Result().Over(); ply++ {
		side := ply % 2
		s := engines[side]
		pos := "position startpos"
		if len(moves) > 0 {
			pos += " moves " + strings.Join(moves, " ")
		}
		goLine := fmt.Sprintf("go btime %d wtime %d", clock[0].Milliseconds(), clock[1].Milliseconds())
		if inc > 0 {
			goLine += fmt.Sprintf(" binc %d winc %d", inc.Milliseconds(), inc.Milliseconds())
		} else {
			goLine += fmt.Sprintf(" byoyomi %d", byoyomi.Milliseconds())
		}
		start := time.Now()
		switch {
		case ponder && expected[side] != "" && len(moves) > 0 && expected[side] == moves[len(moves)-1]:
			s.Send("ponderhit")
			hits++
		case ponder && expected[side] != "":
			s.Send("stop")
			s.Expect("bestmove ") // the ponder search's, dropped
			start = time.Now()
			s.Send(pos, goLine)
		default:
			s.Send(pos, goLine)
		}
		line, _ := s.Expect("bestmove ")
		used := time.Since(start)
		if observe != nil {
			observe(used, clock[side]+byoyomi)
		} else if used > clock[side]+byoyomi {
			t.Fatalf("ply %d: %v used of %v + byoyomi %v (%s)", ply, used, clock[side], byoyomi, goLine)
		}
		clock[side] = max(clock[side]-used, 0) + inc
		f := strings.Fields(line)
		if f[1] == "resign" {
			t.Fatalf("ply %d: resigned in a game not over", ply)
		}
		playUSI(t, g, f[1])
		moves = append(moves, f[1])
		expected[side] = ""
		if ponder && len(f) == 4 && !g.Result().Over() {
			expected[side] = f[3]
			s.Send("position startpos moves "+strings.Join(moves, " ")+" "+f[3], "go ponder"+strings.TrimPrefix(goLine, "go"))
		}
	}
	for _, s := range engines {
		s.Send("gameover draw", "quit")
	}
	t.Logf("%d plies, %d ponder hits: %s", g.Len(), hits, g.Result())
	return g
}

// newGameEngine is an engine set up for a game of v with the rules
// options given (Name=Value), searching by the clock alone.
func newGameEngine(t *testing.T, v rules.VariantID, options []string) *session {
	t.Helper()
	s := newSession(t, engine.Config{Budget: mcts.Budget{Simulations: 16}})
	s.Send("usi")
	s.Expect("usiok")
	s.Send("setoption name USI_Variant value "+variantNames[v], "setoption name Simulations value 0")
	for _, o := range options {
		name, value, _ := strings.Cut(o, "=")
		s.Send("setoption name " + name + " value " + value)
	}
	s.Send("usinewgame")
	if out := s.sync(); len(out) > 0 {
		t.Fatalf("setup: %q", out)
	}
	return s
}

// A full game of Sho (ended by a ply limit) at 200 ms byoyomi, pondering.
func TestSelfPlayGame(t *testing.T) {
	g := selfPlay(t, rules.Sho, []string{"MaxPlies=40"}, 0, 0, 200*time.Millisecond, 1000, true)
	if !g.Result().Over() {
		t.Fatalf("the game did not end: %d plies, %s", g.Len(), g.Result())
	}
}

// Chu at 1 s byoyomi (and 2 s of main time): every move comes in time.
func TestByoyomiInTime(t *testing.T) {
	if testing.Short() {
		t.Skip("10 s of clock")
	}
	selfPlay(t, rules.Chu, nil, 2*time.Second, 0, time.Second, 8, false)
}

// A Fischer clock, 1 s plus 100 ms a move: the clock never runs out.
func TestFischerInTime(t *testing.T) {
	if testing.Short() {
		t.Skip("clock")
	}
	selfPlay(t, rules.Chu, nil, time.Second, 100*time.Millisecond, 0, 16, false)
}

// go infinite reports info lines until stop, then bestmove.
func TestInfiniteStop(t *testing.T) {
	s := newSession(t, engine.Config{})
	s.Send("position startpos", "go infinite")
	s.Expect("info depth ") // the first second's line: the search goes on
	s.Send("stop")
	line, _ := s.Expect("bestmove ")
	g := rules.NewGame(rules.MustNew(rules.DefaultConfig(rules.Chu)).StartPosition())
	playUSI(t, g, strings.Fields(line)[1])
}

var overrunMoves = flag.Int("overrun-moves", 0, "TestOverrunReport: moves to play at 500 ms byoyomi, pondering off and on (0: skip)")

// TestOverrunReport plays Sho at 500 ms byoyomi (no main time) until
// -overrun-moves moves, pondering off and then on, and logs each mode's
// worst and median time over the allowed (negative: in time). Run it with
// the machine busy, e.g. beside a training job:
//
//	go test ./selfplay/usi -run TestOverrunReport -overrun-moves 200 -v
func TestOverrunReport(t *testing.T) {
	if *overrunMoves <= 0 {
		t.Skip("a measurement: give -overrun-moves N")
	}
	for _, ponder := range []bool{false, true} {
		var over []time.Duration
		for len(over) < *overrunMoves {
			selfPlayTimed(t, rules.Sho, []string{"MaxPlies=200"}, 0, 0, 500*time.Millisecond, *overrunMoves-len(over), ponder,
				func(used, allowed time.Duration) { over = append(over, used-allowed) })
		}
		slices.Sort(over)
		late := 0
		for _, d := range over {
			if d > 0 {
				late++
			}
		}
		t.Logf("ponder %v: %d moves, worst %v over the byoyomi, median %v, %d late", ponder, len(over),
			over[len(over)-1], over[len(over)/2], late)
		if late > 0 {
			t.Errorf("ponder %v: %d of %d moves late, the worst by %v", ponder, late, len(over), over[len(over)-1])
		}
	}
}
