package rules

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Option value types. Each is a closed set; the names are those of
// ../shared/rules/decisions.md.
type (
	// LionMoveEnumeration: Canonical (one move per effect) or Paths (every
	// two-step path, as lishogi counts; for cross-checking only).
	LionMoveEnumeration uint8
	// Switch is an On/Off option.
	Switch uint8
	// LionProtection: JCSA (a Pawn or Go-Between taken on the first leg still
	// protects) or AfterMove (H.G. Muller, HaChu).
	LionProtection uint8
	// CounterStrike: Strict or Okazaki (an unprotected Lion may be taken).
	CounterStrike uint8
	// PromotionRule (Chu): JCSA or Hodges.
	PromotionRule uint8
	// BareKing (Chu): JCSA, Simple or Off.
	BareKing uint8
	// Repetition: JCSA4, Draw4, HGM or Forbid (Chu); Draw4 (Sho, Heian).
	Repetition uint8
	// ShoRoyalty: PseudoRoyal (check rule while one royal) or Capture.
	ShoRoyalty uint8
	// HeianFlyingDragon: Bishop or Alfil.
	HeianFlyingDragon uint8
	// HeianDragonPromotion: Gold or DragonHorse.
	HeianDragonPromotion uint8
	// HeianPromotion: Shogi, Entry or Chu.
	HeianPromotion uint8
)

// Option values.
const (
	Canonical LionMoveEnumeration = 0
	Paths     LionMoveEnumeration = 1

	Off Switch = 0
	On  Switch = 1

	ProtectionJCSA      LionProtection = 0
	ProtectionAfterMove LionProtection = 1

	CounterStrikeStrict  CounterStrike = 0
	CounterStrikeOkazaki CounterStrike = 1

	PromotionJCSA   PromotionRule = 0
	PromotionHodges PromotionRule = 1

	BareKingRuleJCSA   BareKing = 0
	BareKingRuleSimple BareKing = 1
	BareKingRuleOff    BareKing = 2

	RepetitionJCSA4  Repetition = 0
	RepetitionDraw4  Repetition = 1
	RepetitionHGM    Repetition = 2
	RepetitionForbid Repetition = 3

	PseudoRoyal    ShoRoyalty = 0
	RoyalByCapture ShoRoyalty = 1

	DragonBishop HeianFlyingDragon = 0
	DragonAlfil  HeianFlyingDragon = 1

	DragonPromotesGold        HeianDragonPromotion = 0
	DragonPromotesDragonHorse HeianDragonPromotion = 1

	HeianPromotionShogi HeianPromotion = 0
	HeianPromotionEntry HeianPromotion = 1
	HeianPromotionChu   HeianPromotion = 2
)

// Config is a variant together with every rules option. Options are part of
// a game's identity: store them with every record and sample. Options that
// do not apply to the variant stay at their zero value.
type Config struct {
	Variant                    VariantID
	LionMoveEnumeration        LionMoveEnumeration
	FalconEaglePass            Switch
	LionProtection             LionProtection
	CounterStrike              CounterStrike
	PromotionRule              PromotionRule
	LanceLastRankPromotion     Switch
	GoBetweenLastRankPromotion Switch
	BareKing                   BareKing
	Repetition                 Repetition
	ShoRoyalty                 ShoRoyalty
	HeianFlyingDragon          HeianFlyingDragon
	HeianDragonPromotion       HeianDragonPromotion
	HeianPromotion             HeianPromotion
	MaxPlies                   int
}

// option describes one enumerated option of the index in decisions.md.
type option struct {
	name     string
	variants []VariantID
	values   []string             // index = stored value
	allowed  func(VariantID) bool // nil: every value allowed
	def      func(VariantID) uint8
	get      func(*Config) uint8
	set      func(*Config, uint8)
}

func zeroDefault(VariantID) uint8 { return 0 }

