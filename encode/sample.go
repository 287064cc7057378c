package encode

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"

	"chuzero/rules"
)

// Outcome is a value target: the game's result from the point of view of
// the side to move in the sample's position.
type Outcome uint8

// Outcomes.
const (
	Win Outcome = iota
	Draw
	Loss
)

// WDL returns the outcome as a one-hot win/draw/loss triple.
func (o Outcome) WDL() [3]float32 {
	var t [3]float32
	if o <= Loss {
		t[o] = 1
	}
	return t
}

// OutcomeFor returns the outcome of a finished game for side c.
func OutcomeFor(res rules.Result, c rules.Color) Outcome {
	switch w, ok := res.Winner(); {
	case !ok:
		return Draw
	case w == c:
		return Win
	}
	return Loss
}

// HistMove is a past move in the sample's absolute coordinates: dense
// square indices (rank*W + file, 0..168), 255 for "none".
type HistMove struct {
	From, Mid, To uint8
	Flags         uint8 // bit 0 promotes, bit 1 pass
}

const (
	histPromote = 1 << 0
	histPass    = 1 << 1
	noDense     = 255
)

// PolicyEntry is one (index, probability) pair of a sparse policy target.
type PolicyEntry struct {
	Index uint32
	Prob  float32
}

// Sample is one training position. See the package documentation for the
// binary record, field by field.
type Sample struct {
	Config      rules.Config // variant and rules options
	GameID      uint64
	Ply         uint32  // plies played before the position (SFEN move number - 1)
	FullSearch  bool    // the move had a full search (its policy is a training target)
	Repetitions uint8   // occurrences of the position so far (1 = first)
	RootValue   float32 // the search's root value for the side to move, in [-1, 1]
	RootVisits  uint32
	Outcome     Outcome
	History     []HistMove // past moves, oldest first (at most MaxHistory)
	SFEN        string
	Policy      []PolicyEntry // search target over legal moves; sums to 1 when non-empty

	// Truncated: the game was stopped by the self-play ply cap, so it has no
	// real result; Outcome is Draw and EndValue holds the search's estimate
	// of the result (the value target used instead of the draw).
	Truncated bool
	// EndValue is the value target standing in for the result of a
	// truncated game, from the side to move's point of view, in [-1, 1].
	EndValue float32
	// Aux holds the auxiliary training targets (version 2 records); nil
	// when the record has none.
	Aux *AuxTargets
}

// AuxTargets are the auxiliary training targets of a sample (KataGo-style
// heads that speed up learning; they are never used in play).
type AuxTargets struct {
	// ReplyPolicy is the opponent's reply target: the next ply's
	// full-search policy, indexed in the next position's own frame (the
	// opponent's point of view); empty when the next move had no full
	// search or the game ended.
	ReplyPolicy []PolicyEntry
	// MaterialEnd and MaterialAhead are the material balance (side to move
	// minus opponent, piece-table values, divided by one side's starting
	// material, clamped to [-1, 1]) at the game's end and AuxAheadPlies
	// plies ahead (or at the end, if sooner).
	MaterialEnd, MaterialAhead float32
	// Ownership is, for every square in dense absolute order (rank*W +
	// file), who occupies it at the game's end: +1 the side to move of this
	// sample, -1 the opponent, 0 empty.
	Ownership []int8
	// ShortValue are short-term value targets over the horizons
	// ShortValueHorizons: the exponentially weighted average, weight
	// (1-1/h)^k, of the root values k plies ahead from this side's point of
	// view, the game's result standing for every ply past its end.
	ShortValue [3]float32
}

// AuxAheadPlies is the horizon of AuxTargets.MaterialAhead.
const AuxAheadPlies = 16

// ShortValueHorizons are the horizons, in plies, of AuxTargets.ShortValue.
var ShortValueHorizons = [3]int{6, 16, 50}

// Limits that keep a corrupt or hostile record from asking for absurd
// allocations.
const (
	maxSFEN        = 4096
	maxPolicy      = 1 << 16
	maxRecordBytes = 1 << 20
)

// NewSample fills the position part of a sample from a game's current
// position: config, ply, SFEN, repetitions and history.
func NewSample(g *rules.Game, gameID uint64) Sample {
	p := g.Position()
	r := p.Rules()
	s := Sample{Config: r.Config(), GameID: gameID, Ply: uint32(p.Plies()), SFEN: p.SFEN(),
		Repetitions: uint8(min(g.RepetitionCount(), 255))}
	n := g.Len()
	for i := max(0, n-MaxHistory); i < n; i++ {
		s.History = append(s.History, histMove(r, g.MoveAt(i)))
	}
	return s
}

