package cecp

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/engine"
	"chuzero/selfplay/engine/enginetest"
)

// session drives an engine through a pipe, as a GUI would.
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

// sync sends a ping and returns everything before its pong.
func (s *session) sync() []string {
	s.T.Helper()
	return s.Sync("ping 99", "pong 99")
}

func TestHandshake(t *testing.T) {
	s := newSession(t, engine.Config{Name: "chuzero test"})
	s.Send("xboard", "protover 2")
	done, before := s.Expect("feature done=1")
	all := strings.Join(append(before, done), "\n")
	for _, want := range []string{`myname="chuzero test"`, `variants="chu,sho,heian"`, "setboard=1", "usermove=1", "ping=1", "memory=1", "sigint=0",
		`option="Allow repeats -check 1"`, `option="Promote on entry -check 1"`, `option="PromotionRule -combo *JCSA /// Hodges"`} {
		if !strings.Contains(all, want) {
			t.Errorf("features lack %s:\n%s", want, all)
		}
	}
	s.Send("quit")
	if err := s.Wait(); err != nil {
		t.Errorf("quit: %v", err)
	}
}

// playMove checks that the engine's reply is a legal move of g and plays it.
func playReply(t *testing.T, g *rules.Game, line string) {
	t.Helper()
	text := strings.TrimPrefix(line, "move ")
	if _, err := g.PlayString(text); err != nil {
		t.Fatalf("engine move %q is illegal: %v", text, err)
	}
}

func TestGame(t *testing.T) {
	s := newSession(t, engine.Config{})
	s.Send("xboard", "protover 2")
	s.Expect("feature done=1")
	s.Send("memory 32", "new", "variant chu", "level 40 5 0", "post", "time 30000", "otim 30000")
	if extra := s.sync(); len(extra) > 0 {
		t.Errorf("variant chu sent %q; chu is built into XBoard", extra)
	}
	g := rules.NewGame(rules.MustNew(rules.DefaultConfig(rules.Chu)).StartPosition())
	for _, mv := range []string{"f4f5", "e4e5", "g4g5"} {
		if _, err := g.PlayString(mv); err != nil {
			t.Fatal(err)
		}
		s.Send("usermove " + mv)
		line, before := s.Expect("move ")
		if len(before) != 1 || len(strings.Fields(before[0])) != 5 { // one line of thinking output (post)
			t.Errorf("thinking output %q", before)
		}
		playReply(t, g, line)
	}
	// ping after a move: the pong comes after the engine's reply
	s.Send("usermove h4h5", "ping 7")
	g.PlayString("h4h5")
	line, _ := s.Expect("move ")
	playReply(t, g, line)
	s.Expect("pong 7")
	// remove takes back two plies: h4h5 is legal again
	s.Send("remove", "usermove h4h5")
	line, before := s.Expect("move ")
	for _, l := range before {
		if strings.HasPrefix(l, "Illegal") || strings.HasPrefix(l, "Error") {
			t.Errorf("after remove: %q", l)
		}
	}
	_ = line
	s.Send("quit")
	s.Wait()
}