var options = []option{
	{name: "LionMoveEnumeration", variants: []VariantID{Chu}, values: []string{"Canonical", "Paths"}, def: zeroDefault,
		get: func(c *Config) uint8 { return uint8(c.LionMoveEnumeration) },
		set: func(c *Config, v uint8) { c.LionMoveEnumeration = LionMoveEnumeration(v) }},
	{name: "FalconEaglePass", variants: []VariantID{Chu}, values: []string{"Off", "On"}, def: func(VariantID) uint8 { return uint8(On) },
		get: func(c *Config) uint8 { return uint8(c.FalconEaglePass) },
		set: func(c *Config, v uint8) { c.FalconEaglePass = Switch(v) }},
	{name: "LionProtection", variants: []VariantID{Chu}, values: []string{"JCSA", "AfterMove"}, def: zeroDefault,
		get: func(c *Config) uint8 { return uint8(c.LionProtection) },
		set: func(c *Config, v uint8) { c.LionProtection = LionProtection(v) }},
	{name: "CounterStrike", variants: []VariantID{Chu}, values: []string{"Strict", "Okazaki"}, def: zeroDefault,
		get: func(c *Config) uint8 { return uint8(c.CounterStrike) },
		set: func(c *Config, v uint8) { c.CounterStrike = CounterStrike(v) }},
	{name: "PromotionRule", variants: []VariantID{Chu}, values: []string{"JCSA", "Hodges"}, def: zeroDefault,
		get: func(c *Config) uint8 { return uint8(c.PromotionRule) },
		set: func(c *Config, v uint8) { c.PromotionRule = PromotionRule(v) }},
	{name: "LanceLastRankPromotion", variants: []VariantID{Chu}, values: []string{"Off", "On"}, def: zeroDefault,
		get: func(c *Config) uint8 { return uint8(c.LanceLastRankPromotion) },
		set: func(c *Config, v uint8) { c.LanceLastRankPromotion = Switch(v) }},
	{name: "GoBetweenLastRankPromotion", variants: []VariantID{Chu}, values: []string{"Off", "On"}, def: zeroDefault,
		get: func(c *Config) uint8 { return uint8(c.GoBetweenLastRankPromotion) },
		set: func(c *Config, v uint8) { c.GoBetweenLastRankPromotion = Switch(v) }},
	{name: "BareKing", variants: []VariantID{Chu}, values: []string{"JCSA", "Simple", "Off"}, def: zeroDefault,
		get: func(c *Config) uint8 { return uint8(c.BareKing) },
		set: func(c *Config, v uint8) { c.BareKing = BareKing(v) }},
	{name: "Repetition", variants: []VariantID{Chu, Sho, Heian}, values: []string{"JCSA4", "Draw4", "HGM", "Forbid"},
		allowed: func(v VariantID) bool { return v == Chu },
		def: func(v VariantID) uint8 {
			if v == Chu {
				return uint8(RepetitionJCSA4)
			}
			return uint8(RepetitionDraw4)
		},
		get: func(c *Config) uint8 { return uint8(c.Repetition) },
		set: func(c *Config, v uint8) { c.Repetition = Repetition(v) }},
	{name: "ShoRoyalty", variants: []VariantID{Sho}, values: []string{"PseudoRoyal", "Capture"}, def: zeroDefault,
		get: func(c *Config) uint8 { return uint8(c.ShoRoyalty) },
		set: func(c *Config, v uint8) { c.ShoRoyalty = ShoRoyalty(v) }},
	{name: "HeianFlyingDragon", variants: []VariantID{Heian}, values: []string{"Bishop", "Alfil"}, def: zeroDefault,
		get: func(c *Config) uint8 { return uint8(c.HeianFlyingDragon) },
		set: func(c *Config, v uint8) { c.HeianFlyingDragon = HeianFlyingDragon(v) }},
	{name: "HeianDragonPromotion", variants: []VariantID{Heian}, values: []string{"Gold", "DragonHorse"}, def: zeroDefault,
		get: func(c *Config) uint8 { return uint8(c.HeianDragonPromotion) },
		set: func(c *Config, v uint8) { c.HeianDragonPromotion = HeianDragonPromotion(v) }},
	{name: "HeianPromotion", variants: []VariantID{Heian}, values: []string{"Shogi", "Entry", "Chu"}, def: zeroDefault,
		get: func(c *Config) uint8 { return uint8(c.HeianPromotion) },
		set: func(c *Config, v uint8) { c.HeianPromotion = HeianPromotion(v) }},
}

