package arena

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"chuzero/rules"
)

// abGame returns the game of sfen under v's default rules.
func abGame(t testing.TB, v rules.VariantID, sfen string) *rules.Game {
	t.Helper()
	r := rules.MustNew(rules.DefaultConfig(v))
	if sfen == "" {
		return rules.NewGame(r.StartPosition())
	}
	g, err := r.NewGameFromSFEN(sfen)
	if err != nil {
		t.Fatalf("ParseSFEN(%q): %v", sfen, err)
	}
	if g.Result().Over() {
		t.Fatalf("%q is over: %v", sfen, g.Result())
	}
	return g
}

// abThink searches g with a fresh player of a.
func abThink(t testing.TB, a AlphaBeta, g *rules.Game) abResult {
	t.Helper()
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := newABPlayer(a, g.Rules(), 1).think(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// forcedWin reports, by brute force, whether the side to move wins within
// n of its own moves whatever the defence: the check on the positions
// below, independent of the search.
func forcedWin(g *rules.Game, n int) bool {
	me := g.Position().SideToMove()
	for _, m := range slices.Clone(g.LegalMoves()) {
		g.Push(m)
		var won bool
		if res := g.Result(); res.Over() {
			won = res.ValueFor(me) > 0
		} else if n > 1 {
			won = everyReplyLoses(g, n-1)
		}
		g.Undo()
		if won {
			return true
		}
	}
	return false
}

// everyReplyLoses: every move of the side to move leaves its opponent a
// forced win within n moves.
func everyReplyLoses(g *rules.Game, n int) bool {
	me := g.Position().SideToMove()
	for _, m := range slices.Clone(g.LegalMoves()) {
		g.Push(m)
		var lost bool
		if res := g.Result(); res.Over() {
			lost = res.ValueFor(me) < 0
		} else {
			lost = forcedWin(g, n)
		}
		g.Undo()
		if !lost {
			return false
		}
	}
	return true
}

// Sho mates by leaving no legal move (its check rule); Chu by taking the
// King. Each position is a mate in two and not in one (checked by brute
// force); the search finds a mating move and scores it as a mate in three
// plies at every depth that sees it, and the defender sees its loss in two.
func TestABMateInTwo(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    rules.VariantID
		sfen string
	}{
		{"sho two rooks", rules.Sho, "k8/9/9/9/4K4/9/9/8R/7R1 b - 1"},
		{"chu back rank", rules.Chu, "k11/pp10/12/12/12/12/12/12/12/12/12/5K5R b - 1"},
	} {
		g := abGame(t, tc.v, tc.sfen)
		if forcedWin(g, 1) || !forcedWin(g, 2) {
			t.Fatalf("%s: %q is not a mate in exactly two", tc.name, tc.sfen)
		}
		for _, depth := range []int{3, 4} {
			for _, bits := range []int{0, -1} {
				res := abThink(t, AlphaBeta{Depth: depth, TTBits: bits}, g)
				if res.Score != abMate-3 {
					t.Errorf("%s depth %d tt %d: score %d, want mate in 3 plies (%d)", tc.name, depth, bits, res.Score, abMate-3)
				}
				text := g.Position().MoveString(res.Move)
				g.Push(res.Move)
				if !everyReplyLoses(g, 1) {
					t.Errorf("%s depth %d: %s does not mate in two", tc.name, depth, text)
				}
				if def := abThink(t, AlphaBeta{Depth: depth - 1, TTBits: bits}, g); def.Score != -(abMate - 2) {
					t.Errorf("%s depth %d: the defender scores %d, want %d", tc.name, depth-1, def.Score, -(abMate - 2))
				}
				g.Undo()
			}
		}
	}
}

// The search takes a free piece, and at depth 2 and more refuses a pawn
// guarded by a Gold (which greedy takes).
func TestABCaptures(t *testing.T) {
	for _, tc := range []struct {
		name  string
		v     rules.VariantID
		sfen  string
		depth int
		want  string // the move, or "!" and the move it must not play
	}{
		{"sho free silver", rules.Sho, "k8/9/9/4s4/9/9/9/4R4/8K b - 1", 1, "e2e6"},
		{"sho free silver d3", rules.Sho, "k8/9/9/4s4/9/9/9/4R4/8K b - 1", 3, "e2e6"},
		{"chu free gold", rules.Chu, "k11/12/12/12/12/4g7/12/12/12/12/4R7/11K b - 1", 2, "e2e7"},
		{"sho guarded pawn d2", rules.Sho, "k8/4g4/4p4/9/9/9/9/4R4/8K b - 1", 2, "!e2e7+"},
		{"sho guarded pawn d3", rules.Sho, "k8/4g4/4p4/9/9/9/9/4R4/8K b - 1", 3, "!e2e7+"},
	} {
		g := abGame(t, tc.v, tc.sfen)
		res := abThink(t, AlphaBeta{Depth: tc.depth}, g)
		got := g.Position().MoveString(res.Move)
		if avoid, ok := cutBang(tc.want); ok {
			if got == avoid || got == avoid[:4] {
				t.Errorf("%s: played the poisoned %s (score %d)", tc.name, got, res.Score)
			}
			gp, _ := Greedy{}.Open(context.Background(), g.Rules(), 1)
			if rep, _ := gp.Move(context.Background(), g); g.Position().MoveString(rep.Move) != avoid {
				t.Errorf("%s: greedy plays %s, the test wants it to take the bait %s", tc.name, g.Position().MoveString(rep.Move), avoid)
			}
		} else if got != tc.want {
			t.Errorf("%s: played %s (score %d), want %s", tc.name, got, res.Score, tc.want)
		}
	}
}

func cutBang(s string) (string, bool) {
	if len(s) > 0 && s[0] == '!' {
		return s[1:], true
	}
	return s, false
}

// abPlayout plays n seeded random moves from the start (fewer if the game
// ends) and calls f at each position.
func abPlayout(t testing.TB, v rules.VariantID, seed uint64, n int, f func(*rules.Game)) {
	t.Helper()
	g := abGame(t, v, "")
	rng := rand.New(rand.NewPCG(seed, 0))
	for i := 0; i < n && !g.Result().Over(); i++ {
		f(g)
		moves := g.LegalMoves()
		g.Push(moves[rng.IntN(len(moves))])
	}
}

// Without quiescence, depth 1 is greedy: its move leaves as much material
// (rules.Position.Balance) as greedy's best, and its score is that balance;
// the incremental material of every move matches Balance after it.
func TestABDepthOneIsGreedy(t *testing.T) {
	for _, v := range []rules.VariantID{rules.Sho, rules.Chu, rules.Heian} {
		abPlayout(t, v, uint64(v)+1, 60, func(g *rules.Game) {
			values := g.Rules().PieceValues()
			me := g.Position().SideToMove()
			after := func(m rules.Move) float64 {
				g.Push(m)
				defer g.Undo()
				if res := g.Result(); res.Over() {
					return res.ValueFor(me) * 1e9
				}
				return g.Position().Balance(values, me)
			}
			best := -2e9
			for _, m := range slices.Clone(g.LegalMoves()) {
				best = max(best, after(m))
			}
			res := abThink(t, AlphaBeta{Depth: 1, QDepth: -1}, g)
			if got := after(res.Move); got != best {
				t.Fatalf("%s %s: depth 1 plays %s leaving %v, greedy's best leaves %v", v, g.Position().SFEN(),
					g.Position().MoveString(res.Move), got, best)
			}
			if best < 1e8 && res.Score != int32(best*100) {
				t.Fatalf("%s %s: score %d, want the balance %v (x100)", v, g.Position().SFEN(), res.Score, best)
			}
		})
	}
}

// At a fixed depth the table changes the work, not the result: the same
// move and score with it and without it (depths where no position recurs
// at a shallower remaining depth).
func TestABTableOnOff(t *testing.T) {
	for _, tc := range []struct {
		v     rules.VariantID
		depth int
		seed  uint64
	}{
		{rules.Sho, 4, 1}, {rules.Sho, 4, 2}, {rules.Chu, 3, 3}, {rules.Heian, 3, 4},
	} {
		plies := 0
		abPlayout(t, tc.v, tc.seed, 24, func(g *rules.Game) {
			if plies++; plies%8 != 1 {
				return
			}
			on := abThink(t, AlphaBeta{Depth: tc.depth}, g)
			off := abThink(t, AlphaBeta{Depth: tc.depth, TTBits: -1}, g)
			if on.Move != off.Move || on.Score != off.Score {
				pos := g.Position()
				t.Errorf("%s %s depth %d: table on %s %d (%d nodes), off %s %d (%d nodes)", tc.v, pos.SFEN(), tc.depth,
					pos.MoveString(on.Move), on.Score, on.Nodes, pos.MoveString(off.Move), off.Score, off.Nodes)
			}
		})
	}
}

// A fixed-depth search is a function of the seed; the node cap and
// cancellation stop it.
func TestABLimits(t *testing.T) {
	g := abGame(t, rules.Sho, "")
	a, b := abThink(t, AlphaBeta{Depth: 3}, g), abThink(t, AlphaBeta{Depth: 3}, g)
	if a != b {
		t.Errorf("same seed, different searches: %+v, %+v", a, b)
	}
	capped := abThink(t, AlphaBeta{Depth: 8, Nodes: 5000}, g)
	if capped.Nodes > 5000+abCheckMask+1 || capped.Depth >= 8 || capped.Move == rules.NoMove {
		t.Errorf("node cap 5000: %+v", capped)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := newABPlayer(AlphaBeta{Depth: 3}, g.Rules(), 1).think(ctx, g); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search: %v, want context.Canceled", err)
	}
	timed := abThink(t, AlphaBeta{Time: time.Millisecond}, g) // only that some move comes back
	if timed.Move == rules.NoMove {
		t.Errorf("timed search: %+v", timed)
	}
}

func TestABValidateAndName(t *testing.T) {
	for _, tc := range []struct {
		a    AlphaBeta
		name string
		ok   bool
	}{
		{AlphaBeta{Depth: 2}, "ab-d2", true},
		{AlphaBeta{Time: 200 * time.Millisecond}, "ab-200ms", true},
		{AlphaBeta{Nodes: 1000}, "ab-n1000", true},
		{AlphaBeta{Label: "x", Depth: 1}, "x", true},
		{AlphaBeta{}, "ab-n0", false},
		{AlphaBeta{Depth: MaxABDepth + 1}, "ab-d65", false},
		{AlphaBeta{Depth: -1, Time: time.Second}, "ab-1s", false},
		{AlphaBeta{Depth: 1, TTBits: 40}, "ab-d1", false},
	} {
		if got := tc.a.Name(); got != tc.name {
			t.Errorf("%+v.Name() = %q, want %q", tc.a, got, tc.name)
		}
		if err := tc.a.Validate(); (err == nil) != tc.ok {
			t.Errorf("%+v.Validate() = %v, want ok %v", tc.a, err, tc.ok)
		}
	}
}

// Depth 2 beats greedy clearly over eight Sho games (four openings,
// colours swapped).
func TestABBeatsGreedy(t *testing.T) {
	m, err := New(Config{Rules: rules.DefaultConfig(rules.Sho), Games: 8, Concurrency: 2, Seed: 3}, AlphaBeta{Depth: 2}, Greedy{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := m.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sc := st.Score(0, 1); sc.Games() != 8 || sc.Wins < sc.Losses+5 {
		t.Errorf("ab-d2 vs greedy: %+v", sc)
	}
}

// TestTeacher: the alpha-beta teacher plays what its player would, with
// the player's value.
func TestTeacher(t *testing.T) {
	g := abGame(t, rules.Sho, "4k4/9/9/9/2g6/9/9/2R6/4K4 b - 1")
	a := AlphaBeta{Depth: 2}
	tg, err := a.Teacher().Open(context.Background(), g.Rules(), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	m, v, err := tg.Move(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	want := abThink(t, a, g)
	if m != want.Move || v <= 0 || a.Teacher().Name() != "ab-d2" {
		t.Errorf("teacher plays %s (%v), the player %s; name %q", g.Position().MoveString(m), v,
			g.Position().MoveString(want.Move), a.Teacher().Name())
	}
}

// A move into a repetition that the opponent can complete is seen as the
// draw it now is, even when the table holds the position from the same
// cycle one occurrence earlier (when the reply did not yet end the game):
// a repeated position takes no score from the table. Sente, a gold up, is
// at the third occurrence of the cycle's second position; d5e5 lets Gote
// repeat the start a fourth time.
func TestABRepetitionIgnoresTable(t *testing.T) {
	for seed := range uint64(20) {
		g := abGame(t, rules.Sho, "k8/9/9/9/4G4/9/9/9/8K b - 1")
		p := newABPlayer(AlphaBeta{Depth: 2}, g.Rules(), seed)
		cycle := []string{"e5d5", "a9a8", "d5e5", "a8a9"}
		for i := range 10 {
			if i%2 == 0 { // the player searches every Sente position of the cycle
				if _, err := p.Move(context.Background(), g); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := g.PlayString(cycle[i%4]); err != nil {
				t.Fatal(err)
			}
		}
		if n := g.RepetitionCount(); n != 3 {
			t.Fatalf("the position occurs %d times, want 3", n)
		}
		if seed == 0 { // every root move's score in the tie-break's null window
			s := p.s
			p.sync(g)
			s.start(context.Background(), p.game, 0, 0)
			gold := s.balance()
			for _, am := range s.orderRoot(p.game.LegalMoves()) {
				sc, want := s.child(am, false, 2, 0, gold-1, gold, gold), gold
				if p.game.Position().MoveString(am.M) == "d5e5" {
					want = 0
				}
				if sc != want {
					t.Errorf("%s scores %d, want %d", p.game.Position().MoveString(am.M), sc, want)
				}
			}
		}
		if rep, err := p.Move(context.Background(), g); err != nil || g.Position().MoveString(rep.Move) == "d5e5" {
			t.Fatalf("seed %d: %v, %v: the player walked into the repetition draw", seed, g.Position().MoveString(rep.Move), err)
		}
	}
}
