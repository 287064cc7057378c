package rules

import (
	"fmt"
	"strings"
)

// slide is one sliding or stepping direction of a piece: delta and maximum
// distance (1 = a step, 255 = unlimited).
type slide struct {
	d int16
	n uint8
}

const unlimited = 255

// moveTable is a piece's compiled movement for one color.
type moveTable struct {
	slides   []slide
	leaps    []int16 // fixed leaps (J columns, Knight)
	lionRays []int16 // lion-power directions of a Falcon or Eagle
	rayPass  bool    // may pass through an empty first square of a lion ray
	lion     bool    // full lion power
	royal    bool
	traits   Trait
	promo    Piece // promoted piece, or Empty
	kind     Kind
}

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

func (r *Rules) compile() error {
	v := &r.v
	if v.Files < 1 || v.Files > MaxFiles || v.Ranks < 1 || v.Ranks > MaxRanks {
		return fmt.Errorf("board %dx%d out of range", v.Files, v.Ranks)
	}
	if len(v.Pieces) >= maxKinds {
		return fmt.Errorf("%d piece kinds, at most %d", len(v.Pieces), maxKinds-1)
	}
	for i := range r.empty {
		r.empty[i] = Wall
	}
	for rank := 0; rank < v.Ranks; rank++ {
		for file := 0; file < v.Files; file++ {
			s := Sq(file, rank)
			r.squares = append(r.squares, s)
			r.empty[s] = Empty
			r.zone[Sente][s] = rank >= v.Ranks-v.ZoneDepth
			r.zone[Gote][s] = rank < v.ZoneDepth
			r.last[Sente][s] = rank == v.Ranks-1
			r.last[Gote][s] = rank == 0
		}
	}
	r.kinds = make([]PieceDef, 1, len(v.Pieces)+1)
	r.byFEN = map[string]Kind{}
	for _, d := range v.Pieces {
		if len(d.Letter) != 1 || d.Letter[0] < 'A' || d.Letter[0] > 'Z' {
			return fmt.Errorf("piece %q: FEN letter must be one uppercase ASCII letter", d.Name)
		}
		if _, dup := r.byFEN[d.fen()]; dup {
			return fmt.Errorf("piece %s defined twice", d.fen())
		}
		r.byFEN[d.fen()] = Kind(len(r.kinds))
		r.kinds = append(r.kinds, d)
	}
	r.hodges = make([]string, len(r.kinds))
	for k := Kind(1); int(k) < len(r.kinds); k++ {
		d := &r.kinds[k]
		if d.Promoted {
			continue
		}
		r.hodges[k] = d.Hodges
		if d.PromotesTo != "" {
			if pk, ok := r.byFEN[d.PromotesTo]; ok {
				r.hodges[pk] = "+" + d.Hodges
			}
		}
	}
	leapSet := map[int16]bool{}
	for k := Kind(1); int(k) < len(r.kinds); k++ {
		d := &r.kinds[k]
		if !d.Promoted && d.Hodges == "" {
			return fmt.Errorf("piece %s has no Hodges abbreviation", d.fen())
		}
		var promo Kind
		if d.PromotesTo != "" {
			var ok bool
			if promo, ok = r.byFEN[d.PromotesTo]; !ok {
				return fmt.Errorf("piece %s promotes to unknown %s", d.fen(), d.PromotesTo)
			}
		}
		for c := Sente; c <= Gote; c++ {
			p := MakePiece(k, c)
			t, err := compileMoves(d, c)
			if err != nil {
				return fmt.Errorf("piece %s: %w", d.fen(), err)
			}
			t.kind = k
			if promo != 0 {
				t.promo = MakePiece(promo, c)
			}
			r.table[p.index()] = t
			if t.lion || len(t.lionRays) > 0 {
				r.hasLionPower = true
			}
			r.compileReach(p, &t, leapSet)
		}
	}
	var offs []int16
	for o := range leapSet {
		offs = append(offs, o)
	}
	sortInt16(offs)
	for _, o := range offs {
		r.leaps = append(r.leaps, leapCheck{o, leapBit(int(o))})
	}
	r.computeDead()
	r.paths = r.cfg.LionMoveEnumeration == Paths
	r.protection = r.cfg.LionProtection
	r.counterStrike = r.cfg.CounterStrike
	if _, err := r.ParseSFEN(v.StartSFEN); err != nil {
		return fmt.Errorf("start position: %w", err)
	}
	return nil
}