// Force mode, go, playother, undo, and moves in every notation form the
// protocol sends: a two-leg Lion move on one line and the pass.
func TestForceAndLion(t *testing.T) {
	s := newSession(t, engine.Config{})
	s.Send("xboard", "protover 2")
	s.Expect("feature done=1")
	s.Send("new", "variant chu", "force")
	// Sente Lion on e4 facing Gote pawns on d5 e5 f5.
	s.Send("setboard 6k5/12/12/12/12/12/12/3ppp6/4N7/12/12/6K5 w - 1")
	s.Send("usermove e4e5,e5e6", "usermove g12g11", "usermove @@@@", "usermove g11h11")
	if out := s.sync(); len(out) > 0 {
		t.Fatalf("force mode: %q", out)
	}
	s.Send("undo", "usermove g11f11", "go")
	line, _ := s.Expect("move ")
	// the engine now plays Sente, after e4e5,e5e6 g12g11 @@@@ f12f11
	r := rules.MustNew(rules.DefaultConfig(rules.Chu))
	pos, _ := r.ParseFEN("6k5/12/12/12/12/12/12/3ppp6/4N7/12/12/6K5 w - 1")
	g := rules.NewGame(pos)
	for _, m := range []string{"e4e5,e5e6", "g12g11", "@@@@", "g11f11"} {
		if _, err := g.PlayString(m); err != nil {
			t.Fatal(m, err)
		}
	}
	playReply(t, g, line)
	s.Send("force", "undo", "undo", "playother")
	if out := s.sync(); len(out) > 0 {
		t.Fatalf("playother: %q", out)
	}
	s.Send("usermove @@@@") // Gote passes?  not with its King alone: illegal
	l, _ := s.Expect("Illegal move")
	if l != "Illegal move: @@@@" {
		t.Errorf("got %q", l)
	}
}

// Malformed and illegal input gets an error line and changes nothing;
// the engine never crashes.
func TestMalformed(t *testing.T) {
	s := newSession(t, engine.Config{})
	s.Send("xboard", "protover 2", "new", "variant chu", "force")
	s.Expect("feature done=1")
	for _, tc := range []struct{ send, want string }{
		{"usermove f4f9", "Illegal move: f4f9"},
		{"usermove zz99", "Illegal move: zz99"},
		{"usermove", "Error (missing move): usermove"},
		{"f4f9", "Illegal move: f4f9"},
		{"frobnicate 3", "Error (unknown command): frobnicate 3"},
		{"level 40 x 0", "Error (bad time control): level 40 x 0"},
		{"level 40", "Error (bad time control): level 40"},
		{"st -1", "Error (bad time): st -1"},
		{"st NaN", "Error (bad time): st NaN"},
		{"sd deep", "Error (bad depth): sd deep"},
		{"memory 0", "Error (bad memory size): memory 0"},
		{"time lots", "Error (bad time): time lots"},
		{"variant xiangqi", "Error (unsupported variant): xiangqi"},
		{"undo", "Error (command not legal now): undo"},
		{"option Repetition=Sometimes", "Error (unknown option or value): option Repetition=Sometimes"},
		{"option nonsense", "Error (bad option): option nonsense"},
		{"option Allow repeats=2", "Error (bad option value): option Allow repeats=2"},
		{"\x00\xff\xfe garbage", "Error (unknown command)"},
		{"usermove " + strings.Repeat("f4f5 ", 250_000), "Error (line too long): usermove f4f5"},
		{strings.Repeat("x", 5000), "Error (unknown command)"},
		{"setboard this is not a fen", "tellusererror Illegal position"},
		{"usermove f4f5", "Illegal move (illegal position): f4f5"},
	} {
		s.Send(tc.send)
		out := s.sync()
		if len(out) != 1 || !strings.HasPrefix(out[0], tc.want) {
			t.Errorf("%.40q: got %q, want %q", tc.send, out, tc.want)
		}
	}
	// new clears the bad position
	s.Send("new", "force", "usermove f4f5")
	if out := s.sync(); len(out) != 0 {
		t.Errorf("after new: %q", out)
	}
}

// The end of a game: the engine announces the result, and refuses moves.
func TestResult(t *testing.T) {
	s := newSession(t, engine.Config{})
	s.Send("xboard", "protover 2", "new", "variant chu", "force")
	// Sente's Rook takes the lone Gote King.
	s.Send("setboard 5k6/6p5/12/12/12/12/12/12/12/12/12/5RK5 w - 1", "usermove f1f12")
	l, _ := s.Expect("1-0")
	if !strings.Contains(l, "{") {
		t.Errorf("result line %q", l)
	}
	if !strings.Contains(l, "royal captured") {
		t.Errorf("result line %q", l)
	}
	s.Send("usermove g11g10")
	if l, _ := s.Expect("Illegal move"); !strings.Contains(l, "game is over") {
		t.Errorf("%q", l)
	}
	s.Send("result 1-0 {Sente wins}")
	if out := s.sync(); len(out) != 0 {
		t.Errorf("result: %q", out)
	}
}

