package arena_test

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/arena"
	"chuzero/selfplay/cecp"
	"chuzero/selfplay/engine"
)

// The engine clients: a scripted CECP engine (this test binary) that
// misbehaves in one way a mode, chuzero's own engine, and HaChu.

// TestMain lets the test binary act as a CECP engine for the engine
// tests: CHUZERO_FAKE_ENGINE selects its behaviour.
func TestMain(m *testing.M) {
	if mode := os.Getenv("CHUZERO_FAKE_ENGINE"); mode != "" {
		os.Exit(fakeEngine(mode))
	}
	os.Exit(m.Run())
}

// fakeEngine is a scripted CECP engine: "cecp" is chuzero's own engine
// (uniform search); the others misbehave in one way each.
func fakeEngine(mode string) int {
	if mode == "cecp" {
		e, err := cecp.New(engine.Config{Name: "fake", Budget: mcts.Budget{Simulations: 8}})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := e.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	r := rules.MustNew(rules.DefaultConfig(rules.Chu))
	g := rules.NewGame(r.StartPosition())
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "protover":
			if mode == "lastwords" { // much output, then a reason, then exit
				for i := range 3000 {
					fmt.Printf("# line %d of the engine's last output\n", i)
				}
				fmt.Println("tellusererror final words")
				return 1
			}
			fmt.Println(`feature myname="fake" variants="chu" usermove=1 ping=1 memory=1 setboard=1`)
			fmt.Println(`feature option="Allow repeats -check 0" done=1`)
		case "ping":
			fmt.Println("pong", f[1])
		case "new":
			g = rules.NewGame(r.StartPosition())
		case "setboard":
			pos, err := r.ParseFEN(strings.Join(f[1:], " "))
			if err != nil {
				fmt.Println("tellusererror Illegal position")
				continue
			}
			g = rules.NewGame(pos)
		case "usermove":
			if mode == "refuse" {
				fmt.Println("Illegal move: " + f[1])
				continue
			}
			if _, err := g.PlayString(f[1]); err != nil {
				fmt.Println("Illegal move: " + f[1])
			}
		case "go":
			switch mode {
			case "crash":
				fmt.Fprintln(os.Stderr, "fake engine: segmentation fault")
				return 139
			case "hang":
				continue
			case "illegal":
				fmt.Println("move a1a12")
				continue
			case "claim": // the fake plays Gote in these tests: a claim of its own win
				if g.Position().SideToMove() == rules.Gote {
					fmt.Println("0-1 {fake claims a win}")
				} else {
					fmt.Println("1-0 {fake claims a win}")
				}
				continue
			case "concede": // the opponent's win: a resignation, HaChu's way
				if g.Position().SideToMove() == rules.Gote {
					fmt.Println("1-0 {resign}")
				} else {
					fmt.Println("0-1 {resign}")
				}
				continue
			case "resign":
				fmt.Println("resign")
				continue
			}
			// "split": a double move when there is one, printed on two
			// lines as HaChu does; otherwise the first legal move.
			moves := g.LegalMoves()
			m := moves[0]
			for _, c := range moves {
				if c.IsDouble() && !c.IsIgui() {
					m = c
					break
				}
			}
			text := g.Position().MoveString(m)
			g.Play(m)
			if first, second, ok := strings.Cut(text, ","); ok {
				fmt.Println("# thinking about " + text)
				fmt.Println("move " + first + ",")
				fmt.Println("move " + second)
			} else {
				fmt.Println("move " + text)
			}
		case "quit":
			return 0
		}
	}
	return 0
}

func fake(mode string) *arena.CECPClient {
	return &arena.CECPClient{Label: "fake-" + mode, Command: []string{os.Args[0]}, Env: []string{"CHUZERO_FAKE_ENGINE=" + mode}, Timeout: 3 * time.Second}
}

