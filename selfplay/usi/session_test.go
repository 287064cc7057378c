package usi

import (
	"strings"
	"testing"

	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/engine"
	"chuzero/selfplay/engine/enginetest"
)

// session drives an engine through a pipe, as a GUI or the Lishogi-Bot
// bridge would.
type session struct{ *enginetest.Session }

func newSession(t *testing.T, cfg engine.Config) *session {
	t.Helper()
	if cfg.Budget == (mcts.Budget{}) {
		cfg.Budget = mcts.Budget{Simulations: 16}
	}
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &session{enginetest.Start(t, e.Serve)}
}

// sync sends isready and returns everything before its readyok.
func (s *session) sync() []string {
	s.T.Helper()
	return s.Sync("isready", "readyok")
}

// bestmove sends go and returns the move (or "resign"), its ponder move
// and the info lines before it.
func (s *session) bestmove(goLine string) (move, ponder string, info []string) {
	s.T.Helper()
	s.Send(goLine)
	line, before := s.Expect("bestmove ")
	f := strings.Fields(line)
	move = f[1]
	if len(f) == 4 && f[2] == "ponder" {
		ponder = f[3]
	}
	return move, ponder, before
}

// playUSI plays text on g, failing the test if it is not legal.
func playUSI(t *testing.T, g *rules.Game, text string) {
	t.Helper()
	m, err := g.Position().ParseUSI(text)
	if err == nil {
		err = g.Play(m)
	}
	if err != nil {
		t.Fatalf("move %q in %s: %v", text, g.Position().SFEN(), err)
	}
}

// positionLine is the "position" command of g.
func positionLine(g *rules.Game) string {
	start := g.Start()
	line := "position sfen " + start.SFEN()
	if moves := g.Moves(); len(moves) > 0 {
		replay := rules.NewGame(start)
		line += " moves"
		for _, m := range moves {
			line += " " + replay.Position().USI(m)
			replay.Play(m)
		}
	}
	return line
}

// A line over the limit is answered with an error and skipped; the
// session goes on.
func TestOverlongLine(t *testing.T) {
	s := newSession(t, engine.Config{})
	s.Send("position startpos moves " + strings.Repeat("7g7f ", 300_000)) // 1.5 MB
	s.Expect("info string error line too long: position startpos moves 7g7f")
	s.Send("isready")
	s.Expect("readyok")
}

// A "go ponder" on a finished position holds its bestmove until stop or
// ponderhit (USI: never before).
func TestPonderOnFinishedPosition(t *testing.T) {
	s := newSession(t, engine.Config{})
	s.Send("setoption name USI_Variant value shoshogi", "setoption name MaxPlies value 2", "isready")
	s.Expect("readyok")
	for _, end := range []string{"stop", "ponderhit"} {
		s.Send("position startpos moves 7g7f 3c3d", "go ponder btime 0 wtime 0 byoyomi 100", "isready")
		if _, before := s.Expect("readyok"); len(before) != 1 || !strings.Contains(before[0], "game is over") {
			t.Fatalf("go ponder on a finished game answered %q before %s", before, end)
		}
		s.Send(end)
		s.Expect("bestmove resign")
	}
}
