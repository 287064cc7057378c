package rules

import (
	"fmt"
	"strings"
)

// VariantID names one of the games the package knows.
type VariantID uint8

// The variants.
const (
	Chu   VariantID = 1 // Chu Shogi, 12x12
	Sho   VariantID = 2 // Sho Shogi, 9x9
	Heian VariantID = 3 // Heian Dai Shogi, 13x13
)

// Variants lists every variant in a stable order.
var Variants = []VariantID{Chu, Sho, Heian}

// String returns the variant's short name ("chu", "sho", "heian").
func (v VariantID) String() string {
	if d := variantDef(v); d != nil {
		return d.Name
	}
	return fmt.Sprintf("variant(%d)", uint8(v))
}

// ParseVariant returns the variant with the given short name.
func ParseVariant(s string) (VariantID, error) {
	for _, v := range Variants {
		if strings.EqualFold(s, variantDef(v).Name) {
			return v, nil
		}
	}
	return 0, fmt.Errorf("rules: unknown variant %q (want chu, sho or heian)", s)
}

// Leap is a fixed jump, as (file, rank) offsets from the mover's point of
// view (rank +1 = forward). A leap ignores what stands between.
type Leap struct{ File, Rank int }

// Trait marks a piece for rules that single out particular pieces.
type Trait uint8

// Traits.
const (
	// TraitNoBridge: capturing this piece as the first leg does not license a
	// Lion to take a protected Lion on the second leg (unpromoted Pawn and
	// Go-Between, chu-shogi.md §8.1).
	TraitNoBridge Trait = 1 << iota
	// TraitIneffective: does not count as material for the winning side of
	// the JCSA bare-King rule (unpromoted Pawn and Go-Between, §9.1).
	TraitIneffective
	// TraitLastRankPromotion: may promote on any move to its last rank (the
	// Pawn's "second chance" under the JCSA promotion rule, §6 case 3).
	TraitLastRankPromotion
	// TraitRayPass: a lion-power ray piece (Falcon, Eagle) that may pass
	// through an empty first square of its ray (option FalconEaglePass).
	TraitRayPass
)

// PieceDef is one row of a variant's piece table.
//
// Moves gives the piece's movement in five columns, the directions of the
// spec tables: F, FL/FR, L/R, B, BL/BR (all pieces here are left-right
// symmetric). Each column is one of
//
//   - no move
//     1..9   slides up to that many squares (1 = a single step)
//   - slides any distance
//     J      leaps to the second square, whatever stands on the first
//     L      lion power along the ray: step, jump to the 2nd square, igui,
//     capture-and-continue, pass (chu-shogi.md §5)
//
// Leaps adds fixed jumps (the Knight's); Lion gives full lion power (§4) and
// makes the piece a Lion for the Lion-trading rules.
type PieceDef struct {
	Letter     string   // FEN letter, uppercase; a promoted row repeats its base letter
	Promoted   bool     // written with a '+' prefix
	Name       string   // English name
	Hodges     string   // Hodges abbreviation of an unpromoted piece; promoted rows print "+" + base
	Aliases    []string // further Hodges spellings accepted on input
	Moves      string   // five movement columns, see above
	Leaps      []Leap   // extra fixed leaps
	Lion       bool     // full lion power; a Lion for the trading rules
	PromotesTo string   // FEN spelling of the promoted form ("+D"), "" if it never promotes
	Royal      bool     // King, Prince
	Traits     Trait
}

// fen returns the row's FEN spelling ("K", "+D").
func (d *PieceDef) fen() string {
	if d.Promoted {
		return "+" + d.Letter
	}
	return d.Letter
}

// CheckRule says whether a side may leave its royal attacked.
type CheckRule uint8

// Check rules.
const (
	// NoCheck: moving into or staying in check is legal; losing the last
	// royal loses (Chu).
	NoCheck CheckRule = iota
	// LoneRoyalCheck: a move that leaves the mover with exactly one royal,
	// and that royal attacked, is illegal (shogi; Sho's pseudo-royal rule;
	// Heian).
	LoneRoyalCheck
)

// PromotionMode says which moves may promote.
type PromotionMode uint8

// Promotion modes.
const (
	// PromoteJCSA: non-captures entering the zone, captures touching it, and
	// TraitLastRankPromotion pieces moving to their last rank (chu-shogi.md §6).
	PromoteJCSA PromotionMode = iota
	// PromoteHodges: any move touching the zone, except that a piece whose
	// previous move entered the zone and declined may promote next only by a
	// capture (one move of suppression).
	PromoteHodges
	// PromoteZone: any move that starts or ends in the zone (shogi).
	PromoteZone
	// PromoteEntry: only moves that enter the zone from outside.
	PromoteEntry
)

// BareKingRule selects the bare-King rule.
type BareKingRule uint8

// Bare-King rules.
const (
	BareKingNone BareKingRule = iota
	// BareKingJCSA is lishogi's formulation, tested on every position
	// (chu-shogi.md §9.1).
	BareKingJCSA
	// BareKingSimple: right after X's move, if Y is bare X wins, unless X is
	// bare too (draw) or X has exactly one other piece and Y's royal can
	// legally take it (draw) (heian-dai-shogi.md §6; Chu option Simple).
	BareKingSimple
)

// Variant describes a game as data: board, zone, piece table, start
// position and the rule mechanisms it switches on. Options of a Config adjust
// a copy of it before it is compiled into Rules.
type Variant struct {
	ID        VariantID
	Name      string // short name: "chu"
	Title     string // human title
	Files     int
	Ranks     int
	ZoneDepth int // promotion zone: this many far ranks
	Pieces    []PieceDef
	StartSFEN string

	CheckRule         CheckRule
	Promotion         PromotionMode
	ForcedPromotion   bool // a move that would leave an unpromoted piece unable to ever move must promote, when it may
	BareKing          BareKingRule
	TwoBareRoyalsDraw bool // one royal each, nothing else, neither attacked: draw (Chu)
	Repetition        Repetition
	MaxPlies          int

	XBoard  string // CECP variant name
	Sources string // where the rules come from
}

// variantDef returns the built-in description of v, or nil.
func variantDef(v VariantID) *Variant {
	switch v {
	case Chu:
		return &chuVariant
	case Sho:
		return &shoVariant
	case Heian:
		return &heianVariant
	}
	return nil
}

// Describe returns a copy of the built-in description of v, with its
// defaults (before options), or an error for an unknown variant.
func Describe(v VariantID) (Variant, error) {
	d := variantDef(v)
	if d == nil {
		return Variant{}, fmt.Errorf("rules: unknown variant %d", v)
	}
	c := *d
	c.Pieces = append([]PieceDef(nil), d.Pieces...)
	return c, nil
}

// pieceByFEN returns the row spelled s ("L", "+D") of v, or nil.
func (v *Variant) pieceByFEN(s string) *PieceDef {
	for i := range v.Pieces {
		if v.Pieces[i].fen() == s {
			return &v.Pieces[i]
		}
	}
	return nil
}

// Valid reports whether v is a known variant.
func (v VariantID) Valid() bool { return variantDef(v) != nil }
