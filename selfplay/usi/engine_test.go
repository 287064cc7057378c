package usi

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/engine"
)

func TestHandshake(t *testing.T) {
	s := newSession(t, engine.Config{Name: "chuzero test"})
	s.Send("usi")
	_, lines := s.Expect("usiok")
	all := strings.Join(lines, "\n")
	for _, want := range []string{"id name chuzero test", "id author ",
		"option name USI_Variant type combo default chushogi var chushogi var shoshogi var heiandaishogi",
		"option name USI_Hash type spin default 1024 min 1", "option name Threads type spin", "option name Move Overhead type spin default 100", "option name Simulations type spin default 16",
		"option name Quiescence type spin default ", "option name PromotionRule type combo default JCSA var JCSA var Hodges", "option name MaxPlies type spin"} {
		if !strings.Contains(all, want) {
			t.Errorf("usi answer lacks %q:\n%s", want, all)
		}
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "id ") && !strings.HasPrefix(l, "option name ") {
			t.Errorf("stray line %q", l)
		}
	}
	s.Send("setoption name USI_Variant value shoshogi", "setoption name USI_Hash value 64", "setoption name Threads value 2",
		"setoption name Simulations value 24", "setoption name USI_Ponder value true", "setoption name MaxPlies value 300",
		"setoption name Hash value 256", "setoption name Move Overhead value 300", "setoption name Quiescence value 50", "usinewgame")
	if extra := s.sync(); len(extra) > 0 {
		t.Errorf("setoption answered %q", extra)
	}
	s.Send("position startpos moves ") // as the Lishogi-Bot bridge sends it
	move, _, info := s.bestmove("go")
	g := rules.NewGame(rules.MustNew(rules.DefaultConfig(rules.Sho)).StartPosition())
	playUSI(t, g, move)
	last := info[len(info)-1]
	f, pv := parseInfo(t, last)
	if f["nodes"] != "24" || f["nps"] == "" || f["time"] == "" || f["cp"] == "" || len(pv) == 0 || pv[0] != move {
		t.Errorf("info line %q for bestmove %s", last, move)
	}
	if depth := f["depth"]; depth != strconv.Itoa(len(pv)) {
		t.Errorf("depth %s, pv of %d moves: %q", depth, len(pv), last)
	}
	if sel, _ := strconv.Atoi(f["seldepth"]); sel < len(pv) {
		t.Errorf("seldepth %d, pv of %d moves: %q", sel, len(pv), last)
	}
	s.Send("quit")
	if err := s.Wait(); err != nil {
		t.Errorf("quit: %v", err)
	}
}

// A game from an SFEN, with a Lion double move and a pass among its
// moves, in each variant: the engine's reply must be legal there.
func TestPositionSFEN(t *testing.T) {
	for _, v := range rules.Variants {
		t.Run(v.String(), func(t *testing.T) {
			r := rules.MustNew(rules.DefaultConfig(v))
			g := rules.NewGame(r.StartPosition())
			rng := rand.New(rand.NewPCG(1, uint64(v)))
			for range 6 { // a start of game, then the SFEN of where it got to
				moves := g.LegalMoves()
				g.Play(moves[rng.IntN(len(moves))])
			}
			g = rules.NewGame(*g.Position())
			var double, pass bool
			for ply := 0; ply < 400 && !g.Result().Over() && !(double && pass); ply++ {
				moves := g.LegalMoves()
				m := moves[rng.IntN(len(moves))]
				for _, x := range moves {
					if x.IsDouble() && !double {
						m, double = x, true
					} else if x.IsPass() && !pass && double {
						m, pass = x, true
					}
				}
				g.Play(m)
			}
			if hasLion(v) && !(double && pass) {
				t.Fatalf("no Lion double move and pass in 400 random plies")
			}
			if g.Result().Over() {
				g.Undo()
			}
			s := newSession(t, engine.Config{})
			line := positionLine(g)
			if p := lastPass(g); p != "" { // "pass" is read too
				i := strings.LastIndex(line, " "+p)
				line = line[:i] + " pass" + line[i+1+len(p):]
			}
			s.Send("setoption name USI_Variant value "+variantNames[v], "usinewgame", line)
			if extra := s.sync(); len(extra) > 0 {
				t.Fatalf("%s: %q", line, extra)
			}
			move, ponder, _ := s.bestmove("go nodes 32")
			playUSI(t, g, move)
			if ponder != "" {
				playUSI(t, g, ponder)
			}
		})
	}
}