// valueAllowed reports whether value index i of o may be used in variant v.
// Only Chu knows every Repetition rule; Sho and Heian have Draw4 alone.
func (o *option) valueAllowed(v VariantID, i uint8) bool {
	if int(i) >= len(o.values) {
		return false
	}
	if o.allowed == nil || o.allowed(v) {
		return true
	}
	return i == o.def(v)
}

func (o *option) appliesTo(v VariantID) bool { return slices.Contains(o.variants, v) }

func findOption(name string) *option {
	for i := range options {
		if strings.EqualFold(options[i].name, name) {
			return &options[i]
		}
	}
	return nil
}

// DefaultConfig returns the variant with every option at its default.
func DefaultConfig(v VariantID) Config {
	c := Config{Variant: v}
	for i := range options {
		o := &options[i]
		if o.appliesTo(v) {
			o.set(&c, o.def(v))
		}
	}
	if d := variantDef(v); d != nil {
		c.MaxPlies = d.MaxPlies
	}
	return c
}

// Validate reports the first problem with c, if any.
func (c Config) Validate() error {
	if variantDef(c.Variant) == nil {
		return fmt.Errorf("rules: unknown variant %d", c.Variant)
	}
	for i := range options {
		o := &options[i]
		val := o.get(&c)
		if !o.appliesTo(c.Variant) {
			if val != 0 {
				return fmt.Errorf("rules: option %s does not apply to %s", o.name, c.Variant)
			}
			continue
		}
		if !o.valueAllowed(c.Variant, val) {
			return fmt.Errorf("rules: option %s has value %d, not allowed for %s (allowed: %s)",
				o.name, val, c.Variant, strings.Join(o.allowedNames(c.Variant), ", "))
		}
	}
	if c.MaxPlies < 1 {
		return fmt.Errorf("rules: MaxPlies must be at least 1, got %d", c.MaxPlies)
	}
	if c.MaxPlies > 1<<20 {
		return fmt.Errorf("rules: MaxPlies %d is above the limit %d", c.MaxPlies, 1<<20)
	}
	return nil
}

func (o *option) allowedNames(v VariantID) []string {
	var names []string
	for i, n := range o.values {
		if o.valueAllowed(v, uint8(i)) {
			names = append(names, n)
		}
	}
	return names
}

// Set sets the option called name (as in decisions.md, case-insensitive) to
// value, e.g. Set("LanceLastRankPromotion", "On") or Set("MaxPlies", "300").
func (c *Config) Set(name, value string) error {
	if strings.EqualFold(name, "MaxPlies") {
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 {
			return fmt.Errorf("rules: MaxPlies must be a positive integer, got %q", value)
		}
		c.MaxPlies = n
		return nil
	}
	o := findOption(name)
	if o == nil {
		return fmt.Errorf("rules: unknown option %q (known: %s)", name, strings.Join(OptionNames(), ", "))
	}
	if !o.appliesTo(c.Variant) {
		return fmt.Errorf("rules: option %s does not apply to %s", o.name, c.Variant)
	}
	for i, n := range o.values {
		if strings.EqualFold(n, value) {
			if !o.valueAllowed(c.Variant, uint8(i)) {
				break
			}
			o.set(c, uint8(i))
			return nil
		}
	}
	return fmt.Errorf("rules: option %s cannot be %q for %s (allowed: %s)",
		o.name, value, c.Variant, strings.Join(o.allowedNames(c.Variant), ", "))
}

// SetAssignment applies "Name=Value".
func (c *Config) SetAssignment(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || name == "" || value == "" {
		return fmt.Errorf("rules: option %q is not of the form Name=Value", s)
	}
	return c.Set(strings.TrimSpace(name), strings.TrimSpace(value))
}

// OptionNames lists every option name, MaxPlies last.
func OptionNames() []string {
	var n []string
	for _, o := range options {
		n = append(n, o.name)
	}
	return append(n, "MaxPlies")
}

// OptionInfo describes an option for documentation and help text.
type OptionInfo struct {
	Name    string
	Values  []string // allowed values for the variant ("integer >= 1" for MaxPlies)
	Default string
}

