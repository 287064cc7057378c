package encode

import (
	"math/rand/v2"
	"testing"

	"chuzero/rules"
)

// ruleSets are the configurations the property tests walk: every variant,
// plus Chu with lishogi's path enumeration (two-leg moves through empty
// squares) and the Heian option that adds the Alfil leap.
func ruleSets(t testing.TB) []*rules.Rules {
	var out []*rules.Rules
	for _, v := range rules.Variants {
		out = append(out, rules.MustNew(rules.DefaultConfig(v)))
	}
	c := rules.DefaultConfig(rules.Chu)
	c.LionMoveEnumeration = rules.Paths
	out = append(out, rules.MustNew(c))
	c = rules.DefaultConfig(rules.Heian)
	c.HeianFlyingDragon = rules.DragonAlfil
	out = append(out, rules.MustNew(c))
	return out
}

// randomGames calls visit on every position of seeded random games until n
// positions have been seen.
func randomGames(t testing.TB, r *rules.Rules, seed uint64, n int, visit func(g *rules.Game)) {
	rng := rand.New(rand.NewPCG(seed, 7))
	g := rules.NewGame(r.StartPosition())
	for i := 0; i < n; i++ {
		if g.Result().Over() || g.Len() > 250 {
			g = rules.NewGame(r.StartPosition())
		}
		visit(g)
		moves := g.LegalMoves()
		m := moves[rng.IntN(len(moves))]
		// prefer captures now and then, to reach Lion fights and promotions
		if rng.IntN(3) == 0 {
			p := g.Position()
			for _, c := range moves {
				if !c.IsPass() && (p.At(c.To()).IsPiece() && c.To() != c.From() || c.IsDouble() && p.At(c.Mid()).IsPiece()) {
					m = c
					if rng.IntN(2) == 0 {
						break
					}
				}
			}
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
}

func positionsPerRuleSet() int {
	if testing.Short() {
		return 1500
	}
	return 6000
}

// TestPolicyBijection: over thousands of random positions of every variant,
// every legal move maps to a unique in-range index that decodes back to it.
func TestPolicyBijection(t *testing.T) {
	for ri, r := range ruleSets(t) {
		s := MustSpec(r.Config().Variant, DefaultOptions())
		t.Run(r.Config().String(), func(t *testing.T) {
			moves := 0
			randomGames(t, r, uint64(ri), positionsPerRuleSet(), func(g *rules.Game) {
				p := g.Position()
				seen := map[int]rules.Move{}
				for _, m := range g.LegalMoves() {
					i := s.Index(p, m)
					if i < 0 || i >= s.PolicySize {
						t.Fatalf("%s: %s has index %d outside [0, %d)", p.SFEN(), p.MoveString(m), i, s.PolicySize)
					}
					if o, dup := seen[i]; dup {
						t.Fatalf("%s: %s and %s share index %d", p.SFEN(), p.MoveString(m), p.MoveString(o), i)
					}
					seen[i] = m
					back, ok := s.Move(p, i)
					if !ok || back != m {
						t.Fatalf("%s: index %d of %s decodes to %v (%v)", p.SFEN(), i, p.MoveString(m), back, ok)
					}
					moves++
				}
			})
			t.Logf("%d moves checked", moves)
		})
	}
}

// TestMirrorInvariance shows the rules are left-right symmetric before
// mirroring is used for augmentation: over thousands of random positions of
// every variant, the legal moves of the mirrored position are exactly the
// mirrored legal moves, and the policy permutation agrees with mirroring
// the moves.
func TestMirrorInvariance(t *testing.T) {
	for ri, r := range ruleSets(t) {
		s := MustSpec(r.Config().Variant, DefaultOptions())
		t.Run(r.Config().String(), func(t *testing.T) {
			randomGames(t, r, uint64(100+ri), positionsPerRuleSet(), func(g *rules.Game) {
				p := g.Position()
				q := p.Mirrored()
				want := map[rules.Move]bool{}
				for _, m := range g.LegalMoves() {
					want[r.MirrorMove(m)] = true
					mi := s.MirrorIndex(s.Index(p, m))
					if got := s.Index(&q, r.MirrorMove(m)); got != mi {
						t.Fatalf("%s: MirrorIndex of %s = %d, index of the mirrored move = %d", p.SFEN(), p.MoveString(m), mi, got)
					}
				}
				got := q.GenerateMoves(nil)
				if len(got) != len(want) {
					t.Fatalf("%s: %d legal moves, mirrored position %s has %d", p.SFEN(), len(want), q.SFEN(), len(got))
				}
				for _, m := range got {
					if !want[m] {
						t.Fatalf("%s: mirrored position has %s, not a mirrored legal move", q.SFEN(), q.MoveString(m))
					}
				}
			})
		})
	}
}

func TestMirrorIsInvolution(t *testing.T) {
	for _, v := range rules.Variants {
		s := MustSpec(v, DefaultOptions())
		for i := 0; i < s.PolicySize; i++ {
			if j := s.MirrorIndex(i); j < 0 || j >= s.PolicySize || s.MirrorIndex(j) != i {
				t.Fatalf("%s: mirror(%d) = %d, mirror of that %d", v, i, j, s.MirrorIndex(j))
			}
		}
	}
}

func TestSpecSizes(t *testing.T) {
	tests := []struct {
		v              rules.VariantID
		planes, policy int
	}{
		{rules.Chu, 105, 36865},
		{rules.Sho, 46, 11664},
		{rules.Heian, 65, 35152},
	}
	for _, tt := range tests {
		s := MustSpec(tt.v, DefaultOptions())
		if s.Planes != tt.planes || s.PolicySize != tt.policy {
			t.Errorf("%s: %d planes, policy %d; want %d, %d", tt.v, s.Planes, s.PolicySize, tt.planes, tt.policy)
		}
		if err := s.Check(s.Info()); err != nil {
			t.Errorf("Check(own info) = %v", err)
		}
		i := s.Info()
		i.Version++
		if s.Check(i) == nil {
			t.Errorf("Check accepts another version")
		}
	}
}