// Sho and Heian are engine-defined: variant answers with setup (and
// piece) lines.
func TestVariantSetup(t *testing.T) {
	s := newSession(t, engine.Config{})
	s.Send("xboard", "protover 2")
	s.Expect("feature done=1")
	s.Send("new", "variant sho")
	out := s.sync()
	want := "setup (PNBRLSE..G.+++++++Kpnbrlse..g.+++++++k) 9x9+0_shogi lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w 0 1"
	if len(out) != 1 || out[0] != want {
		t.Errorf("variant sho: %q", out)
	}
	s.Send("usermove e3e4")
	line, _ := s.Expect("move ")
	g := rules.NewGame(rules.MustNew(rules.DefaultConfig(rules.Sho)).StartPosition())
	g.PlayString("e3e4")
	playReply(t, g, line)

	s.Send("new", "variant heian")
	out = s.sync()
	if len(out) < 2 || !strings.HasPrefix(out[0], "setup (") || !strings.Contains(out[0], ") 13x13+0_chu lnicsgkgscinl/") {
		t.Fatalf("variant heian: %q", out)
	}
	pieces := strings.Join(out[1:], "\n")
	for _, want := range []string{"piece P& fW", "piece N& ffN", "piece L& fR", "piece G& fWfFsWbW", "piece D& fBbB", "piece +P& fWfFsWbW"} {
		if !strings.Contains(pieces, want) {
			t.Errorf("heian pieces lack %q:\n%s", want, pieces)
		}
	}
}

// thinkingLine matches a line of thinking output: depth score time nodes pv.
var thinkingLine = regexp.MustCompile(`^\d+ -?\d+ \d+ \d+ `)

// expectThinking waits for the next line and checks that it is thinking
// output: a search is running.
func (s *session) expectThinking() {
	s.T.Helper()
	if l, _ := s.Expect(""); !thinkingLine.MatchString(l) {
		s.T.Fatalf("want thinking output (a search running), got %q", l)
	}
}

// "?" makes a long search move at once; "force" during a search discards
// it: a "?" after it finds nothing to move.
func TestMoveNow(t *testing.T) {
	s := newSession(t, engine.Config{Budget: mcts.Budget{Time: time.Hour}, ReportEvery: 5 * time.Millisecond})
	s.Send("xboard", "protover 2")
	s.Expect("feature done=1")
	s.Send("post", "new", "variant chu", "usermove f4f5")
	s.expectThinking() // the hour's search has started
	s.Send("?")
	s.Expect("move ")
	s.Send("usermove e4e5") // Sente's e-pawn: legal whatever Gote replied
	s.expectThinking()      // the next hour's search
	s.Send("force", "?")
	for _, l := range s.sync() {
		if strings.HasPrefix(l, "move") {
			t.Errorf("force did not discard the search: %q came after it", l)
		}
	}
}

// The engine's rules follow HaChu's option names and our own.
func TestRulesOptions(t *testing.T) {
	e, err := New(engine.Config{Rules: []string{"MaxPlies=300"}})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	in := "option Promote on entry=0\noption Allow repeats=0\noption BareKing=Off\nquit\n"
	if err := e.Serve(context.Background(), strings.NewReader(in), &out); err != nil || out.Len() > 0 {
		t.Fatalf("serve: %v, %q", err, out.String())
	}
	c, err := e.config(rules.Chu)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"PromotionRule": "Hodges", "Repetition": "Forbid", "BareKing": "Off", "MaxPlies": "300"} {
		if got, _ := c.Value(name); got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
	if _, err := New(engine.Config{Rules: []string{"Nonsense=1"}}); err == nil {
		t.Error("a bad rules option was accepted")
	}
}

