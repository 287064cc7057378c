package encode

import (
	"fmt"
	"sync"

	"chuzero/rules"
)

// State is what the input planes describe: a position, the moves that led
// to it and how often it has occurred.
type State struct {
	Pos *rules.Position
	// History holds past moves, oldest first; the last one led to Pos.
	// Only the last HistoryPlies are used.
	History []rules.Move
	// Repetitions counts the occurrences of Pos so far (1 = first time).
	Repetitions int
}

// StateOf returns the state of a game's current position. buf receives
// the history (up to MaxHistory moves) so that no allocation is needed.
func StateOf(g *rules.Game, buf []rules.Move) State {
	n := g.Len()
	k := min(n, MaxHistory)
	buf = buf[:0]
	for i := n - k; i < n; i++ {
		buf = append(buf, g.MoveAt(i))
	}
	return State{Pos: g.Position(), History: buf, Repetitions: g.RepetitionCount()}
}

// optionBits caches, per rules config, which option planes are on.
var optionBits sync.Map // key optKey, value []bool

type optKey struct {
	spec *Spec
	cfg  rules.Config
}

func (s *Spec) optionsOn(cfg rules.Config) []bool {
	k := optKey{s, cfg}
	if v, ok := optionBits.Load(k); ok {
		return v.([]bool)
	}
	on := make([]bool, len(s.options))
	for i, o := range s.options {
		val, err := cfg.Value(o.name)
		on[i] = err == nil && val == o.value
	}
	optionBits.Store(k, on)
	return on
}

// pov returns the dense index of square sq as the side to move c sees the
// board: Gote's view is the board rotated 180 degrees, so each side's
// pieces move up the planes.
func (s *Spec) pov(r *rules.Rules, c rules.Color, sq rules.Square) int {
	i := r.Index(sq)
	if c == rules.Gote {
		return s.Height*s.Width - 1 - i
	}
	return i
}

// Encode writes the input planes of st into dst, which must have length
// PlaneSize. It allocates nothing (after the first call per rules config).
func (s *Spec) Encode(st *State, dst []float32) error {
	if len(dst) != s.PlaneSize() {
		return fmt.Errorf("encode: plane buffer has %d floats, want %d", len(dst), s.PlaneSize())
	}
	p := st.Pos
	r := p.Rules()
	if r.Config().Variant != s.Variant {
		return fmt.Errorf("encode: a %s position for a %s spec", r.Config().Variant, s.Variant)
	}
	clear(dst)
	hw := s.Height * s.Width
	side := p.SideToMove()
	for _, sq := range r.Squares() {
		pc := p.At(sq)
		if !pc.IsPiece() {
			continue
		}
		plane := s.ownPieces
		if pc.Color() != side {
			plane = s.oppPieces
		}
		dst[(plane+int(pc.Kind())-1)*hw+s.pov(r, side, sq)] = 1
	}
	if s.csPlane >= 0 && p.CounterStrike() != rules.NoSquare {
		dst[s.csPlane*hw+s.pov(r, side, p.CounterStrike())] = 1
	}
	if s.supPlanes >= 0 {
		for i, c := range []rules.Color{side, side.Other()} {
			if sq := p.Suppressed(c); sq != rules.NoSquare {
				dst[(s.supPlanes+i)*hw+s.pov(r, side, sq)] = 1
			}
		}
	}
	rep := min(max(st.Repetitions, 1), 3) - 1
	fill(dst[(s.repPlanes+rep)*hw:][:hw], 1)
	scale := s.ProgressPlies
	if scale <= 0 {
		scale = r.Config().MaxPlies
	}
	fill(dst[s.progressPlane*hw:][:hw], float32(min(p.Plies(), scale))/float32(scale))
	if side == rules.Gote {
		fill(dst[s.colorPlane*hw:][:hw], 1)
	}
	for i, on := range s.optionsOn(r.Config()) {
		if on {
			fill(dst[(s.optPlanes+i)*hw:][:hw], 1)
		}
	}
	// history: plane pair 0 is the last move, 1 the one before, ...
	h := st.History
	for i := 0; i < s.HistoryPlies && i < len(h); i++ {
		m := h[len(h)-1-i]
		if m.IsPass() || m == rules.NoMove {
			continue
		}
		from := (s.historyPlanes + 2*i) * hw
		to := from + hw
		dst[from+s.pov(r, side, m.From())] = 1
		dst[to+s.pov(r, side, m.To())] = 1
		if m.IsDouble() {
			dst[to+s.pov(r, side, m.Mid())] = 1
		}
	}
	return nil
}

func fill(a []float32, v float32) {
	for i := range a {
		a[i] = v
	}
}

// PlaneNames returns a name for every input plane, in order (for the
// documentation table and debugging dumps).
func (s *Spec) PlaneNames() []string {
	names := make([]string, s.Planes)
	for k := 1; k <= s.kinds; k++ {
		d := s.base.KindDef(rules.Kind(k))
		fen := d.Letter
		if d.Promoted {
			fen = "+" + fen
		}
		names[s.ownPieces+k-1] = "own " + fen + " (" + d.Name + ")"
		names[s.oppPieces+k-1] = "opponent " + fen + " (" + d.Name + ")"
	}
	if s.csPlane >= 0 {
		names[s.csPlane] = "counter-strike square"
	}
	if s.supPlanes >= 0 {
		names[s.supPlanes] = "own Hodges suppression square"
		names[s.supPlanes+1] = "opponent Hodges suppression square"
	}
	names[s.repPlanes] = "position seen once (constant)"
	names[s.repPlanes+1] = "position seen twice (constant)"
	names[s.repPlanes+2] = "position seen three or more times (constant)"
	names[s.progressPlane] = "plies / progress plies, at most 1 (constant)"
	names[s.colorPlane] = "Gote to move (constant)"
	for i, o := range s.options {
		names[s.optPlanes+i] = o.name + "=" + o.value + " (constant)"
	}
	for i := 0; i < s.HistoryPlies; i++ {
		names[s.historyPlanes+2*i] = fmt.Sprintf("move %d plies ago: origin", i+1)
		names[s.historyPlanes+2*i+1] = fmt.Sprintf("move %d plies ago: destination and first-leg square", i+1)
	}
	return names
}
