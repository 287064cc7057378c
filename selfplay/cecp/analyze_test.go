package cecp

import (
	"context"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/engine"
)

// thinking matches a line of thinking output: depth score time nodes pv.
var thinking = regexp.MustCompile(`^(\d+) (-?\d+) (\d+) (\d+) (\S.*)$`)

// nextThinking reads lines until n lines of thinking output in a row and
// returns them, failing on anything but thinking output and stat01 lines.
func (s *session) nextThinking(n int) [][]string {
	s.T.Helper()
	var got [][]string
	for len(got) < n {
		select {
		case l, ok := <-s.Lines:
			if !ok {
				s.T.Fatal("the engine closed its output")
			}
			m := thinking.FindStringSubmatch(l)
			switch {
			case m != nil:
				got = append(got, m)
			case strings.HasPrefix(l, "stat01: "), strings.HasPrefix(l, "pong "):
				got = got[:0]
			default:
				s.T.Fatalf("unexpected line %q waiting for thinking output", l)
			}
		case <-time.After(20 * time.Second):
			s.T.Fatalf("no thinking output within 20s")
		}
	}
	return got
}

// legalLine plays a principal variation in machine notation on a copy
// of g, failing the test on a move that is not legal.
func legalLine(t *testing.T, g *rules.Game, pv string) {
	t.Helper()
	c := g.Clone()
	for _, m := range strings.Fields(pv) {
		if c.Result().Over() {
			t.Fatalf("pv %q goes on after the game's end", pv)
		}
		if _, err := c.PlayString(m); err != nil {
			t.Fatalf("pv %q: %s: %v", pv, m, err)
		}
	}
}

// Analyze mode: thinking output on the current position, again after
// each move and takeback, MultiPV lines, the "." status, and nothing after
// exit; the engine never moves while analysing.
func TestAnalyze(t *testing.T) {
	s := newSession(t, engine.Config{Budget: mcts.Budget{Simulations: 8}, ReportEvery: 5 * time.Millisecond, Variants: []rules.VariantID{rules.Sho}})
	s.Send("xboard", "protover 2")
	features, before := s.Expect("feature done=1")
	if all := strings.Join(append(before, features), "\n"); !strings.Contains(all, "analyze=1") || !strings.Contains(all, `option="MultiPV -spin 1 1 500"`) {
		t.Fatalf("features: %s", all)
	}
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	g := rules.NewGame(r.StartPosition())
	s.Send("new", "variant sho")
	s.sync() // the setup line
	s.Send("post", "analyze")
	for _, l := range s.nextThinking(3) {
		legalLine(t, g, l[5])
	}
	s.Send(".")
	if l, _ := s.Expect("stat01: "); len(strings.Fields(l)) != 7 {
		t.Errorf("status %q", l)
	}
	s.Send("usermove e3e4") // Sente's pawn in front of the King
	g.PlayString("e3e4")
	s.sync()
	for _, l := range s.nextThinking(3) {
		legalLine(t, g, l[5])
	}
	s.Send("option MultiPV=3")
	s.sync()
	lines := s.nextThinking(3)
	if first := map[string]bool{strings.Fields(lines[0][5])[0]: true, strings.Fields(lines[1][5])[0]: true, strings.Fields(lines[2][5])[0]: true}; len(first) != 3 {
		t.Errorf("MultiPV 3 lines do not start with three moves: %q", lines)
	}
	s.Send("undo")
	g.Undo()
	s.sync()
	for _, l := range s.nextThinking(3) {
		legalLine(t, g, l[5])
	}
	s.Send("exit", "ping 7")
	s.Expect("pong 7")
	if after := s.sync(); len(after) > 0 {
		t.Errorf("output after exit: %q", after)
	}
	s.Send("quit")
	if err := s.Wait(); err != nil {
		t.Error(err)
	}
}

// records collects log records, safely from several goroutines.
type records struct {
	mu   sync.Mutex
	msgs []string
}

func (r *records) Enabled(context.Context, slog.Level) bool { return true }
func (r *records) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *records) WithGroup(string) slog.Handler            { return r }
func (r *records) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	line := rec.Message
	rec.Attrs(func(a slog.Attr) bool { line += " " + a.String(); return true })
	r.msgs = append(r.msgs, line)
	return nil
}

func (r *records) find(prefix string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.msgs {
		if strings.HasPrefix(m, prefix) {
			return m
		}
	}
	return ""
}

// Pondering ("hard"): after its move the engine thinks on the expected
// reply; when that reply comes, the search goes on from the pondered tree
// (its root keeps the ponder's visits) and moves. "easy" stops it.
func TestPonder(t *testing.T) {
	log := &records{}
	s := newSession(t, engine.Config{Budget: mcts.Budget{Simulations: 64}, ReportEvery: 5 * time.Millisecond, Variants: []rules.VariantID{rules.Sho}, Log: slog.New(log)})
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	g := rules.NewGame(r.StartPosition())
	s.Send("xboard", "protover 2", "new", "variant sho", "hard", "post", "usermove e3e4")
	g.PlayString("e3e4")
	move, before := s.Expect("move ")
	if len(before) == 0 || thinking.FindStringSubmatch(before[len(before)-1]) == nil {
		t.Fatalf("no thinking output before %q: %q", move, before)
	}
	pv := strings.Fields(thinking.FindStringSubmatch(before[len(before)-1])[5])
	reply := strings.TrimPrefix(move, "move ")
	if len(pv) < 2 || pv[0] != reply {
		t.Fatalf("pv %q for %q", pv, move)
	}
	g.PlayString(reply)
	// pondering: thinking output on the position after the expected reply
	ponder := s.nextThinking(2)
	c := g.Clone()
	c.PlayString(pv[1])
	legalLine(t, c, ponder[1][5])
	s.Send("usermove " + pv[1])
	second, _ := s.Expect("move ")
	if _, err := c.PlayString(strings.TrimPrefix(second, "move ")); err != nil {
		t.Fatalf("%q after the pondered reply: %v", second, err)
	}
	s.Send("easy")
	s.sync()
	hit := log.find("cecp: ponder hit")
	kept := 0
	if i := strings.Index(hit, "kept="); i >= 0 {
		kept, _ = strconv.Atoi(hit[i+len("kept="):])
	}
	if kept <= 0 {
		t.Errorf("ponder hit kept nothing of the pondered tree: %q", hit)
	}
	s.Send("quit")
	if err := s.Wait(); err != nil {
		t.Error(err)
	}
}
