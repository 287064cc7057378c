package model

import (
	"fmt"
	"sort"
	"strings"

	"chuzero/encode"
)

// Config is the architecture of a network: a residual tower of 3x3
// convolutions with batch normalisation, optional KataGo-style global
// pooling, a convolutional policy head and a win/draw/loss value head.
type Config struct {
	Blocks  int `json:"blocks"`  // residual blocks
	Filters int `json:"filters"` // channels of the tower
	// GlobalPoolEvery adds a global-pooling bias layer inside every k-th
	// block (0: none): the block's mean activation per channel goes through
	// a dense layer and is added to every square, so whole-board context
	// reaches every square cheaply.
	GlobalPoolEvery int `json:"global_pool_every"`
	PolicyFilters   int `json:"policy_filters"` // hidden channels of the policy head
	ValueFilters    int `json:"value_filters"`  // channels of the value head's 1x1 convolution
	ValueHidden     int `json:"value_hidden"`   // width of the value head's dense layer
	// AuxHeads adds the auxiliary training heads (aux.go): the opponent's
	// reply policy, material, ownership and short-term values. They are
	// trained only; inference (Net) never computes them. A checkpoint
	// whose config lacks the key predates them: it loads with the heads
	// on and freshly initialised (WeightsFromCheckpoint).
	AuxHeads bool `json:"aux_heads"`
	// ValueResidual makes the value head a residual of the capture search
	// (issue 40): it is trained toward the value target less
	// ValueResidual times the capture search's value of the position, and
	// a search that blends the capture value backs up the head's value plus
	// ValueResidual times it (eval.Request.Residual). 0: the head learns
	// the whole value.
	ValueResidual float64 `json:"value_residual,omitempty"`
}

// Presets are the named architectures.
var Presets = map[string]Config{
	"tiny":   {Blocks: 2, Filters: 16, GlobalPoolEvery: 2, PolicyFilters: 16, ValueFilters: 8, ValueHidden: 16, AuxHeads: true},
	"small":  {Blocks: 6, Filters: 64, GlobalPoolEvery: 3, PolicyFilters: 64, ValueFilters: 32, ValueHidden: 64, AuxHeads: true},
	"medium": {Blocks: 10, Filters: 128, GlobalPoolEvery: 3, PolicyFilters: 128, ValueFilters: 32, ValueHidden: 128, AuxHeads: true},
	"large":  {Blocks: 15, Filters: 192, GlobalPoolEvery: 3, PolicyFilters: 192, ValueFilters: 64, ValueHidden: 256, AuxHeads: true},
}

// PresetNames lists the presets from small to large.
func PresetNames() []string {
	names := make([]string, 0, len(Presets))
	for n := range Presets {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := Presets[names[i]], Presets[names[j]]
		return a.Blocks*a.Filters*a.Filters < b.Blocks*b.Filters*b.Filters
	})
	return names
}

// Preset returns the named preset.
func Preset(name string) (Config, error) {
	c, ok := Presets[strings.ToLower(name)]
	if !ok {
		return Config{}, fmt.Errorf("model: unknown preset %q (want %s)", name, strings.Join(PresetNames(), ", "))
	}
	return c, nil
}

// Override returns c with the given sizes in place of its own (0 keeps
// one): residual blocks, filters (the trunk's and the policy head's) and
// the global pooling interval.
func (c Config) Override(blocks, filters, globalPoolEvery int) Config {
	if blocks > 0 {
		c.Blocks = blocks
	}
	if filters > 0 {
		c.Filters, c.PolicyFilters = filters, filters
	}
	if globalPoolEvery > 0 {
		c.GlobalPoolEvery = globalPoolEvery
	}
	return c
}

// DefaultConfig returns the CPU default, the small preset.
func DefaultConfig() Config { return Presets["small"] }

// Validate reports a problem with c.
func (c Config) Validate() error {
	switch {
	case c.Blocks < 0 || c.Blocks > 64:
		return fmt.Errorf("model: %d blocks out of range 0..64", c.Blocks)
	case c.Filters < 1 || c.Filters > 1024:
		return fmt.Errorf("model: %d filters out of range 1..1024", c.Filters)
	case c.GlobalPoolEvery < 0:
		return fmt.Errorf("model: GlobalPoolEvery %d is negative", c.GlobalPoolEvery)
	case c.PolicyFilters < 1 || c.ValueFilters < 1 || c.ValueHidden < 1:
		return fmt.Errorf("model: head widths must be positive: %+v", c)
	case !(c.ValueResidual >= 0 && c.ValueResidual <= 1):
		return fmt.Errorf("model: value_residual %v out of range 0..1", c.ValueResidual)
	}
	return nil
}

// hasGlobalPool reports whether block i has a global-pooling layer.
func (c Config) hasGlobalPool(i int) bool {
	return c.GlobalPoolEvery > 0 && (i+1)%c.GlobalPoolEvery == 0
}

// String returns e.g. "6x64".
func (c Config) String() string { return fmt.Sprintf("%dx%d", c.Blocks, c.Filters) }

// ForwardFLOPs returns the floating-point operations of one position's
// forward pass (2 per multiply-add, convolutions and dense layers; the
// normalisation and activations are not counted) at inference, which
// skips the auxiliary heads.
func (c Config) ForwardFLOPs(s *encode.Spec) float64 {
	hw := float64(s.Height * s.Width)
	f := float64(c.Filters)
	flops := 2 * hw * 9 * float64(s.Planes) * f // stem
	flops += float64(c.Blocks) * 2 * (2 * hw * 9 * f * f)
	for i := 0; i < c.Blocks; i++ {
		if c.hasGlobalPool(i) {
			flops += 2 * f * f
		}
	}
	pf, vf := float64(c.PolicyFilters), float64(c.ValueFilters)
	flops += 2*hw*f*pf + 2*hw*pf*float64(s.PolicyPlanes()) // policy head
	if s.HasPass() {
		flops += 2 * pf
	}
	flops += 2*hw*f*vf + 2*(2*vf)*float64(c.ValueHidden) + 2*float64(c.ValueHidden)*3 // value head
	return flops
}