// MultiPV 3: three lines, each led by another move, the first the move
// played, each legal.
func TestMultiPV(t *testing.T) {
	s := newSession(t, engine.Config{})
	s.Send("setoption name USI_Variant value shoshogi", "setoption name MultiPV value 3", "position startpos")
	move, _, info := s.bestmove("go nodes 200")
	if len(info) < 3 {
		t.Fatalf("info %q", info)
	}
	seen := map[string]bool{}
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	visits := info[len(info)-1]
	info = info[:len(info)-1]
	if f := strings.Fields(visits); len(f) != 9 || f[1] != "string" || f[2] != "visits" || f[3] != move {
		t.Errorf("visits line %q", visits)
	}
	for k, l := range info[len(info)-3:] {
		f, pv := parseInfo(t, l)
		if f["multipv"] != strconv.Itoa(k+1) || len(pv) == 0 {
			t.Fatalf("line %d: %q", k+1, l)
		}
		if seen[pv[0]] || (k == 0 && pv[0] != move) {
			t.Errorf("line %d %q, bestmove %s", k+1, l, move)
		}
		seen[pv[0]] = true
		g := rules.NewGame(r.StartPosition())
		for _, m := range pv {
			playUSI(t, g, m)
		}
	}
}

// Every bad input gets one "info string error" line, and the engine
// plays on.
func TestBadInput(t *testing.T) {
	s := newSession(t, engine.Config{Variants: []rules.VariantID{rules.Chu, rules.Sho}})
	r := rules.MustNew(rules.DefaultConfig(rules.Chu))
	start := r.StartPosition()
	first := start.USI(rules.NewGame(start).LegalMoves()[0])
	for _, bad := range []string{
		"position", "position foo", "position sfen", "position sfen xyz b - 1", "position sfen 12/12 b - 1",
		"position sfen lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1",
		"position startpos moves 9z9z", "position startpos moves " + first + " " + first, "position startpos foo",
		"position startpos moves pass", "position startpos moves ,,,,", "position sfen " + strings.Repeat("1", 5000) + " b - 1",
		"setoption", "setoption name", "setoption name USI_Variant value minishogi", "setoption name USI_Variant value heiandaishogi",
		"setoption name USI_Hash value -1", "setoption name USI_Hash value 99999999999999999999", "setoption name Threads value x",
		"setoption name Simulations value -5", "setoption name PromotionRule value Nope", "setoption name NoSuch value 1",
		"setoption name AvoidRoyalEnPrise value maybe", "setoption name Quiescence value 101", "setoption name Quiescence value x", "setoption name USI_Ponder", "setoption value 3",
		"frobnicate", "\xff\xfe", strings.Repeat("x", 100000), "usi\x00", "position\tstartpos",
	} {
		s.Send(bad)
		out := s.sync()
		if len(out) != 1 || !strings.HasPrefix(out[0], "info string error ") {
			t.Errorf("%q: %q", engine.Clip(bad), out)
		}
	}
	// a refused position leaves none: go resigns rather than leave the
	// GUI waiting; so do bad go arguments, searched by the budget
	s.Send("position startpos moves 9z9z")
	if move, _, info := s.bestmove("go byoyomi 1000"); move != "resign" || len(info) != 2 {
		t.Errorf("go without a position: %s after %q", move, info)
	}
	s.Send("position startpos")
	for _, bad := range []string{"go btime", "go wtime abc", "go movetime 99999999999999999999", "go frob 3", "go nodes -3 depth"} {
		move, _, info := s.bestmove(bad)
		if move == "resign" || !strings.HasPrefix(info[0], "info string error ") {
			t.Errorf("%q: %s after %q", bad, move, info)
		}
	}
	// stray commands: no answer, no harm
	s.Send("stop", "ponderhit", "gameover win", "usinewgame")
	if out := s.sync(); len(out) > 0 {
		t.Errorf("stray commands answered %q", out)
	}
	// a finished game: resign
	s.Send("setoption name MaxPlies value 1")
	if out := s.sync(); len(out) > 0 {
		t.Errorf("MaxPlies 1: %q", out)
	}
	s.Send("position startpos moves " + first)
	if move, _, _ := s.bestmove("go nodes 8"); move != "resign" {
		t.Errorf("after the last ply: bestmove %s", move)
	}
	s.Send("setoption name MaxPlies value 0", "position startpos moves "+first)
	move, _, _ := s.bestmove("go nodes 8")
	g := rules.NewGame(r.StartPosition())
	playUSI(t, g, first)
	playUSI(t, g, move)
}

