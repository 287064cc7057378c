package rules

import (
	"fmt"
	"strings"
)

// Rules is a compiled variant with its options: piece tables for both
// colors, zones, hash keys. It is immutable and safe for concurrent use;
// positions point to it.
type Rules struct {
	cfg     Config
	v       Variant
	files   int
	ranks   int
	squares []Square // on-board squares, ranks 1..N, files a..

	kinds  []PieceDef           // index = Kind (0 unused)
	hodges []string             // Hodges abbreviation per Kind ("Ln", "+DH")
	byFEN  map[string]Kind      // "K", "+D"
	table  [128]moveTable       // index = Piece.index()
	zone   [2][boardSize]bool   // promotion zone per color
	last   [2][boardSize]bool   // last rank per color
	dead   [128][boardSize]bool // piece can never move again from this square
	empty  [boardSize]Piece     // the empty board with walls

	// reverse attack tables: for each piece, the reach along each absolute
	// direction (kingDirs order) and a mask of fixed leaps over the 5x5 box
	// (bit (dr+2)*5+(df+2), absolute offsets).
	reach    [128][8]uint8
	leapMask [128]uint32
	leaps    []leapCheck // union of the leap offsets any piece has, absolute

	paths         bool
	protection    LionProtection
	counterStrike CounterStrike
	hasLionPower  bool
}

// New compiles the rules for c.
func New(c Config) (*Rules, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	v, err := Describe(c.Variant)
	if err != nil {
		return nil, err
	}
	applyOptions(&v, c)
	r := &Rules{cfg: c, v: v, files: v.Files, ranks: v.Ranks}
	if err := r.compile(); err != nil {
		return nil, fmt.Errorf("rules: variant %s: %w", v.Name, err)
	}
	return r, nil
}

// MustNew is New for configurations known to be valid (defaults, tests); it
// panics on error.
func MustNew(c Config) *Rules {
	r, err := New(c)
	if err != nil {
		panic(err)
	}
	return r
}

// applyOptions turns the options of c into changes of the variant data.
func applyOptions(v *Variant, c Config) {
	piece := func(fen string) *PieceDef {
		p := v.pieceByFEN(fen)
		if p == nil {
			panic("rules: option refers to missing piece " + fen)
		}
		return p
	}
	v.MaxPlies = c.MaxPlies
	v.Repetition = c.Repetition
	switch c.Variant {
	case Chu:
		if c.FalconEaglePass == Off {
			piece("+H").Traits &^= TraitRayPass
			piece("+D").Traits &^= TraitRayPass
		}
		if c.PromotionRule == PromotionHodges {
			v.Promotion = PromoteHodges
		}
		if c.LanceLastRankPromotion == On {
			piece("L").Traits |= TraitLastRankPromotion
		}
		if c.GoBetweenLastRankPromotion == On {
			piece("I").Traits |= TraitLastRankPromotion
		}
		switch c.BareKing {
		case BareKingRuleJCSA:
			v.BareKing = BareKingJCSA
		case BareKingRuleSimple:
			v.BareKing = BareKingSimple
		case BareKingRuleOff:
			v.BareKing = BareKingNone
		}
	case Sho:
		if c.ShoRoyalty == RoyalByCapture {
			v.CheckRule = NoCheck
		}
	case Heian:
		if c.HeianFlyingDragon == DragonAlfil {
			piece("D").Moves = "-J--J"
		}
		if c.HeianDragonPromotion == DragonPromotesDragonHorse {
			// the promoted Dragon keeps its move and gains the orthogonal step
			m := []byte(piece("D").Moves)
			for _, col := range []int{0, 2, 3} {
				m[col] = '1'
			}
			piece("+D").Moves = string(m)
		}
		switch c.HeianPromotion {
		case HeianPromotionEntry:
			v.Promotion = PromoteEntry
		case HeianPromotionChu:
			v.Promotion = PromoteJCSA
		}
	}
}

// Config returns the options the rules were compiled with.
func (r *Rules) Config() Config { return r.cfg }

// Variant returns the variant description with the options applied.
func (r *Rules) Variant() *Variant { return &r.v }

// Files returns the board width.
func (r *Rules) Files() int { return r.files }

// Ranks returns the board height.
func (r *Rules) Ranks() int { return r.ranks }

// NumSquares returns files*ranks.
func (r *Rules) NumSquares() int { return r.files * r.ranks }

// Squares returns the on-board squares, rank 1 first, files left to right.
// The slice is shared; do not modify it.
func (r *Rules) Squares() []Square { return r.squares }

// NumKinds returns the number of rows of the piece table; kinds are
// 1..NumKinds.
func (r *Rules) NumKinds() int { return len(r.kinds) - 1 }

// KindDef returns the piece table row of k.
func (r *Rules) KindDef(k Kind) *PieceDef { return &r.kinds[k] }

// KindByFEN returns the kind spelled s ("K", "+D"), or 0.
func (r *Rules) KindByFEN(s string) Kind { return r.byFEN[strings.ToUpper(s)] }

// InZone reports whether s is in c's promotion zone.
func (r *Rules) InZone(c Color, s Square) bool { return r.zone[c][s] }

// IsLion reports whether p is a Lion for the trading rules.
func (r *Rules) IsLion(p Piece) bool { return p.IsPiece() && r.table[p.index()].lion }

// IsRoyal reports whether p is a royal piece.
func (r *Rules) IsRoyal(p Piece) bool { return p.IsPiece() && r.table[p.index()].royal }

// IsDead reports whether p standing on s can never move again.
func (r *Rules) IsDead(p Piece, s Square) bool { return p.IsPiece() && r.dead[p.index()][s] }

// Promoted returns the piece p becomes on promotion, or Empty.
func (r *Rules) Promoted(p Piece) Piece {
	if !p.IsPiece() {
		return Empty
	}
	return r.table[p.index()].promo
}

// HasLionPower reports whether any piece of the variant has lion power
// (two-leg moves and the pass).
func (r *Rules) HasLionPower() bool { return r.hasLionPower }
