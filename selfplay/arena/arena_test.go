package arena_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/arena"
)

func chuRules(t *testing.T, opts ...string) rules.Config {
	t.Helper()
	c := rules.DefaultConfig(rules.Chu)
	for _, o := range opts {
		if err := c.SetAssignment(o); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func runMatch(t *testing.T, cfg arena.Config, players ...arena.Entrant) (*arena.Standings, []arena.GameRecord) {
	t.Helper()
	if cfg.Dir == "" {
		cfg.Dir = t.TempDir()
	}
	m, err := arena.New(cfg, players...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := m.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := arena.ReadGameRecords(filepath.Join(cfg.Dir, "games.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != st.Games {
		t.Fatalf("%d records for %d games", len(recs), st.Games)
	}
	for i := range recs {
		if _, err := recs[i].Replay(); err != nil {
			t.Errorf("record %d does not replay: %v", i, err)
		}
	}
	return st, recs
}

// Greedy beats random, games come in colour-swapped pairs over the same
// openings, and every file of the match is written.
func TestGreedyBeatsRandom(t *testing.T) {
	dir := t.TempDir()
	cfg := arena.Config{Rules: rules.DefaultConfig(rules.Sho), Games: 12, Concurrency: 3, Seed: 7, Dir: dir}
	st, recs := runMatch(t, cfg, arena.Greedy{}, arena.Random{})
	sc := st.Score(0, 1)
	if sc.Games() != 12 || sc.Wins <= sc.Losses+4 {
		t.Errorf("greedy vs random: %+v", sc)
	}
	byPair := map[int][]arena.GameRecord{}
	for _, r := range recs {
		byPair[r.Pair] = append(byPair[r.Pair], r)
	}
	for p, rs := range byPair {
		if len(rs) != 2 || rs[0].Sente != rs[1].Gote || strings.Join(rs[0].Moves[:rs[0].OpeningPlies], " ") != strings.Join(rs[1].Moves[:rs[1].OpeningPlies], " ") {
			t.Errorf("pair %d is not one opening with colours swapped: %+v", p, rs)
		}
		if rs[0].OpeningPlies != 6 {
			t.Errorf("opening of %d plies, want the default 6", rs[0].OpeningPlies)
		}
		for _, r := range rs {
			if len(r.MoveSeconds) != len(r.Moves)-r.OpeningPlies {
				t.Errorf("game %d: %d move times for %d moves after the opening", r.Index, len(r.MoveSeconds), len(r.Moves)-r.OpeningPlies)
			}
		}
	}
	var timed int
	for _, r := range recs {
		timed += len(r.MoveSeconds)
	}
	if st.Moves[0]+st.Moves[1] != timed || st.MeanMoveTime(0) <= 0 {
		t.Errorf("standings time %v moves (%v s), records %d", st.Moves, st.Seconds, timed)
	}
	pgn, err := os.ReadFile(filepath.Join(dir, "games.pgn"))
	if err != nil || strings.Count(string(pgn), `[Variant "sho"]`) != 12 || !strings.Contains(string(pgn), `[White "`) {
		t.Errorf("games.pgn: %v\n%.400s", err, pgn)
	}
	var sum arena.Summary
	b, _ := os.ReadFile(filepath.Join(dir, "results.json"))
	if err := json.Unmarshal(b, &sum); err != nil || sum.Games != 12 || len(sum.Pairs) != 1 || sum.Pairs[0].Wins != sc.Wins ||
		len(sum.MoveTimes) != 2 {
		t.Errorf("results.json: %v %+v", err, sum)
	}
	var out strings.Builder
	st.WriteTable(&out)
	if !strings.Contains(out.String(), "greedy") || !strings.Contains(out.String(), "95% interval") ||
		!strings.Contains(out.String(), "mean time per move: greedy ") {
		t.Errorf("table:\n%s", out.String())
	}
}

// An SPRT between unequal players stops well before the game limit.
func TestSPRTStopsEarly(t *testing.T) {
	cfg := arena.Config{Rules: rules.DefaultConfig(rules.Sho), Games: 400, Concurrency: 2, Seed: 3,
		SPRT: &arena.SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05}}
	st, _ := runMatch(t, cfg, arena.Greedy{}, arena.Random{})
	if st.SPRT == nil || st.SPRT.Decision != arena.AcceptH1 || st.Games >= 400 {
		t.Fatalf("SPRT: %+v after %d games", st.SPRT, st.Games)
	}
	t.Logf("H1 accepted after %d games, LLR %.2f", st.Games, st.SPRT.LLR)
}

// A round robin of three rates everyone, anchored on the first.
func TestRoundRobin(t *testing.T) {
	cfg := arena.Config{Rules: rules.DefaultConfig(rules.Sho), Games: 6, Concurrency: 2, Seed: 5}
	st, recs := runMatch(t, cfg, arena.Random{}, arena.Greedy{}, arena.NewSearcher("uniform-16", mcts.Uniform{}, mcts.Budget{Simulations: 16}))
	if st.Games != 18 || len(recs) != 18 {
		t.Fatalf("%d games, want 3 pairings x 6", st.Games)
	}
	rs, err := st.Ratings(0)
	if err != nil || len(rs) != 3 || rs[0].Elo != 0 {
		t.Fatalf("ratings %+v, %v", rs, err)
	}
}

// A gauntlet pairs the first player with each other one only, and the
// pentanomial SPRT counts an opening's pair once both games are over.
func TestGauntlet(t *testing.T) {
	cfg := arena.Config{Rules: rules.DefaultConfig(rules.Sho), Games: 4, Concurrency: 2, Seed: 5, Gauntlet: true}
	st, recs := runMatch(t, cfg, arena.Greedy{}, arena.Random{}, arena.NewSearcher("uniform-16", mcts.Uniform{}, mcts.Budget{Simulations: 16}))
	if st.Games != 8 || len(recs) != 8 {
		t.Fatalf("%d games, want 2 pairings x 4", st.Games)
	}
	for _, r := range recs {
		if r.Sente != "greedy" && r.Gote != "greedy" {
			t.Errorf("game %d between %s and %s: not in the gauntlet", r.Index, r.Sente, r.Gote)
		}
	}
	if sc := st.Score(1, 2); sc.Games() != 0 {
		t.Errorf("the anchors played each other: %v", sc)
	}
	if len(st.Summary().Pairs) != 2 {
		t.Errorf("summary pairs %+v, want the two played", st.Summary().Pairs)
	}
	cfg = arena.Config{Rules: rules.DefaultConfig(rules.Sho), Games: 6, Concurrency: 1, Seed: 5,
		SPRT: &arena.SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05}}
	st, _ = runMatch(t, cfg, arena.Greedy{}, arena.Random{})
	if n := st.SPRT.Pairs.Count(); n != 3 || st.SPRT.Pairs.Games() != st.Games {
		t.Errorf("SPRT pairs %v after %d games, want 3 pairs", st.SPRT.Pairs, st.Games)
	}
}

// Openings files: startpos, SFEN, moves; errors name the line.
func TestOpenings(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Chu))
	start := r.StartPosition()
	good := "# comment\nstartpos\nstartpos moves f4f5 g9g8\n\nf4f5\n" + start.SFEN() + " moves e4e5\n"
	os, err := arena.ParseOpenings(strings.NewReader(good), "good", r)
	if err != nil || len(os) != 4 || len(os[1].Moves) != 2 || len(os[2].Moves) != 1 || os[3].Start == "" {
		t.Fatalf("%+v, %v", os, err)
	}
	for _, bad := range []string{"startpos moves f4f9", "xyz/ b - 1", "", "# nothing"} {
		if _, err := arena.ParseOpenings(strings.NewReader(bad), "bad", r); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := arena.ParseOpenings(strings.NewReader("startpos\nstartpos moves f4f9\n"), "bad", r); err == nil || !strings.Contains(err.Error(), "bad:2") {
		t.Errorf("error does not name the line: %v", err)
	}
	ops, err := arena.RandomOpenings(r, 20, 6, 1)
	if err != nil || len(ops) != 20 {
		t.Fatalf("random openings: %d, %v", len(ops), err)
	}
	seen := map[string]bool{}
	for _, o := range ops {
		g, err := o.Game(r)
		if err != nil {
			t.Fatal(err)
		}
		if seen[g.Position().SFEN()] {
			t.Errorf("opening repeated: %s", o)
		}
		seen[g.Position().SFEN()] = true
	}
}

// The PGN form XBoard reads: two-leg moves as from, first leg, -/x, to;
// a pass as "--"; a FEN tag for a non-standard start.
func TestWritePGN(t *testing.T) {
	rec := arena.GameRecord{Index: 0, Sente: "a", Gote: "b", Variant: "chu", Rules: chuRules(t).String(),
		Start:  "6k5/12/12/12/12/12/12/3ppp6/4N7/12/12/6K5 b - 1",
		Moves:  []string{"e4e5,e5e6", "g12g11", "@@@@", "g11h11", "e6d5,d5e6"},
		Result: "*", Reason: "none", Started: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)}
	var b strings.Builder
	if err := rec.WritePGN(&b, "test"); err != nil {
		t.Fatal(err)
	}
	pgn := b.String()
	for _, want := range []string{`[Variant "chu"]`, `[SetUp "1"]`, `[FEN "6k5/12/12/12/12/12/12/3ppp6/4N7/12/12/6K5 w - 1"]`,
		`[White "a"]`, "1. e4e5-e6 g12g11 2. -- g11h11 3. e6d5-e6"} {
		if !strings.Contains(pgn, want) {
			t.Errorf("PGN lacks %q:\n%s", want, pgn)
		}
	}
}