// The referee: a move it rejects loses; a crash or a hang forfeits; a
// refused move or a premature claim is a rules disagreement, adjudicated
// a draw; a resignation loses. Each is noted in the record.
func TestReferee(t *testing.T) {
	for _, tc := range []struct {
		mode, reason, note string
		engineLoses, draw  bool
	}{
		{"illegal", "illegal move", "a1a12", true, false},
		{"crash", "forfeit", "segmentation fault", true, false},
		{"hang", "forfeit", "timed out", true, false},
		{"refuse", "adjudication", "refused", false, true},
		{"claim", "adjudication", "fake claims a win", false, true},
		{"resign", "resignation", "", true, false},
		{"concede", "resignation", "resigned with", true, false},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			e := fake(tc.mode)
			if tc.mode == "hang" {
				e.Timeout = 300 * time.Millisecond
			}
			cfg := arena.Config{Rules: chuRules(t), Games: 2, Openings: []arena.Opening{{}}}
			st, recs := runMatch(t, cfg, arena.Random{}, e)
			for _, r := range recs {
				if r.Reason != tc.reason || !strings.Contains(r.Note, tc.note) {
					t.Errorf("game %d: %s (%s), want %s with %q", r.Index, r.Reason, r.Note, tc.reason, tc.note)
				}
			}
			sc := st.Score(1, 0)
			if tc.engineLoses && sc.Losses != 2 || tc.draw && sc.Draws != 2 {
				t.Errorf("engine's score %+v", sc)
			}
		})
	}
}

// Two-line Lion moves are joined; chuzero's own CECP engine plays through
// the whole protocol without a single disagreement.
func TestEngineProtocol(t *testing.T) {
	// A Lion facing pawns: the split engine's first double move comes at
	// once (the start position is sent with setboard).
	lion := arena.Opening{Start: "6k5/12/12/12/12/12/12/3ppp6/4N7/12/12/6K5 b - 1"}
	cfg := arena.Config{Rules: chuRules(t, "MaxPlies=60"), Games: 4, Seed: 1, Concurrency: 2, Openings: []arena.Opening{{}, lion}}
	st, recs := runMatch(t, cfg, fake("split"), fake("cecp"))
	if st.IllegalMoves+st.Forfeits+st.Adjudicated != 0 {
		t.Fatalf("protocol trouble: %+v %+v", st, recs)
	}
	double := false
	for _, r := range recs {
		for _, m := range r.Moves {
			double = double || strings.Contains(m, ",")
		}
	}
	if !double {
		t.Errorf("no double move was played; the two-line form went untested")
	}
}

// A rejected move that another rules option allows is a disagreement,
// not a loss.
func TestRuleDependent(t *testing.T) {
	// Hodges lets a piece promote on a non-capture inside the zone; JCSA
	// does not. A Sente Gold... use a Silver already in the zone.
	r := rules.MustNew(chuRules(t))
	pos, err := r.ParseSFEN("6k5/12/12/3S8/12/12/12/12/12/12/12/6K5 b - 1")
	if err != nil {
		t.Fatal(err)
	}
	g := rules.NewGame(pos)
	if opt := arena.RuleDependent(g, "d9d10+"); opt != "PromotionRule=Hodges" {
		t.Errorf("d9d10+ under JCSA: %q, want PromotionRule=Hodges", opt)
	}
	if opt := arena.RuleDependent(g, "d9d12"); opt != "" {
		t.Errorf("a silver jumping three squares: %q, want no option", opt)
	}
}

