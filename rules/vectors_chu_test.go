package rules

import (
	"strings"
	"testing"
)

// Test vectors of chu-shogi.md §8.3 and §13.

func rulesWith(t testing.TB, v VariantID, opts ...string) *Rules {
	t.Helper()
	c := DefaultConfig(v)
	for _, o := range opts {
		if err := c.SetAssignment(o); err != nil {
			t.Fatal(err)
		}
	}
	r, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustSFEN(t testing.TB, r *Rules, sfen string) Position {
	t.Helper()
	p, err := r.ParseSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// legalTexts returns the machine notation of every legal move.
func legalTexts(p *Position) map[string]bool {
	out := map[string]bool{}
	for _, m := range p.GenerateMoves(nil) {
		out[p.MoveString(m)] = true
	}
	return out
}

// checkLegality asserts that each move is legal (or not) in sfen.
func checkLegality(t *testing.T, r *Rules, sfen string, legal, illegal []string) {
	t.Helper()
	p := mustSFEN(t, r, sfen)
	set := legalTexts(&p)
	for _, m := range legal {
		if !set[m] {
			t.Errorf("%s: %s should be legal", sfen, m)
		}
	}
	for _, m := range illegal {
		if set[m] {
			t.Errorf("%s: %s should be illegal", sfen, m)
		}
	}
}

func TestLionTradingWorkedExamples(t *testing.T) {
	def := rulesWith(t, Chu)
	after := rulesWith(t, Chu, "LionProtection=AfterMove")
	tests := []struct {
		name           string
		r              *Rules
		board          string
		legal, illegal []string
	}{
		{"T1", def, "11k/12/12/12/7g4/6n5/5N6/12/12/12/12/K11", []string{"f6g7", "f6g7,g7f6", "f6g7,g7g8", "f6g7,g7h8"}, nil},
		{"T2", def, "11k/12/12/5p6/5n6/12/5N6/12/12/12/12/K11", nil, []string{"f6f8"}},
		{"T3", def, "11k/12/12/5p6/5n6/5g6/5N6/12/12/12/12/K11", []string{"f6f7,f7f8"}, []string{"f6f8"}},
		{"T4", def, "11k/12/12/4s7/5n6/5p6/5N6/12/12/12/12/K11", nil, []string{"f6f7,f7f8"}},
		{"T5 JCSA", def, "11k/12/12/12/12/4N7/4p7/4n7/12/12/12/K11", nil, []string{"e7e6,e6e5"}},
		{"T5 AfterMove", after, "11k/12/12/12/12/4N7/4p7/4n7/12/12/12/K11", []string{"e7e6,e6e5"}, nil},
		{"T6", def, "11k/12/12/12/3n8/12/5N6/5P6/7b4/12/12/K11", []string{"f6h4"}, []string{"f6d8"}},
		{"T6b", def, "11k/12/12/12/3n8/4p7/5N6/5P6/7b4/12/12/K11", []string{"f6d8"}, []string{"f6e7,e7d8"}},
		{"T6c", def, "11k/12/12/12/3n8/4s7/5N6/5P6/7b4/12/12/K11", []string{"f6e7,e7d8"}, nil},
		{"T7", def, "11k/12/12/12/7n4/12/5N6/12/12/12/12/K11", []string{"f6h8"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkLegality(t, tt.r, tt.board+" b - 1", tt.legal, tt.illegal)
		})
	}
}

func TestCounterStrikeTable(t *testing.T) {
	const start = "11k/12/12/12/8n3/12/4o7/5B6/1r2N7/4G7/12/K11 w - 1"
	const protected = "11k/12/12/8p3/8n3/12/4o7/5B6/1r2N7/4G7/12/K11 w - 1"
	tests := []struct {
		name, sfen, gote string
		opts             []string
		legal, illegal   []string
	}{
		{"rook takes, strict", start, "b4e4", nil, []string{"e3e4"}, []string{"f5i8"}},
		{"rook takes, okazaki unprotected", start, "b4e4", []string{"CounterStrike=Okazaki"}, []string{"f5i8", "e3e4"}, nil},
		{"rook takes, okazaki protected", protected, "b4e4", []string{"CounterStrike=Okazaki"}, []string{"e3e4"}, []string{"f5i8"}},
		{"kirin takes and promotes", start, "e6e4+", nil, []string{"e3e4"}, []string{"f5i8"}},
		{"quiet move", start, "l12k12", nil, []string{"f5i8"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rulesWith(t, Chu, tt.opts...)
			g, err := r.NewGameFromSFEN(tt.sfen)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := g.PlayString(tt.gote); err != nil {
				t.Fatal(err)
			}
			checkLegality(t, r, g.Position().SFEN(), tt.legal, tt.illegal)
		})
	}
	// the counter-strike square is stored in USI coordinates: e4 = 8i
	r := rulesWith(t, Chu)
	g, _ := r.NewGameFromSFEN(start)
	g.PlayString("b4e4")
	if got, want := g.Position().SFEN(), "11k/12/12/12/8n3/12/4o7/5B6/4r7/4G7/12/K11 b 8i 2"; got != want {
		t.Errorf("SFEN after b4e4 = %q, want %q", got, want)
	}
}

// lonePiece returns Sente's piece on f6 with the Kings parked on l1 and a12.
func lonePiece(piece string) string {
	return "k11/12/12/12/12/12/5" + piece + "6/12/12/12/12/11K b - 1"
}

func TestLonePieceCounts(t *testing.T) {
	r := rulesWith(t, Chu)
	counts := []struct {
		piece string
		moves int
	}{
		{"N", 25}, {"+O", 25}, {"+H", 40}, {"+D", 37}, {"Q", 43}, {"D", 30}, {"H", 32},
		{"O", 8}, {"X", 8}, {"E", 7}, {"T", 7}, {"+T", 17}, {"+A", 21}, {"+L", 22}, {"+V", 32}, {"+M", 32},
	}
	f6 := Sq(5, 5)
	for _, c := range counts {
		p := mustSFEN(t, r, lonePiece(c.piece))
		n := 0
		for _, m := range p.GenerateMoves(nil) {
			if m.IsPass() || m.From() == f6 {
				n++
			}
		}
		if n != c.moves {
			t.Errorf("lone %s on f6: %d moves, want %d", c.piece, n, c.moves)
		}
	}
	// lishogi counts every two-step path: 88 for the lone Lion
	paths := rulesWith(t, Chu, "LionMoveEnumeration=Paths")
	p := mustSFEN(t, paths, lonePiece("N"))
	n := 0
	for _, m := range p.GenerateMoves(nil) {
		if m.From() == f6 {
			n++
		}
	}
	if n != 88 {
		t.Errorf("lone Lion, Paths: %d moves, want 88", n)
	}
}

func TestFalconEaglePassVectors(t *testing.T) {
	r := rulesWith(t, Chu)
	checkLegality(t, r, "11k/12/12/12/5r6/5p6/5+H6/12/12/12/12/K11 b - 1",
		[]string{"f6f7", "f6f8", "f6f7,f7f6", "f6f7,f7f8"}, []string{"f6f9", "@@@@"})
	checkLegality(t, r, "11k/12/12/12/7p4/4P1p5/5+D6/12/12/12/12/K11 b - 1",
		[]string{"f6g7,g7h8", "f6g7,g7f6", "f6h8", "f6d8"}, []string{"@@@@"})
	checkLegality(t, r, "11k/12/12/12/12/4PP6/4PNP5/4PPP5/12/12/12/K11 b - 1", []string{"@@@@"}, nil)
	checkLegality(t, r, "11k/12/12/12/12/4PPP5/4PNP5/4PPP5/12/12/12/K11 b - 1", nil, []string{"@@@@"})
	checkLegality(t, r, "11k/12/12/12/12/4ppp5/4pNp5/4ppp5/12/12/12/K11 b - 1", []string{"f6e5,e5f6"}, []string{"@@@@"})
	// FalconEaglePass=Off: the lone Falcon no longer passes
	off := rulesWith(t, Chu, "FalconEaglePass=Off")
	checkLegality(t, off, lonePiece("+H"), nil, []string{"@@@@"})
	checkLegality(t, r, lonePiece("+H"), []string{"@@@@"}, nil)
}

func TestPromotionVectors(t *testing.T) {
	const board = "k11/12/3p5L2/2G9/4S7/12/12/12/12/12/12/11K b - 1"
	r := rulesWith(t, Chu)
	checkLegality(t, r, board,
		[]string{"e8e9", "e8e9+", "c9c10", "c9d10+", "c9d10", "j10j12"},
		[]string{"c9c10+", "c9c8+", "j10j12+"})
	lance := rulesWith(t, Chu, "LanceLastRankPromotion=On")
	checkLegality(t, lance, board, []string{"j10j12+", "j10j12"}, nil)
	checkLegality(t, r, "k11/7P4/3p5L2/2G9/4S7/12/12/12/12/12/12/11K b - 1", []string{"h11h12+", "h11h12"}, nil)
	// j10j12 leaves a dead Lance
	g, _ := r.NewGameFromSFEN(board)
	if _, err := g.PlayString("j10j12"); err != nil {
		t.Fatal(err)
	}
	if s := Sq(9, 11); !r.IsDead(g.Position().At(s), s) {
		t.Errorf("the Lance on j12 should be dead")
	}
	// GoBetweenLastRankPromotion: the Go-Between promotes on reaching the last rank
	gb := "k11/4I7/12/12/12/12/12/12/12/12/12/11K b - 1"
	checkLegality(t, r, gb, []string{"e11e12"}, []string{"e11e12+"})
	checkLegality(t, rulesWith(t, Chu, "GoBetweenLastRankPromotion=On"), gb, []string{"e11e12", "e11e12+"}, nil)
}

func TestHodgesPromotionRule(t *testing.T) {
	r := rulesWith(t, Chu, "PromotionRule=Hodges")
	// a silver entering the zone declines; its next non-capture may not promote
	g, err := r.NewGameFromSFEN("k10p/12/12/12/4S7/12/12/12/12/12/12/11K b - 1 -,-")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"e8e9", "a12b12"} {
		if _, err := g.PlayString(m); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.HasSuffix(g.Position().SFEN(), " 8d,-") {
		t.Errorf("suppression not recorded: %s", g.Position().SFEN())
	}
	checkLegality(t, r, g.Position().SFEN(), []string{"e9e10"}, []string{"e9e10+"})
	// one move later the right returns: a non-capture inside the zone may promote
	for _, m := range []string{"e9e10", "b12a12"} {
		if _, err := g.PlayString(m); err != nil {
			t.Fatal(err)
		}
	}
	checkLegality(t, r, g.Position().SFEN(), []string{"e10e11+", "e10e11"}, nil)
	// under JCSA a non-capture inside the zone never promotes
	checkLegality(t, rulesWith(t, Chu), "k11/12/4S7/12/12/12/12/12/12/12/12/11K b - 1", []string{"e10e11"}, []string{"e10e11+"})
}

func TestBareKingVectors(t *testing.T) {
	r := rulesWith(t, Chu)
	play := func(sfen string, moves ...string) Result {
		t.Helper()
		g, err := r.NewGameFromSFEN(sfen)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range moves {
			if _, err := g.PlayString(m); err != nil {
				t.Fatalf("%s: %v", m, err)
			}
		}
		return g.Result()
	}
	// Sente K l1, R h1, G c5; Gote k g10, s h10
	const withGold = "12/12/6ks4/12/12/12/12/2G9/12/12/12/7R3K b - 1"
	const noGold = "12/12/6ks4/12/12/12/12/12/12/12/12/7R3K b - 1"
	tests := []struct {
		name  string
		sfen  string
		moves []string
		want  Result
	}{
		{"bared at once", withGold, []string{"h1h10"}, Result{SenteWins, ReasonBareKing}},
		{"bared king touches the rook", noGold, []string{"h1h10"}, Result{}},
		{"recapture: two bare royals", noGold, []string{"h1h10", "g10h10"}, Result{Draw, ReasonTwoBareRoyals}},
		{"stepping away loses", noGold, []string{"h1h10", "g10f9"}, Result{SenteWins, ReasonBareKing}},
		{"king and pawns are no material", "12/12/6k5/12/12/12/12/12/PPP9/12/12/11K b - 1", nil, Result{}},
	}
	for _, tt := range tests {
		if got := play(tt.sfen, tt.moves...); got != tt.want {
			t.Errorf("%s: result %v, want %v", tt.name, got, tt.want)
		}
	}
	off := rulesWith(t, Chu, "BareKing=Off")
	g, _ := off.NewGameFromSFEN(withGold)
	g.PlayString("h1h10")
	if g.Result().Over() {
		t.Errorf("BareKing=Off: %v after h1h10", g.Result())
	}
	simple := rulesWith(t, Chu, "BareKing=Simple")
	g, _ = simple.NewGameFromSFEN(noGold)
	g.PlayString("h1h10")
	if got := g.Result(); got != (Result{Draw, ReasonBareKingDraw}) {
		t.Errorf("BareKing=Simple, king can take the rook: %v", got)
	}
	g, _ = simple.NewGameFromSFEN(withGold)
	g.PlayString("h1h10")
	if got := g.Result(); got != (Result{SenteWins, ReasonBareKing}) {
		t.Errorf("BareKing=Simple with two pieces: %v", got)
	}
}

func TestRepetitionVectors(t *testing.T) {
	const start = "k11/12/12/9p2/12/12/12/12/2P9/12/12/11K b - 1"
	cycle := []string{"l1k1", "a12b12", "k1l1", "b12a12"}
	r := rulesWith(t, Chu)
	g, _ := r.NewGameFromSFEN(start)
	for i := 0; i < 3; i++ {
		for _, m := range cycle {
			if g.Result().Over() {
				t.Fatalf("game ended early: %v after %d plies", g.Result(), g.Len())
			}
			if _, err := g.PlayString(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if g.Len() != 12 || g.Result() != (Result{Draw, ReasonRepetition}) {
		t.Errorf("after %d plies: %v, want draw by repetition after 12", g.Len(), g.Result())
	}
	if g.RepetitionCount() != 4 {
		t.Errorf("RepetitionCount = %d, want 4", g.RepetitionCount())
	}
	// HGM: the side that completes the repetition (Gote) loses
	h := rulesWith(t, Chu, "Repetition=HGM")
	g, _ = h.NewGameFromSFEN(start)
	for i := 0; i < 12; i++ {
		g.PlayString(cycle[i%4])
	}
	if got := g.Result(); got != (Result{SenteWins, ReasonRepetitionLoss}) {
		t.Errorf("HGM: %v", got)
	}
	// Forbid: returning to an earlier position is illegal
	f := rulesWith(t, Chu, "Repetition=Forbid")
	g, _ = f.NewGameFromSFEN(start)
	g.PlayString("l1k1")
	g.PlayString("a12b12")
	g.PlayString("k1l1")
	if _, err := g.PlayString("b12a12"); err == nil {
		t.Errorf("Forbid: b12a12 recreates the start position but was accepted")
	}
}

func TestRepetitionVerdicts(t *testing.T) {
	tests := []struct {
		name  string
		opts  []string
		sfen  string
		cycle []string
		want  Result
	}{
		// the Sente rook checks the shuttling Gote king with every move
		{"perpetual check", nil, "k11/12/12/9ppp/12/12/12/12/12/12/R11/11K w - 1",
			[]string{"a12b12", "a2b2", "b12a12", "b2a2"}, Result{GoteWins, ReasonPerpetualCheck}},
		{"perpetual check, Draw4", []string{"Repetition=Draw4"}, "k11/12/12/9ppp/12/12/12/12/12/12/R11/11K w - 1",
			[]string{"a12b12", "a2b2", "b12a12", "b2a2"}, Result{GoteWins, ReasonPerpetualCheck}},
		// the Sente rook attacks the shuttling Gote gold with every move
		{"perpetual attack", nil, "k11/12/12/4g7/12/12/12/12/12/12/4R7/11K w - 1",
			[]string{"e9f9", "e2f2", "f9e9", "f2e2"}, Result{GoteWins, ReasonPerpetualAttack}},
		{"perpetual attack, Draw4", []string{"Repetition=Draw4"}, "k11/12/12/4g7/12/12/12/12/12/12/4R7/11K w - 1",
			[]string{"e9f9", "e2f2", "f9e9", "f2e2"}, Result{Draw, ReasonRepetition}},
		// both Lions pass: Sente passed first
		{"mutual passing", nil, "k11/12/1n10/12/12/12/12/12/12/10N1/12/11K b - 1",
			[]string{"@@@@", "@@@@"}, Result{GoteWins, ReasonMutualPassing}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rulesWith(t, Chu, tt.opts...)
			g, err := r.NewGameFromSFEN(tt.sfen)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; !g.Result().Over(); i++ {
				if i > 40 {
					t.Fatalf("no result after %d plies", i)
				}
				if _, err := g.PlayString(tt.cycle[i%len(tt.cycle)]); err != nil {
					t.Fatal(err)
				}
			}
			if got := g.Result(); got != tt.want {
				t.Errorf("result %v after %d plies, want %v", got, g.Len(), tt.want)
			}
			if g.RepetitionCount() != 4 {
				t.Errorf("RepetitionCount = %d, want 4", g.RepetitionCount())
			}
		})
	}
}

func TestLishogiPathsCounts(t *testing.T) {
	tests := []struct {
		sfen             string
		paths, canonical int
	}{
		{"l2e1tsg1hbl/avbs1dxtn1ca/f1g2k1d2rm/1r1h1q2ov1f/m3c1p5/P1Pp2OP1P2/RVD2p5p/3P1P4pM/B5PG1B1V/1M2SNQE1R2/AC3TDTHF1A/LF1G1K1H1SCL w - 230", 126, 113},
		{"lbc1dxkg1c1l/a2rg1otsbfv/1v1se1d1hrma/mf1tq2pp+B+P1/3hppp2P1n/1p9p/1P3P1PG2P/p1ppP1G1I3/3P1DP1P2R/MVDHON2H1VM/AF1CSEXCT2A/L1R1KT2SFBL b - 159", 106, 101},
		{"lf1s1kqg1sfl/a3t3tbcv/vbcdgxe2r1a/2rpo4ndm/m+PPh4p3/P2Ip1pNIp1P/6Pp4/3P3TPP2/M3PHDPGR+pM/AFRV2XT1D1V/L1B1G2SCBFA/2CSK1E4L w - 178", 118, 97},
		{"lf1s1x1kg1sl/ac1degt1ocfa/mb1h1tn1drvm/pv6pbp1/3pp1p1i2p/1prI2P3h1/3PP1+H1IPPP/1Pp4pPR2/P3DP1S2Q1/MR1HO1E1B1VM/AVBCTKDT2FA/LF1S1G1GXC1L b 5h 115", 80, 80},
	}
	canon := rulesWith(t, Chu)
	paths := rulesWith(t, Chu, "LionMoveEnumeration=Paths", "LanceLastRankPromotion=On")
	for _, tt := range tests {
		p := mustSFEN(t, canon, tt.sfen)
		if got := Perft(&p, 1); got != uint64(tt.canonical) {
			t.Errorf("canonical perft(1) of %q = %d, want %d", tt.sfen, got, tt.canonical)
		}
		p = mustSFEN(t, paths, tt.sfen)
		if got := Perft(&p, 1); got != uint64(tt.paths) {
			t.Errorf("paths perft(1) of %q = %d, want %d", tt.sfen, got, tt.paths)
		}
	}
}
