package rules

import (
	"slices"
	"strings"
)

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

// zeroDefault is the default of options whose first value is the default.
func zeroDefault(VariantID) uint8 { return 0 }

// options lists the enumerated options; the order is that of OptionNames
// and of the binary form.
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

// appliesTo reports whether o is an option of variant v.
func (o *option) appliesTo(v VariantID) bool { return slices.Contains(o.variants, v) }

// findOption returns the option called name (case-insensitive), or nil.
func findOption(name string) *option {
	for i := range options {
		if strings.EqualFold(options[i].name, name) {
			return &options[i]
		}
	}
	return nil
}

// allowedNames lists the values of o that variant v allows.
func (o *option) allowedNames(v VariantID) []string {
	var names []string
	for i, n := range o.values {
		if o.valueAllowed(v, uint8(i)) {
			names = append(names, n)
		}
	}
	return names
}
