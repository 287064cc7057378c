package qsearch

import (
	"math"
	"testing"

	"chuzero/rules"
)

// game returns the game of sfen under v's rules with the given options.
func game(t *testing.T, v rules.VariantID, sfen string, opts ...string) *rules.Game {
	t.Helper()
	cfg := rules.DefaultConfig(v)
	for i := 0; i+1 < len(opts); i += 2 {
		if err := cfg.Set(opts[i], opts[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	g, err := rules.MustNew(cfg).NewGameFromSFEN(sfen)
	if err != nil {
		t.Fatalf("%q: %v", sfen, err)
	}
	if g.Result().Over() {
		t.Fatalf("%q is over", sfen)
	}
	return g
}

// value is the score of a kind for Sente, by its SFEN letter ("+N" for a
// promoted knight).
func value(t *testing.T, tb Table, r *rules.Rules, letter string) int32 {
	t.Helper()
	promoted := letter[0] == '+'
	if promoted {
		letter = letter[1:]
	}
	k := r.KindByFEN(letter)
	if k == 0 {
		t.Fatalf("no kind %q", letter)
	}
	if promoted {
		k = r.Promoted(rules.MakePiece(k, rules.Sente)).Kind()
	}
	return tb.Values[k]
}

// TestValue checks the quiescence score of hand-built positions against
// the exchange worked out by hand: the static balance plus what the side
// to move wins by force.
func TestValue(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    rules.VariantID
		sfen string
		opts []string
		gain []string // kinds won (+) and lost (-) against the static balance
	}{
		{name: "a hanging gold is taken", v: rules.Sho, sfen: "4k4/9/9/9/2g6/9/9/2R6/4K4 b - 1", gain: []string{"+G"}},
		{name: "a gold defended by a lance is left alone", v: rules.Sho, sfen: "2l1k4/9/9/9/2g6/9/9/2R6/4K4 b - 1"},
		{name: "a pawn takes a defended gold and is retaken", v: rules.Sho,
			sfen: "2l1k4/9/9/9/2g6/2P6/9/9/4K4 b - 1", gain: []string{"+G", "-P"}},
		// the knight takes the rook promoting (on the last rank it must)
		// and the king takes the promoted knight back: the rook lost, the
		// knight won
		{name: "forked in check: the king must move and the rook is lost", v: rules.Sho,
			sfen: "8k/9/9/9/9/9/3n5/9/2R1K4 b - 1", gain: []string{"-R", "+N"}},
		// the capture lands in Gote's zone: the rook promotes as it takes
		{name: "Gote to move: the hanging rook is taken", v: rules.Sho, sfen: "4k4/9/9/9/2r6/9/9/2R6/4K4 w - 1",
			gain: []string{"+R", "++R", "-R"}},
		// Chu: a pawn takes the Lion (promoting, in the zone); under the
		// strict counter-strike rule the gold may not take back the
		// unprotected Lion at once ...
		{name: "counter-strike strict: the Lion is won", v: rules.Chu,
			sfen: "k11/12/12/1n10/1P10/12/7g4/7N4/12/12/12/11K b - 1", gain: []string{"+N", "++P", "-P"}},
		// ... under Okazaki it may: the Lions are traded and the promotion
		// is all that is left (the Lion taking the gold and losing the pawn
		// to the enemy Lion is worth the same).
		{name: "counter-strike Okazaki: the gold is won", v: rules.Chu,
			sfen: "k11/12/12/1n10/1P10/12/7g4/7N4/12/12/12/11K b - 1", opts: []string{"CounterStrike", "Okazaki"},
			gain: []string{"++P", "-P"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := game(t, tc.v, tc.sfen, tc.opts...)
			s := New(g.Rules(), DefaultDepth)
			pos := g.Position()
			want := s.Table.Balance(pos)
			for _, k := range tc.gain {
				sign := int32(1)
				if k[0] == '-' {
					sign = -1
				}
				want += sign * value(t, s.Table, g.Rules(), k[1:])
			}
			before := pos.SFEN()
			if got := s.Value(g); got != want {
				t.Errorf("Value = %d, want %d (balance %d)", got, want, s.Table.Balance(pos))
			}
			if after := g.Position().SFEN(); after != before || g.Len() != 0 {
				t.Errorf("the game moved: %s, %d plies", after, g.Len())
			}
		})
	}
}

// TestCheckForbidsStandPat: in the fork position the side to move is in
// check, so the static balance (what standing pat would give) is wrong.
func TestCheckForbidsStandPat(t *testing.T) {
	g := game(t, rules.Sho, "8k/9/9/9/9/9/3n5/9/2R1K4 b - 1")
	if !g.Position().InCheck() {
		t.Fatal("the fork is not a check")
	}
	s := New(g.Rules(), DefaultDepth)
	if bal, v := s.Table.Balance(g.Position()), s.Value(g); v >= bal {
		t.Errorf("in check: value %d, not below the balance %d", v, bal)
	}
}

// TestMate: a royal capture ends the game, scored as a mate at its
// distance; Scaled maps it to 1.
func TestMate(t *testing.T) {
	g := game(t, rules.Chu, "k11/R11/12/12/12/12/12/12/12/12/12/11K b - 1")
	s := New(g.Rules(), DefaultDepth)
	v := s.Value(g)
	if v != Mate-1 || !IsMate(v) {
		t.Errorf("Value = %d, want a mate in one ply (%d)", v, Mate-1)
	}
	if got := s.Table.Scaled(v, 3); got != 1 {
		t.Errorf("Scaled(mate) = %v, want 1", got)
	}
	if got := s.Table.Scaled(-v, 3); got != -1 {
		t.Errorf("Scaled(-mate) = %v, want -1", got)
	}
}

// TestDepth: depth 0 is the static balance; the depth bound holds the
// search at the horizon.
func TestDepth(t *testing.T) {
	g := game(t, rules.Sho, "4k4/9/9/9/2g6/9/9/2R6/4K4 b - 1")
	s := New(g.Rules(), 0)
	if v, bal := s.Value(g), s.Table.Balance(g.Position()); v != bal {
		t.Errorf("depth 0: %d, want the balance %d", v, bal)
	}
	if s.Nodes != 1 {
		t.Errorf("depth 0 visited %d nodes, want 1", s.Nodes)
	}
}

// TestScaled checks the map to [-1, 1] against its formula.
func TestScaled(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	tb := NewTable(r)
	for _, sc := range []int32{0, 100, -250, int32(tb.Army / 5)} {
		want := math.Tanh(3 * float64(sc) / (r.Army() * 100))
		if got := tb.Scaled(sc, 3); math.Abs(got-want) > 1e-12 {
			t.Errorf("Scaled(%d) = %v, want %v", sc, got, want)
		}
	}
}

// TestTick: a Tick that stops unwinds the search and reports it.
func TestTick(t *testing.T) {
	g := game(t, rules.Sho, "2l1k4/9/9/9/2g6/2P6/9/9/4K4 b - 1")
	s := New(g.Rules(), DefaultDepth)
	calls := 0
	s.Tick = func() bool { calls++; return true }
	if v := s.Value(g); v != 0 || !s.Stopped() || calls != 1 {
		t.Errorf("stopped search: value %d, stopped %v, %d ticks; want 0, true, 1", v, s.Stopped(), calls)
	}
	s.Tick = nil
	s.Reset()
	if s.Value(g); s.Stopped() {
		t.Error("Reset left the search stopped")
	}
}
