package rules

import (
	"sort"
	"strings"
	"testing"
)

// Test vectors of sho-shogi.md §8 and heian-dai-shogi.md §8.

func sortedTexts(p *Position) []string {
	var out []string
	for m := range legalTexts(p) {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

func TestShoVectors(t *testing.T) {
	r := rulesWith(t, Sho)
	p := mustSFEN(t, r, "k8/4P4/9/2N6/6L2/9/9/9/8K b - 1")
	got := strings.Join(sortedTexts(&p), " ")
	want := "c6b8+ c6d8+ e8e9+ g5g6 g5g7 g5g7+ g5g8 g5g8+ g5g9+ i1h1 i1h2 i1i2"
	if got != want {
		t.Errorf("forced promotions: moves %q, want %q", got, want)
	}
	p = mustSFEN(t, r, "3rk4/9/9/9/9/9/9/9/4K4 b - 1")
	if got := strings.Join(sortedTexts(&p), " "); got != "e1e2 e1f1 e1f2" {
		t.Errorf("lone king beside a rook's file: %q", got)
	}
	p = mustSFEN(t, r, "3rk4/9/9/9/9/9/9/9/+E3K4 b - 1")
	if n := Perft(&p, 1); n != 8 {
		t.Errorf("king and prince: perft(1) = %d, want 8", n)
	}
	checkLegality(t, r, "k8/9/4S4/9/9/9/9/9/8K b - 1", []string{"e7d6", "e7d6+"}, nil)
	// promoting the Elephant gives a second royal, so the King may stay attacked
	checkLegality(t, r, "k8/4E4/9/9/9/9/9/9/r3K4 b - 1", []string{"e8e9+"}, []string{"e8e9"})
	// ShoRoyalty=Capture: no check rule
	capture := rulesWith(t, Sho, "ShoRoyalty=Capture")
	p = mustSFEN(t, capture, "3rk4/9/9/9/9/9/9/9/4K4 b - 1")
	if n := Perft(&p, 1); n != 5 {
		t.Errorf("ShoRoyalty=Capture: perft(1) = %d, want 5", n)
	}
}

func TestShoFairyStockfishFEN(t *testing.T) {
	r := rulesWith(t, Sho)
	start := r.StartPosition()
	for _, fen := range []string{
		"lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w - - 0 1",
		"lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w 0 1",
		"lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w - 1",
	} {
		p, err := r.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Equal(&start) {
			t.Errorf("ParseFEN(%q) = %s, want the start position", fen, p.SFEN())
		}
	}
}

func TestHeianVectors(t *testing.T) {
	r := rulesWith(t, Heian)
	// one Sente piece on g7, Sente King on b1, Gote King on l13: count destinations
	dests := []struct {
		piece string
		n     int
	}{
		{"G", 6}, {"S", 5}, {"C", 4}, {"I", 5}, {"T", 4}, {"B", 2}, {"P", 1}, {"N", 2},
		{"L", 6}, {"M", 13}, {"A", 12}, {"D", 24}, {"+P", 6}, {"+D", 6}, {"+N", 6},
	}
	g7 := Sq(6, 6)
	for _, d := range dests {
		p := mustSFEN(t, r, "11k1/13/13/13/13/13/6"+d.piece+"6/13/13/13/13/13/1K11 b - 1")
		seen := map[Square]bool{}
		for _, m := range p.GenerateMoves(nil) {
			if m.From() == g7 {
				seen[m.To()] = true
			}
		}
		if len(seen) != d.n {
			t.Errorf("%s on g7: %d destinations, want %d", d.piece, len(seen), d.n)
		}
	}
	// the piece on g7 is Sente's only King
	p := mustSFEN(t, r, "11k1/13/13/13/13/13/6K6/13/13/13/13/13/13 b - 1")
	if n := Perft(&p, 1); n != 8 {
		t.Errorf("King on g7: %d moves, want 8", n)
	}
	checkLegality(t, r, "k12/4P8/13/13/13/13/13/13/13/13/13/13/12K b - 1", []string{"e12e13+"}, []string{"e12e13"})
	p = mustSFEN(t, r, "k12/13/13/13/2L10/13/13/13/13/13/13/13/12K b - 1")
	var lance []string
	for _, m := range sortedTexts(&p) {
		if strings.HasPrefix(m, "c9") {
			lance = append(lance, m)
		}
	}
	if got := strings.Join(lance, " "); got != "c9c10 c9c11 c9c11+ c9c12 c9c12+ c9c13+" {
		t.Errorf("Lance on c9: %q", got)
	}
	checkLegality(t, r, "k12/13/4S8/13/13/13/13/13/13/13/13/13/12K b - 1", []string{"e11d10", "e11d10+"}, nil)
}

func TestHeianOptions(t *testing.T) {
	alfil := rulesWith(t, Heian, "HeianFlyingDragon=Alfil")
	checkLegality(t, alfil, "11k1/13/13/13/13/13/6D6/13/13/13/13/13/1K11 b - 1",
		[]string{"g7e9", "g7i9", "g7e5", "g7i5"}, []string{"g7f8", "g7d10"})
	horse := rulesWith(t, Heian, "HeianDragonPromotion=DragonHorse")
	p := mustSFEN(t, horse, "11k1/13/13/13/13/13/6+D6/13/13/13/13/13/1K11 b - 1")
	if n := len(p.GenerateMoves(nil)) - 5; n != 28 {
		t.Errorf("promoted Dragon with DragonHorse: %d moves, want 28 (bishop 24 + 4 steps)", n)
	}
	// Entry: a non-capture inside the zone cannot promote, and a Pawn that
	// reaches the last rank without promoting is dead
	entry := rulesWith(t, Heian, "HeianPromotion=Entry")
	checkLegality(t, entry, "k12/13/4P8/13/13/13/13/13/13/13/13/13/12K b - 1", []string{"e11e12"}, []string{"e11e12+"})
	checkLegality(t, entry, "k12/4P8/13/13/13/13/13/13/13/13/13/13/12K b - 1", []string{"e12e13"}, []string{"e12e13+"})
	// Chu: captures inside the zone may promote; the Pawn keeps its last-rank right
	chu := rulesWith(t, Heian, "HeianPromotion=Chu")
	checkLegality(t, chu, "k12/4p8/4S8/13/13/13/13/13/13/13/13/13/12K b - 1", []string{"e11e12+", "e11e12"}, []string{"e11d12+"})
	checkLegality(t, chu, "k12/4P8/13/13/13/13/13/13/13/13/13/13/12K b - 1", []string{"e12e13+"}, []string{"e12e13"})
}

func TestHeianBareKing(t *testing.T) {
	r := rulesWith(t, Heian)
	tests := []struct {
		name, sfen, move string
		want             Result
	}{
		{"bared at once", "12k/13/13/3p9/13/13/13/13/13/3A9/13/2G10/K12 b - 1", "d4d10", Result{SenteWins, ReasonBareKing}},
		{"the king can take the gold", "13/13/13/13/13/13/6k6/6p6/6G6/13/13/13/K12 b - 1", "g5g6", Result{Draw, ReasonBareKingDraw}},
		{"the gold is protected", "13/13/13/13/13/13/6k6/6p6/5KG6/13/13/13/13 b - 1", "g5g6", Result{SenteWins, ReasonBareKing}},
		{"both kings bare", "13/13/13/9k3/13/13/5p7/5K7/13/13/13/13/13 b - 1", "f6f7", Result{Draw, ReasonTwoBareRoyals}},
	}
	for _, tt := range tests {
		g, err := r.NewGameFromSFEN(tt.sfen)
		if err != nil {
			t.Fatal(err)
		}
		if g.Result().Over() {
			t.Fatalf("%s: over before the move: %v", tt.name, g.Result())
		}
		if _, err := g.PlayString(tt.move); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := g.Result(); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestCheckRuleGames(t *testing.T) {
	// Sho: checkmate is a loss by no legal moves
	r := rulesWith(t, Sho)
	g, err := r.NewGameFromSFEN("k8/9/1G7/9/9/9/9/9/8K b - 1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.PlayString("b7b8"); err != nil {
		t.Fatal(err)
	}
	// the gold on b8 is unprotected: the king takes it
	if g.Result().Over() {
		t.Fatalf("unexpected result %v", g.Result())
	}
	g, _ = r.NewGameFromSFEN("k8/9/1G7/9/9/9/9/9/1L6K b - 1")
	g.PlayString("b7b8")
	if got := g.Result(); got != (Result{SenteWins, ReasonNoLegalMoves}) {
		t.Errorf("mate with a protected gold: %v", got)
	}
	// perpetual check in Sho loses for the checker
	g, _ = r.NewGameFromSFEN("k8/9/9/9/4p4/9/9/R8/8K w - 1")
	cycle := []string{"a9b9", "a2b2", "b9a9", "b2a2"}
	for i := 0; !g.Result().Over() && i < 40; i++ {
		if _, err := g.PlayString(cycle[i%4]); err != nil {
			t.Fatal(err)
		}
	}
	if got := g.Result(); got != (Result{GoteWins, ReasonPerpetualCheck}) {
		t.Errorf("Sho perpetual check: %v", got)
	}
}
