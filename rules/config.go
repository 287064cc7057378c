package rules

import (
	"fmt"
	"sort"
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

// ConfigOf returns the rules of variant v: its defaults with the
// assignments ("Name=Value") applied in order, validated. An option v
// does not have, or a value it does not allow, is an error.
func ConfigOf(v VariantID, assignments ...string) (Config, error) {
	c := DefaultConfig(v)
	if err := c.Apply(assignments, false); err != nil {
		return Config{}, err
	}
	return c, c.Validate()
}

// Apply applies the assignments ("Name=Value") in order. With lenient,
// one c's variant cannot take (an option it lacks, a value it does not
// allow: an assignment meant for another variant, as an engine offering
// all three gets) is skipped; a malformed one is an error either way.
func (c *Config) Apply(assignments []string, lenient bool) error {
	for _, a := range assignments {
		err := c.SetAssignment(a)
		if name, value, ok := strings.Cut(a, "="); err != nil && !(lenient && ok && name != "" && value != "") {
			return err
		}
	}
	return nil
}

// Assignments lists the options of m as "Name=Value", sorted by name.
func Assignments(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
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