// FuzzEngine: no command stream crashes the engine or hangs it.
//
//	go test ./selfplay/usi -run '^$' -fuzz FuzzEngine -fuzztime 60s
func FuzzEngine(f *testing.F) {
	for _, seed := range []string{"usi\nisready\nposition startpos moves 7i7h\ngo nodes 4",
		"setoption name USI_Variant value shoshogi\nposition sfen lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1 moves 7g7f\ngo byoyomi 10",
		"position startpos\ngo infinite\nstop", "position startpos\ngo ponder btime 10 wtime 10\nponderhit\nstop",
		"setoption name MaxPlies value 2\nposition startpos moves 6i6h 6d6e\ngo", "position sfen 6k5/12/12/12/12/12/12/12/12/12/12/5RK5 b - 1\ngo movetime 5", "setoption name MultiPV value 4\nposition startpos moves \ngo depth 1"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, script string) {
		e, err := New(engine.Config{Budget: mcts.Budget{Simulations: 2}})
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		// an endless search (go infinite without stop) is ended by the
		// input's end
		if err := e.Serve(ctx, strings.NewReader(script+"\nstop\nquit\n"), &out); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), "internal error") {
			t.Fatalf("internal error on %q:\n%s", script, out.String())
		}
	})
}

func TestThinkTime(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		goArgs string
		side   rules.Color
		want   time.Duration
	}{
		{"btime 0 wtime 0 byoyomi 1000", rules.Sente, 800 * ms},              // 900 capped at 1000 - 200
		{"btime 60000 wtime 0 byoyomi 10000", rules.Sente, 10500 * ms},       // 1500 + 9000
		{"btime 60000 wtime 2000 binc 1000 winc 1000", rules.Gote, 950 * ms}, // 50 + 900
		{"btime 60000 wtime 300 binc 0 winc 0", rules.Gote, 20 * ms},         // the floor
		{"btime 60000 wtime 60000", rules.Sente, 1500 * ms},                  // a 40th
		{"movetime 2000", rules.Sente, 1900 * ms},                            //
		{"movetime 50", rules.Sente, 45 * ms},                                //
		{"byoyomi 10000", rules.Sente, 8900 * ms},                            // 10000 - 1100
		{"infinite", rules.Sente, 0}, {"nodes 30", rules.Sente, 0}, {"", rules.Gote, 0},
	} {
		l, err := parseGo(c.goArgs)
		if err != nil {
			t.Fatal(err)
		}
		if got := l.thinkTime(c.side, defaultOverhead, 0); got != c.want {
			t.Errorf("go %s (%v): %v, want %v", c.goArgs, c.side, got, c.want)
		}
	}
}

// hasLion reports whether v has a piece with Lion power.
func hasLion(v rules.VariantID) bool {
	d, _ := rules.Describe(v)
	for _, p := range d.Pieces {
		if p.Lion {
			return true
		}
	}
	return false
}

// lastPass is the USI text of the last pass of g.
func lastPass(g *rules.Game) string {
	replay := rules.NewGame(g.Start())
	text := ""
	for _, m := range g.Moves() {
		if m.IsPass() {
			text = replay.Position().USI(m)
		}
		replay.Play(m)
	}
	return text
}

// parseInfo reads an info line: its numbers by key ("score cp N" as
// "cp", "score mate N" as "mate") and its pv. Keys out of USI's order or
// unknown fail the test.
func parseInfo(t *testing.T, line string) (map[string]string, []string) {
	t.Helper()
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != "info" {
		t.Fatalf("not an info line: %q", line)
	}
	order := []string{"multipv", "depth", "seldepth", "nodes", "nps", "time", "score"}
	got := map[string]string{}
	at := 0
	for i := 1; i < len(f); i += 2 {
		if f[i] == "pv" {
			return got, f[i+1:]
		}
		for at < len(order) && order[at] != f[i] {
			at++
		}
		if at == len(order) || i+1 >= len(f) {
			t.Fatalf("info line %q: unexpected %q", line, f[i])
		}
		if f[i] == "score" {
			if i+2 >= len(f) || (f[i+1] != "cp" && f[i+1] != "mate") {
				t.Fatalf("info line %q: bad score", line)
			}
			got[f[i+1]] = f[i+2]
			i++
			continue
		}
		got[f[i]] = f[i+1]
	}
	return got, nil
}