func histMove(r *rules.Rules, m rules.Move) HistMove {
	if m.IsPass() {
		return HistMove{noDense, noDense, noDense, histPass}
	}
	h := HistMove{From: uint8(r.Index(m.From())), Mid: noDense, To: uint8(r.Index(m.To()))}
	if m.IsDouble() {
		h.Mid = uint8(r.Index(m.Mid()))
	}
	if m.IsPromotion() {
		h.Flags |= histPromote
	}
	return h
}

func (h HistMove) move(r *rules.Rules) (rules.Move, error) {
	if h.Flags&histPass != 0 {
		return rules.Pass, nil
	}
	n := r.NumSquares()
	if int(h.From) >= n || int(h.To) >= n || (h.Mid != noDense && int(h.Mid) >= n) {
		return rules.NoMove, errors.New("history square off the board")
	}
	m := rules.NewMove(r.SquareAt(int(h.From)), r.SquareAt(int(h.To)))
	if h.Mid != noDense {
		m = rules.NewDoubleMove(r.SquareAt(int(h.From)), r.SquareAt(int(h.Mid)), r.SquareAt(int(h.To)))
	}
	if h.Flags&histPromote != 0 {
		m = m.WithPromotion()
	}
	return m, nil
}

// rulesCache compiles each rules config once.
var rulesCache sync.Map // rules.Config -> *rules.Rules

// RulesFor returns the compiled rules of c, cached.
func RulesFor(c rules.Config) (*rules.Rules, error) {
	if r, ok := rulesCache.Load(c); ok {
		return r.(*rules.Rules), nil
	}
	r, err := rules.New(c)
	if err != nil {
		return nil, err
	}
	rulesCache.Store(c, r)
	return r, nil
}

// Position rebuilds the sample's position, and appends its history moves
// (oldest first) to hist.
func (s *Sample) Position(hist []rules.Move) (rules.Position, []rules.Move, error) {
	r, err := RulesFor(s.Config)
	if err != nil {
		return rules.Position{}, hist, err
	}
	p, err := r.ParseSFEN(s.SFEN)
	if err != nil {
		return rules.Position{}, hist, err
	}
	for _, h := range s.History {
		m, err := h.move(r)
		if err != nil {
			return rules.Position{}, hist, err
		}
		hist = append(hist, m)
	}
	return p, hist, nil
}

// EncodeSample writes the input planes of a sample into dst (length
// PlaneSize), mirrored left-right if mirror is set.
func (spec *Spec) EncodeSample(s *Sample, dst []float32, mirror bool) error {
	var buf [MaxHistory]rules.Move
	p, hist, err := s.Position(buf[:0])
	if err != nil {
		return err
	}
	if mirror {
		r := p.Rules()
		p = p.Mirrored()
		for i, m := range hist {
			hist[i] = r.MirrorMove(m)
		}
	}
	return spec.Encode(&State{Pos: &p, History: hist, Repetitions: int(s.Repetitions)}, dst)
}

// AppendBinary appends the sample's record (length-prefixed, see the
// package documentation).
func (s *Sample) AppendBinary(b []byte) ([]byte, error) {
	if len(s.SFEN) > maxSFEN {
		return b, fmt.Errorf("encode: SFEN of %d bytes", len(s.SFEN))
	}
	if len(s.History) > MaxHistory {
		return b, fmt.Errorf("encode: %d history moves, at most %d", len(s.History), MaxHistory)
	}
	if len(s.Policy) > maxPolicy {
		return b, fmt.Errorf("encode: policy of %d entries", len(s.Policy))
	}
	start := len(b)
	b = append(b, 0, 0, 0, 0) // length, filled in below
	b = append(b, Version, byte(s.Config.Variant))
	var err error
	if b, err = s.Config.AppendBinary(b); err != nil {
		return b[:start], err
	}
	b = binary.LittleEndian.AppendUint64(b, s.GameID)
	b = binary.LittleEndian.AppendUint32(b, s.Ply)
	var flags byte
	if s.FullSearch {
		flags |= 1
	}
	b = append(b, flags, s.Repetitions)
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(s.RootValue))
	b = binary.LittleEndian.AppendUint32(b, s.RootVisits)
	b = append(b, byte(s.Outcome), byte(len(s.History)))
	for _, h := range s.History {
		b = append(b, h.From, h.Mid, h.To, h.Flags)
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(len(s.SFEN)))
	b = append(b, s.SFEN...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s.Policy)))
	for _, e := range s.Policy {
		b = binary.LittleEndian.AppendUint32(b, e.Index)
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(e.Prob))
	}
	binary.LittleEndian.PutUint32(b[start:], uint32(len(b)-start-4))
	return b, nil
}

