package encode

import (
	"errors"
	"fmt"
	"sync"

	"chuzero/rules"
)

// Version is the encode version: the layout of the input planes and the
// policy index. It is stored in every sample file and checkpoint; data of
// another version is refused. The sample record has its own version,
// RecordVersion.
const Version = 1

// MaxHistory is the most past moves a sample records and a Spec can feed.
const MaxHistory = 8

// Options are the choices of a Spec beyond the variant.
type Options struct {
	// HistoryPlies is how many past moves get from/to planes (0..MaxHistory).
	HistoryPlies int
	// ProgressPlies scales the progress plane: plies played /
	// ProgressPlies, at most 1. A run sets it to its self-play ply cap, so
	// that a game longer than any the network trained on (a match past
	// the cap) shows it the inputs of the cap and not new ones. 0 is the
	// rules' MaxPlies, the layout of the networks made before the option
	// existed, which load and encode as they always did.
	ProgressPlies int
}

// DefaultOptions returns the defaults: four plies of history, the progress
// plane over the rules' MaxPlies (a run sets ProgressPlies to its cap).
func DefaultOptions() Options { return Options{HistoryPlies: 4} }

// Validate reports a problem with o.
func (o Options) Validate() error {
	if o.HistoryPlies < 0 || o.HistoryPlies > MaxHistory {
		return fmt.Errorf("encode: HistoryPlies %d out of range 0..%d", o.HistoryPlies, MaxHistory)
	}
	if o.ProgressPlies < 0 {
		return fmt.Errorf("encode: ProgressPlies %d is negative", o.ProgressPlies)
	}
	return nil
}

// optionPlane is a constant plane that is 1 when a rules option has a
// given (non-default) value.
type optionPlane struct {
	name, value string
}

// Spec is the tensor contract of one variant: input planes (C x H x W,
// float32, from the side to move's point of view) and the policy index.
// It does not depend on the rules options (they are input planes), so one
// network serves every option setting of its variant.
type Spec struct {
	Version      int
	Variant      rules.VariantID
	Height       int
	Width        int
	HistoryPlies int
	// ProgressPlies scales the progress plane (Options.ProgressPlies; 0:
	// the rules' MaxPlies).
	ProgressPlies int
	Planes        int // C
	PolicySize    int

	base  *rules.Rules // the variant at its defaults, for the layout
	kinds int

	// plane offsets
	ownPieces, oppPieces int
	csPlane              int // -1 if the variant has no Lions
	supPlanes            int // -1 unless the variant has PromotionRule
	repPlanes            int // 3 planes: seen once, twice, three or more times
	progressPlane        int
	colorPlane           int
	optPlanes            int
	options              []optionPlane
	historyPlanes        int

	// policy layout
	lineDist   int // longest slide: max(H, W) - 1
	single     int // move-type planes of one-leg moves: 8*lineDist + 8
	doubleBase int // first plane of the 64 two-leg planes, or -1
	passIndex  int // index of the pass, or -1
	mirror     []int32
}

// Info identifies a Spec in checkpoints and sample files.
type Info struct {
	Version      int    `json:"version"`
	Variant      string `json:"variant"`
	HistoryPlies int    `json:"history_plies"`
	Planes       int    `json:"planes"`
	PolicySize   int    `json:"policy_size"`
	Height       int    `json:"height"`
	Width        int    `json:"width"`
	// ProgressPlies is absent in the networks made before it existed: 0,
	// the progress plane over the rules' MaxPlies.
	ProgressPlies int `json:"progress_plies,omitempty"`
}

// Info returns the identity of the spec.
func (s *Spec) Info() Info {
	return Info{Version: s.Version, Variant: s.Variant.String(), HistoryPlies: s.HistoryPlies,
		Planes: s.Planes, PolicySize: s.PolicySize, Height: s.Height, Width: s.Width, ProgressPlies: s.ProgressPlies}
}

// Options returns the options the spec was made with.
func (s *Spec) Options() Options {
	return Options{HistoryPlies: s.HistoryPlies, ProgressPlies: s.ProgressPlies}
}

