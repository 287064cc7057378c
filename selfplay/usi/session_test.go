package usi

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/engine"
)

// session drives an engine through a pipe, as a GUI or the Lishogi-Bot
// bridge would.
type session struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func newSession(t *testing.T, cfg Config) *session {
	t.Helper()
	if cfg.Budget == (mcts.Budget{}) {
		cfg.Budget = mcts.Budget{Simulations: 16}
	}
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, lines: make(chan string, 10000), done: make(chan error, 1)}
	go func() {
		err := e.Serve(context.Background(), inR, outW)
		outW.Close()
		inR.Close()
		s.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		<-s.done
		for range s.lines {
		}
	})
	return s
}

func (s *session) send(lines ...string) {
	s.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l+"\n"); err != nil {
			s.t.Fatalf("send %q: %v", engine.Clip(l), err)
		}
	}
}

// expect reads lines until one starts with prefix and returns it with the
// lines before it.
func (s *session) expect(prefix string) (string, []string) {
	s.t.Helper()
	var before []string
	timeout := time.After(60 * time.Second)
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("the engine closed its output waiting for %q (after %q)", prefix, before)
			}
			if strings.HasPrefix(l, prefix) {
				return l, before
			}
			before = append(before, l)
		case <-timeout:
			s.t.Fatalf("no %q within 60s (got %q)", prefix, before)
		}
	}
}

// sync sends isready and returns everything before its readyok.
func (s *session) sync() []string {
	s.t.Helper()
	s.send("isready")
	_, before := s.expect("readyok")
	return before
}

// bestmove sends go and returns the move (or "resign"), its ponder move
// and the info lines before it.
func (s *session) bestmove(goLine string) (move, ponder string, info []string) {
	s.t.Helper()
	s.send(goLine)
	line, before := s.expect("bestmove ")
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
