package rules

import (
	"math/rand/v2"
	"testing"
)

// playoutConfigs are the rule sets the random-playout test runs: every
// variant at its defaults plus the options that change move generation or
// position state.
var playoutConfigs = []struct {
	v    VariantID
	opts []string
}{
	{Chu, nil},
	{Chu, []string{"LionMoveEnumeration=Paths", "LanceLastRankPromotion=On"}},
	{Chu, []string{"PromotionRule=Hodges", "LionProtection=AfterMove", "CounterStrike=Okazaki"}},
	{Chu, []string{"Repetition=Forbid", "BareKing=Simple", "FalconEaglePass=Off"}},
	{Sho, nil},
	{Sho, []string{"ShoRoyalty=Capture"}},
	{Heian, nil},
	{Heian, []string{"HeianFlyingDragon=Alfil", "HeianDragonPromotion=DragonHorse", "HeianPromotion=Entry"}},
	{Heian, []string{"HeianPromotion=Chu"}},
}

// randomMove picks a legal move, preferring captures and Lion moves now and
// then so that games reach the interesting positions (Lion trades,
// counter-strike, promotions, bare kings) quickly.
func randomMove(rng *rand.Rand, p *Position, moves []Move) Move {
	if rng.IntN(3) == 0 {
		var caps []Move
		for _, m := range moves {
			if (!m.IsPass() && p.At(m.To()).IsPiece() && m.To() != m.From()) || (m.IsDouble() && p.At(m.Mid()).IsPiece()) {
				caps = append(caps, m)
			}
		}
		if len(caps) > 0 {
			return caps[rng.IntN(len(caps))]
		}
	}
	return moves[rng.IntN(len(moves))]
}

// TestRandomPlayoutInvariants plays seeded random games and checks at every
// ply: SFEN and FEN round trips, incremental hash equals recomputed hash,
// Make/Unmake restores the position for every legal move, every legal
// move's text round-trips in machine, USI and Hodges notation, and there
// are no duplicate moves.
func TestRandomPlayoutInvariants(t *testing.T) {
	plies := 2500
	if testing.Short() {
		plies = 400
	}
	for ci, pc := range playoutConfigs {
		r := rulesWith(t, pc.v, pc.opts...)
		t.Run(r.Config().String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(ci), 42))
			g := NewGame(r.StartPosition())
			for ply := 0; ply < plies; ply++ {
				if g.Result().Over() || g.Len() > 300 {
					g = NewGame(r.StartPosition())
				}
				p := g.Position()
				checkInvariants(t, p)
				if t.Failed() {
					t.Fatalf("after %v", movesText(g))
				}
				moves := g.LegalMoves()
				if err := g.Play(randomMove(rng, p, moves)); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func movesText(g *Game) []string {
	p := g.Start()
	var out []string
	for _, m := range g.Moves() {
		out = append(out, p.MoveString(m))
		p.Make(m)
	}
	return out
}

func checkInvariants(t *testing.T, p *Position) {
	t.Helper()
	r := p.r
	sfen := p.SFEN()
	q, err := r.ParseSFEN(sfen)
	if err != nil {
		t.Fatalf("ParseSFEN(SFEN()) = %v", err)
	}
	if !q.Equal(p) || q.SFEN() != sfen {
		t.Fatalf("SFEN round trip changed %q into %q", sfen, q.SFEN())
	}
	fen := p.FEN()
	if q, err = r.ParseFEN(fen); err != nil || !q.Equal(p) || q.FEN() != fen {
		t.Fatalf("FEN round trip of %q: %v, %q", fen, err, q.FEN())
	}
	if p.Hash() != p.ComputeHash() {
		t.Fatalf("%s: incremental hash %x, recomputed %x", sfen, p.Hash(), p.ComputeHash())
	}
	moves := p.GenerateMoves(nil)
	seen := map[Move]bool{}
	before := *p
	for _, m := range moves {
		if seen[m] {
			t.Errorf("%s: duplicate move %s", sfen, p.MoveString(m))
		}
		seen[m] = true
		u := p.Make(m)
		if p.Hash() != p.ComputeHash() {
			t.Errorf("%s: %s: incremental hash differs from recomputed", sfen, p.MoveString(m))
		}
		p.Unmake(m, u)
		if !p.Equal(&before) {
			t.Fatalf("%s: Unmake(%s) did not restore the position: %s", sfen, p.MoveString(m), p.SFEN())
		}
		for _, n := range []struct {
			name   string
			format func(Move) string
			parse  func(string) (Move, error)
		}{
			{"machine", p.MoveString, p.ParseMove},
			{"usi", p.USI, p.ParseUSI},
			{"hodges", p.Hodges, p.ParseHodges},
		} {
			s := n.format(m)
			got, err := n.parse(s)
			if err != nil || got != m {
				t.Errorf("%s: %s %q parses to %v, %v (want %s)", sfen, n.name, s, got, err, p.MoveString(m))
			}
		}
	}
}