// decodeRecord reads one record body (after its length field).
func decodeRecord(b []byte, s *Sample) error {
	d := decoder{b: b}
	version := d.u8()
	if d.err == nil && version != Version {
		return fmt.Errorf("record of encode version %d, this build reads %d", version, Version)
	}
	variant := d.u8()
	cfg := d.bytes(rules.BinarySize)
	if d.err != nil {
		return d.err
	}
	if err := s.Config.UnmarshalBinary(cfg); err != nil {
		return err
	}
	if byte(s.Config.Variant) != variant {
		return fmt.Errorf("record variant %d disagrees with its rules config (%s)", variant, s.Config.Variant)
	}
	s.GameID = d.u64()
	s.Ply = d.u32()
	flags := d.u8()
	s.FullSearch = flags&1 != 0
	s.Repetitions = d.u8()
	s.RootValue = math.Float32frombits(d.u32())
	s.RootVisits = d.u32()
	s.Outcome = Outcome(d.u8())
	nh := int(d.u8())
	if d.err == nil && (flags&^1 != 0 || s.Outcome > Loss || nh > MaxHistory) {
		return fmt.Errorf("bad flags %#x, outcome %d or history count %d", flags, s.Outcome, nh)
	}
	s.History = s.History[:0]
	for i := 0; i < nh && d.err == nil; i++ {
		h := d.bytes(4)
		if d.err == nil {
			s.History = append(s.History, HistMove{h[0], h[1], h[2], h[3]})
		}
	}
	ns := int(d.u16())
	if d.err == nil && ns > maxSFEN {
		return fmt.Errorf("SFEN length %d", ns)
	}
	s.SFEN = string(d.bytes(ns))
	np := int(d.u32())
	if d.err == nil && (np > maxPolicy || np*8 > len(d.b)-d.off) {
		return fmt.Errorf("policy of %d entries does not fit the record", np)
	}
	s.Policy = s.Policy[:0]
	for i := 0; i < np && d.err == nil; i++ {
		idx := d.u32()
		s.Policy = append(s.Policy, PolicyEntry{idx, math.Float32frombits(d.u32())})
	}
	if d.err != nil {
		return d.err
	}
	if d.off != len(b) {
		return fmt.Errorf("%d unread bytes at the end of the record", len(b)-d.off)
	}
	return nil
}

// Validate checks a decoded sample against its spec: the position parses,
// the history decodes, every policy index is in range with a finite,
// non-negative probability.
func (s *Sample) Validate(spec *Spec) error {
	if s.Config.Variant != spec.Variant {
		return fmt.Errorf("encode: %s sample for a %s spec", s.Config.Variant, spec.Variant)
	}
	if _, _, err := s.Position(nil); err != nil {
		return err
	}
	if math.IsNaN(float64(s.RootValue)) || s.RootValue < -1 || s.RootValue > 1 {
		return fmt.Errorf("encode: root value %v outside [-1, 1]", s.RootValue)
	}
	for _, e := range s.Policy {
		if int(e.Index) >= spec.PolicySize || !(e.Prob >= 0) || math.IsInf(float64(e.Prob), 0) {
			return fmt.Errorf("encode: policy entry %+v invalid", e)
		}
	}
	return nil
}

// decoder reads little-endian fields and remembers the first overrun.
type decoder struct {
	b   []byte
	off int
	err error
}

var errShort = errors.New("record ends early")

func (d *decoder) bytes(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || d.off+n > len(d.b) {
		d.err = errShort
		return nil
	}
	out := d.b[d.off : d.off+n]
	d.off += n
	return out
}

func (d *decoder) u8() uint8 {
	if b := d.bytes(1); b != nil {
		return b[0]
	}
	return 0
}

func (d *decoder) u16() uint16 {
	if b := d.bytes(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if b := d.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if b := d.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}