// FuzzEngine feeds arbitrary command lines: the engine must answer
// without an internal error, whatever comes.
func FuzzEngine(f *testing.F) {
	for _, seed := range []string{"new\nvariant chu\nusermove f4f5", "setboard 6k5/12/12/12/12/12/12/12/12/12/12/5RK5 w - 1\nusermove f1f12",
		"level 0 0:30 1\ntime 100\ngo", "variant heian\nforce\nusermove a3a4\nundo\nremove", "option MaxPlies=5\nnew\ngo", "usermove e4e5,e5e6\n?",
		"hard\npost\nusermove f4f5\nusermove f9f8\neasy", "analyze\n.\nusermove f4f5\nundo\noption MultiPV=3\nexit\ngo",
		"post\nanalyze\nnew\nsetboard 6k5/12/12/12/12/12/12/12/12/12/12/5RK5 w - 1\n.\nexit"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, script string) {
		e, err := New(engine.Config{Budget: mcts.Budget{Simulations: 2}})
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		err = e.Serve(context.Background(), strings.NewReader(script+"\nquit\n"), &out)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), "internal error") {
			t.Fatalf("internal error on %q:\n%s", script, out.String())
		}
	})
}

// The terminal game: moves in both notations, errors, undo, the engine's
// replies, the end of a game.
func TestHuman(t *testing.T) {
	e, err := New(engine.Config{Budget: mcts.Budget{Simulations: 8}, Variants: []rules.VariantID{rules.Chu}})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	script := "P-7h\nf4f5\nnonsense\nmoves\nundo\nsfen\nhelp\nquit\n"
	if err := e.Human(context.Background(), strings.NewReader(script), &out, rules.Sente); err != nil {
		t.Fatal(err)
	}
	o := out.String()
	for _, want := range []string{"You play sente", "you played P-7h (f4f5)", "plays ", "not a legal move", "legal moves:",
		"lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1", "machine notation"} {
		if !strings.Contains(o, want) {
			t.Errorf("output lacks %q:\n%s", want, o)
		}
	}
	// playing Gote: the engine opens
	out.Reset()
	e2, _ := New(engine.Config{Budget: mcts.Budget{Simulations: 8}})
	e2.Human(context.Background(), strings.NewReader("quit\n"), &out, rules.Gote)
	if !strings.Contains(out.String(), "plays ") {
		t.Errorf("as Gote, the engine did not open:\n%s", out.String())
	}
}

func TestDiagram(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Chu))
	pos, _ := r.ParseSFEN("6k5/12/12/12/12/12/12/3p+p+D6/4N7/12/12/6K5 b - 1")
	d := Diagram(&pos)
	lines := strings.Split(d, "\n")
	if !strings.HasPrefix(lines[0], "     12 11 10") || !strings.Contains(lines[1], " k ") || !strings.HasSuffix(lines[1], "a") {
		t.Errorf("diagram:\n%s", d)
	}
	if !strings.Contains(d, " p +p +D") {
		t.Errorf("promoted pieces:\n%s", d)
	}
}

// In Chu the engine does not leave its King attacked when it has another
// move (XBoard would forfeit it), unless told to allow it.
func TestAvoidRoyalEnPrise(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		// random priors: the one playout goes to a different move per seed
		s := newSession(t, engine.Config{Budget: mcts.Budget{Simulations: 1}, Seed: seed, Eval: mcts.Random{Seed: seed}})
		s.Send("xboard", "protover 2", "new", "variant chu", "force")
		s.Expect("feature done=1")
		s.Send("setboard 1r9k/12/12/12/12/12/12/12/12/12/11P/K11 w - 1", "go")
		line, _ := s.Expect("move ")
		if m := strings.TrimPrefix(line, "move "); m == "a1b1" || m == "a1b2" {
			t.Fatalf("seed %d: the King stepped into the Rook's file: %s", seed, m)
		}
		s.Send("quit")
	}
}
