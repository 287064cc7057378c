package rules

import "fmt"

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

// compile checks the variant data and builds every table of r.
func (r *Rules) compile() error {
	v := &r.v
	if v.Files < 1 || v.Files > MaxFiles || v.Ranks < 1 || v.Ranks > MaxRanks {
		return fmt.Errorf("board %dx%d out of range", v.Files, v.Ranks)
	}
	if len(v.Pieces) >= maxKinds {
		return fmt.Errorf("%d piece kinds, at most %d", len(v.Pieces), maxKinds-1)
	}
	r.compileBoard()
	if err := r.compileKinds(); err != nil {
		return err
	}
	r.compileHodgesNames()
	if err := r.compileTables(); err != nil {
		return err
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

// compileBoard lays out the board: the on-board squares inside walls, the
// promotion zones and the last ranks.
func (r *Rules) compileBoard() {
	v := &r.v
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
}

// compileKinds numbers the piece rows from 1 and indexes them by FEN
// spelling.
func (r *Rules) compileKinds() error {
	r.kinds = make([]PieceDef, 1, len(r.v.Pieces)+1)
	r.byFEN = map[string]Kind{}
	for _, d := range r.v.Pieces {
		if len(d.Letter) != 1 || d.Letter[0] < 'A' || d.Letter[0] > 'Z' {
			return fmt.Errorf("piece %q: FEN letter must be one uppercase ASCII letter", d.Name)
		}
		if _, dup := r.byFEN[d.fen()]; dup {
			return fmt.Errorf("piece %s defined twice", d.fen())
		}
		r.byFEN[d.fen()] = Kind(len(r.kinds))
		r.kinds = append(r.kinds, d)
	}
	return nil
}

// compileHodgesNames gives every kind its Hodges abbreviation; a promoted
// kind is written as its unpromoted form with '+'.
func (r *Rules) compileHodgesNames() {
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
}

// compileTables builds the move tables and reverse attack tables of every
// piece of both colors, and the sorted union of their leap offsets.
func (r *Rules) compileTables() error {
	leapSet := map[int16]bool{}
	for k := Kind(1); int(k) < len(r.kinds); k++ {
		if err := r.compileKind(k, leapSet); err != nil {
			return err
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
	return nil
}

// compileKind builds the tables of kind k for both colors, adding its leap
// offsets to leapSet.
func (r *Rules) compileKind(k Kind, leapSet map[int16]bool) error {
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