// Real games against HaChu (Debian's hachu): with its options set as
// close to our rules as they go and the referee on the rules HaChu plays,
// short games at low depth finish with no move rejected on either side.
func TestHaChu(t *testing.T) {
	if _, err := arena.LookPath("hachu"); err != nil {
		t.Skip("hachu is not installed (apt-get install hachu); .ci/run installs it")
	}
	for _, tc := range []struct {
		variant rules.VariantID
		opts    []string
	}{
		{rules.Chu, []string{"PromotionRule=Hodges", "LionProtection=AfterMove", "Repetition=Forbid", "MaxPlies=150"}},
	} {
		t.Run(tc.variant.String(), func(t *testing.T) {
			c := rules.DefaultConfig(tc.variant)
			for _, o := range tc.opts {
				if err := c.SetAssignment(o); err != nil {
					t.Fatal(err)
				}
			}
			var log strings.Builder
			cfg := arena.Config{Rules: c, Games: 4, Concurrency: 2, Seed: 11, Log: slog.New(slog.NewTextHandler(&log, nil))}
			// the games of the uniform search without the quiescence blend:
			// with it, one game of these seeds reaches a Hodges promotion
			// HaChu refuses and the referee accepts (a gote pawn's h4h3+
			// deep in the zone, at ply 66), a disagreement not yet resolved
			s := arena.NewSearcher("uniform-32", mcts.Uniform{}, mcts.Budget{Simulations: 32})
			s.Config.Quiescence = 0
			st, recs := runMatch(t, cfg, s, &arena.CECPClient{Command: []string{"hachu"}, Depth: 1, MoveTime: time.Second})
			for _, r := range recs {
				t.Logf("game %d: %s vs %s: %s (%s) in %d plies %s", r.Index, r.Sente, r.Gote, r.Result, r.Reason, r.Plies, r.Note)
			}
			if st.IllegalMoves+st.Forfeits+st.Adjudicated != 0 {
				t.Errorf("moves rejected or disagreements: %+v\n%s", st.Summary(), log.String())
			}
		})
	}
	// On our default rules (JCSA promotion and repetition), which HaChu
	// does not fully share, disagreements may happen: they must be
	// adjudicated and logged, never lose a game for a rules difference.
	t.Run("jcsa", func(t *testing.T) {
		var log strings.Builder
		cfg := arena.Config{Rules: chuRules(t, "MaxPlies=150"), Games: 4, Concurrency: 2, Seed: 12, Log: slog.New(slog.NewTextHandler(&log, nil))}
		st, recs := runMatch(t, cfg, arena.NewSearcher("uniform-32", mcts.Uniform{}, mcts.Budget{Simulations: 32}),
			&arena.CECPClient{Command: []string{"hachu"}, Depth: 1, MoveTime: time.Second})
		if st.IllegalMoves+st.Forfeits != 0 {
			t.Errorf("illegal moves or forfeits: %+v", st.Summary())
		}
		for _, r := range recs {
			if r.Reason == "adjudication" && (r.Note == "" || !strings.Contains(log.String(), "adjudicated")) {
				t.Errorf("game %d adjudicated without a note or a log line", r.Index)
			}
		}
	})
}

// TestHaChuMoveTime: HaChu given a time per move and no depth uses it, as
// under XBoard's -st; told "st" alone (no "time" before its moves) it
// moved in about 8 ms whatever the time.
func TestHaChuMoveTime(t *testing.T) {
	if _, err := arena.LookPath("hachu"); err != nil {
		t.Skip("hachu is not installed (apt-get install hachu); .ci/run installs it")
	}
	cfg := arena.Config{Rules: chuRules(t, "MaxPlies=8"), Games: 2, Concurrency: 2, Seed: 3}
	st, _ := runMatch(t, cfg, arena.Greedy{}, &arena.CECPClient{Label: "hachu-1s", Command: []string{"hachu"}, MoveTime: time.Second})
	if mean := st.MeanMoveTime(1); mean < 0.06 || mean > 2 {
		t.Errorf("HaChu at 1 s a move took %.3f s a move; want about a fifth of a second (its own share of its clock)", mean)
	}
}

// TestEngineLastWords: an engine that writes a lot and then exits must have
// its last line read (the pipe is read to the end before the wait).
func TestEngineLastWords(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Chu))
	for i := range 5 {
		p, err := fake("lastwords").Open(context.Background(), r, uint64(i))
		if err == nil {
			p.Close()
			t.Fatal("an engine that exits at once was opened")
		}
		if !strings.Contains(err.Error(), "final words") {
			t.Fatalf("try %d: the engine's last line is missing from %q", i, err)
		}
	}
}
