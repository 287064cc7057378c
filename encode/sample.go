package encode

import (
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

// Validate checks a decoded sample against its spec: the position parses,
// the history decodes, every policy index (of the policy and the reply
// policy) is in range with a finite, non-negative probability, the values
// are in [-1, 1] and the ownership covers the board.
func (s *Sample) Validate(spec *Spec) error {
	if s.Config.Variant != spec.Variant {
		return fmt.Errorf("encode: %s sample for a %s spec", s.Config.Variant, spec.Variant)
	}
	if _, _, err := s.Position(nil); err != nil {
		return err
	}
	if s.Outcome > Loss {
		return fmt.Errorf("encode: outcome %d", s.Outcome)
	}
	if err := checkUnit("root value", s.RootValue); err != nil {
		return err
	}
	if err := checkUnit("end value", s.EndValue); err != nil {
		return err
	}
	if err := checkPolicy(spec, "policy", s.Policy); err != nil {
		return err
	}
	if s.Aux != nil {
		return s.Aux.validate(spec)
	}
	return nil
}

// checkUnit reports a value that is NaN or outside [-1, 1].
func checkUnit(what string, v float32) error {
	if !(v >= -1 && v <= 1) {
		return fmt.Errorf("encode: %s %v outside [-1, 1]", what, v)
	}
	return nil
}

// checkPolicy reports a policy entry off the policy or with a probability
// outside [0, 1], and a non-empty policy whose probabilities do not sum to
// about 1 (the training loss uses them as they are).
func checkPolicy(spec *Spec, what string, p []PolicyEntry) error {
	var sum float64
	for _, e := range p {
		if int(e.Index) >= spec.PolicySize || !(e.Prob >= 0 && e.Prob <= 1+policySlack) {
			return fmt.Errorf("encode: %s entry %+v invalid", what, e)
		}
		sum += float64(e.Prob)
	}
	if len(p) > 0 && math.Abs(sum-1) > policySlack {
		return fmt.Errorf("encode: %s probabilities sum to %v", what, sum)
	}
	return nil
}

// policySlack is the rounding a stored policy's probabilities may show.
const policySlack = 1e-3