// Options returns the options of the spec i describes.
func (i Info) Options() Options {
	return Options{HistoryPlies: i.HistoryPlies, ProgressPlies: i.ProgressPlies}
}

// Check reports whether i describes this spec, with a clear error if not.
func (s *Spec) Check(i Info) error {
	if i.Version != s.Version {
		return fmt.Errorf("encode: version %d, this build encodes version %d", i.Version, s.Version)
	}
	if want := s.Info(); i != want {
		return fmt.Errorf("encode: spec mismatch: have %+v, want %+v", i, want)
	}
	return nil
}

var (
	specMu    sync.Mutex
	specCache = map[[3]int]*Spec{}
)

// NewSpec returns the spec of variant v with options o. Specs are cached
// and immutable.
func NewSpec(v rules.VariantID, o Options) (*Spec, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	key := [3]int{int(v), o.HistoryPlies, o.ProgressPlies}
	specMu.Lock()
	defer specMu.Unlock()
	if s := specCache[key]; s != nil {
		return s, nil
	}
	r, err := rules.New(rules.DefaultConfig(v))
	if err != nil {
		return nil, err
	}
	s := &Spec{Version: Version, Variant: v, Height: r.Ranks(), Width: r.Files(), HistoryPlies: o.HistoryPlies,
		ProgressPlies: o.ProgressPlies, base: r}
	s.layout()
	specCache[key] = s
	return s, nil
}

// MustSpec is NewSpec for arguments known to be valid.
func MustSpec(v rules.VariantID, o Options) *Spec {
	s, err := NewSpec(v, o)
	if err != nil {
		panic(err)
	}
	return s
}

func (s *Spec) layout() {
	r := s.base
	s.kinds = r.NumKinds()
	n := 0
	alloc := func(k int) int { n += k; return n - k }
	s.ownPieces = alloc(s.kinds)
	s.oppPieces = alloc(s.kinds)
	s.csPlane, s.supPlanes = -1, -1
	if r.HasLionPower() {
		s.csPlane = alloc(1)
	}
	hasSup := false
	for _, o := range rules.Options(s.Variant) {
		if o.Name == "PromotionRule" {
			hasSup = true
		}
	}
	if hasSup {
		s.supPlanes = alloc(2)
	}
	s.repPlanes = alloc(3)
	s.progressPlane = alloc(1)
	s.colorPlane = alloc(1)
	for _, o := range rules.Options(s.Variant) {
		if o.Name == "LionMoveEnumeration" || o.Name == "MaxPlies" {
			continue // not a change of play
		}
		for _, val := range o.Values {
			if val != o.Default {
				s.options = append(s.options, optionPlane{o.Name, val})
			}
		}
	}
	s.optPlanes = alloc(len(s.options))
	s.historyPlanes = alloc(2 * s.HistoryPlies)
	s.Planes = n

	hw := s.Height * s.Width
	s.lineDist = max(s.Height, s.Width) - 1
	s.single = 8*s.lineDist + len(knightOffsets)
	planes := 2 * s.single
	s.doubleBase, s.passIndex = -1, -1
	if r.HasLionPower() {
		s.doubleBase = planes
		planes += 64
	}
	s.PolicySize = planes * hw
	if r.HasLionPower() {
		s.passIndex = s.PolicySize
		s.PolicySize++
	}
	s.buildMirror()
}

// PlaneSize returns C*H*W, the length of one position's input.
func (s *Spec) PlaneSize() int { return s.Planes * s.Height * s.Width }

// PolicyPlanes returns the number of move-type planes over squares (the
// policy head's conv output channels); the pass, if any, is one index
// after them.
func (s *Spec) PolicyPlanes() int { return (s.PolicySize - s.hasPass()) / (s.Height * s.Width) }

// HasPass reports whether the policy has a pass index (the last one).
func (s *Spec) HasPass() bool { return s.passIndex >= 0 }

func (s *Spec) hasPass() int {
	if s.passIndex >= 0 {
		return 1
	}
	return 0
}

// errUnencodable is returned for a move no index describes.
var errUnencodable = errors.New("encode: move has no policy index")