// columnDirs maps the five movement columns to kingDirs indices.
var columnDirs = [5][]int{{0}, {7, 1}, {6, 2}, {4}, {5, 3}}

// compileMoves turns a piece row into move lists for color c.
func compileMoves(d *PieceDef, c Color) (moveTable, error) {
	t := moveTable{lion: d.Lion, royal: d.Royal, traits: d.Traits}
	sign := 1
	if c == Gote {
		sign = -1
	}
	if !d.Lion {
		if len(d.Moves) != 5 {
			return t, fmt.Errorf("movement %q must have 5 columns", d.Moves)
		}
		for col, code := range []byte(d.Moves) {
			for _, di := range columnDirs[col] {
				delta := int16(sign * kingDirs[di])
				switch {
				case code == '-':
				case code == '*':
					t.slides = append(t.slides, slide{delta, unlimited})
				case code >= '1' && code <= '9':
					t.slides = append(t.slides, slide{delta, code - '0'})
				case code == 'J':
					t.leaps = append(t.leaps, 2*delta)
				case code == 'L':
					t.lionRays = append(t.lionRays, delta)
				default:
					return t, fmt.Errorf("movement %q: unknown code %q", d.Moves, code)
				}
			}
		}
	}
	for _, l := range d.Leaps {
		if l.File < -2 || l.File > 2 || l.Rank < -2 || l.Rank > 2 || (l.File == 0 && l.Rank == 0) {
			return t, fmt.Errorf("leap %+v outside the 5x5 box", l)
		}
		t.leaps = append(t.leaps, int16(sign*(l.Rank*stride+l.File)))
	}
	t.rayPass = d.Traits&TraitRayPass != 0 && len(t.lionRays) > 0
	return t, nil
}

// leapBit returns the bit of an absolute offset within the 5x5 box.
func leapBit(o int) uint32 {
	// offsets are rank*16+file with |file|,|rank| <= 2
	row := (o + 2*stride + 2) / stride // 0..4 for rank offsets -2..2
	df := o - (row-2)*stride           // -2..2
	return 1 << uint(row*5+df+2)
}

// compileReach fills the reverse attack tables of p: how far it reaches
// along each direction by stepping or sliding (lion steps count as 1), and
// which squares it reaches by fixed leaps (lion jumps, J columns, knights,
// the second square of a lion ray).
func (r *Rules) compileReach(p Piece, t *moveTable, leapSet map[int16]bool) {
	addLeap := func(o int16) {
		r.leapMask[p.index()] |= leapBit(int(o))
		leapSet[o] = true
	}
	for _, s := range t.slides {
		i := dirIndex(int(s.d))
		if s.n > r.reach[p.index()][i] {
			r.reach[p.index()][i] = s.n
		}
	}
	for _, l := range t.leaps {
		addLeap(l)
	}
	for _, d := range t.lionRays {
		i := dirIndex(int(d))
		if r.reach[p.index()][i] < 1 {
			r.reach[p.index()][i] = 1
		}
		addLeap(2 * d)
	}
	if t.lion {
		for i := range kingDirs {
			if r.reach[p.index()][i] < 1 {
				r.reach[p.index()][i] = 1
			}
		}
		for _, o := range lionJumps {
			addLeap(o)
		}
	}
}

// lionJumps are the 16 offsets at distance exactly 2.
var lionJumps = func() []int16 {
	var o []int16
	for dr := -2; dr <= 2; dr++ {
		for df := -2; df <= 2; df++ {
			if dr == 2 || dr == -2 || df == 2 || df == -2 {
				o = append(o, int16(dr*stride+df))
			}
		}
	}
	return o
}()

// computeDead marks, for every piece and square, whether the piece could
// never move from there even on an empty board (an unpromoted Pawn or Lance
// on its last rank, a Knight on its last two): a dead piece.
func (r *Rules) computeDead() {
	for k := Kind(1); int(k) < len(r.kinds); k++ {
		for c := Sente; c <= Gote; c++ {
			p := MakePiece(k, c)
			t := &r.table[p.index()]
			for _, s := range r.squares {
				moves := t.lion
				for _, sl := range t.slides {
					moves = moves || r.empty[int(s)+int(sl.d)] == Empty
				}
				for _, l := range t.leaps {
					moves = moves || r.empty[int(s)+int(l)] == Empty
				}
				for _, d := range t.lionRays {
					moves = moves || r.empty[int(s)+int(d)] == Empty
				}
				r.dead[p.index()][s] = !moves
			}
		}
	}
}

func sortInt16(a []int16) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
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