// Options lists the options that apply to variant v with their allowed
// values and defaults.
func Options(v VariantID) []OptionInfo {
	var out []OptionInfo
	for i := range options {
		o := &options[i]
		if !o.appliesTo(v) {
			continue
		}
		out = append(out, OptionInfo{Name: o.name, Values: o.allowedNames(v), Default: o.values[o.def(v)]})
	}
	def := 0
	if d := variantDef(v); d != nil {
		def = d.MaxPlies
	}
	return append(out, OptionInfo{Name: "MaxPlies", Values: []string{"integer >= 1"}, Default: strconv.Itoa(def)})
}

// String returns the config as "chu LionMoveEnumeration=Canonical ...
// MaxPlies=1000", listing every option that applies to the variant.
func (c Config) String() string {
	var b strings.Builder
	b.WriteString(c.Variant.String())
	for i := range options {
		o := &options[i]
		if !o.appliesTo(c.Variant) {
			continue
		}
		v := o.get(&c)
		name := fmt.Sprintf("%d", v)
		if int(v) < len(o.values) {
			name = o.values[v]
		}
		fmt.Fprintf(&b, " %s=%s", o.name, name)
	}
	fmt.Fprintf(&b, " MaxPlies=%d", c.MaxPlies)
	return b.String()
}

// ParseConfig reads the form written by String: a variant name followed by
// any number of Name=Value assignments; missing options take defaults.
func ParseConfig(s string) (Config, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return Config{}, errors.New("rules: empty config")
	}
	v, err := ParseVariant(f[0])
	if err != nil {
		return Config{}, err
	}
	c := DefaultConfig(v)
	for _, a := range f[1:] {
		if err := c.SetAssignment(a); err != nil {
			return Config{}, err
		}
	}
	return c, c.Validate()
}

// MarshalText implements encoding.TextMarshaler with String's form.
func (c Config) MarshalText() ([]byte, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return []byte(c.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (c *Config) UnmarshalText(b []byte) error {
	p, err := ParseConfig(string(b))
	if err != nil {
		return err
	}
	*c = p
	return nil
}

// BinarySize is the length of the binary form of a Config.
const BinarySize = 20

// AppendBinary appends the fixed-size binary form: the variant byte, one
// byte per option in the order of OptionNames (13 options), two reserved
// zero bytes, and MaxPlies as uint32 little-endian.
func (c Config) AppendBinary(b []byte) ([]byte, error) {
	if err := c.Validate(); err != nil {
		return b, err
	}
	b = append(b, byte(c.Variant))
	for i := range options {
		b = append(b, options[i].get(&c))
	}
	b = append(b, 0, 0)
	m := uint32(c.MaxPlies)
	return append(b, byte(m), byte(m>>8), byte(m>>16), byte(m>>24)), nil
}

// UnmarshalBinary reads the form written by AppendBinary and validates it.
func (c *Config) UnmarshalBinary(b []byte) error {
	if len(b) != BinarySize {
		return fmt.Errorf("rules: binary config has %d bytes, want %d", len(b), BinarySize)
	}
	var n Config
	n.Variant = VariantID(b[0])
	for i := range options {
		options[i].set(&n, b[1+i])
	}
	if b[1+len(options)] != 0 || b[2+len(options)] != 0 {
		return errors.New("rules: binary config has non-zero reserved bytes")
	}
	p := b[3+len(options):]
	n.MaxPlies = int(uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24)
	if err := n.Validate(); err != nil {
		return err
	}
	*c = n
	return nil
}

// Value returns the current value of the option called name, as written in
// decisions.md ("On", "JCSA", or the number for MaxPlies).
func (c Config) Value(name string) (string, error) {
	if strings.EqualFold(name, "MaxPlies") {
		return strconv.Itoa(c.MaxPlies), nil
	}
	o := findOption(name)
	if o == nil {
		return "", fmt.Errorf("rules: unknown option %q", name)
	}
	v := o.get(&c)
	if int(v) >= len(o.values) {
		return "", fmt.Errorf("rules: option %s has bad value %d", o.name, v)
	}
	return o.values[v], nil
}
