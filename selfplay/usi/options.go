package usi

import (
	"strconv"
	"strings"
	"time"

	"chuzero/rules"
)

// identify answers "usi": the name, the options, usiok.
func (e *Engine) identify() {
	e.send("id name %s", e.cfg.Name)
	e.send("id author the chuzero authors")
	var names []string
	for _, v := range e.variants {
		names = append(names, "var "+variantNames[v])
	}
	e.send("option name USI_Variant type combo default %s %s", variantNames[e.variant], strings.Join(names, " "))
	e.send("option name USI_Hash type spin default %d min 1 max 1048576", e.hashMB)
	e.send("option name USI_Ponder type check default false")
	e.send("option name Move Overhead type spin default %d min 0 max 60000", e.overhead.Milliseconds())
	e.send("option name Threads type spin default %d min 1 max 1024", e.threads)
	e.send("option name MultiPV type spin default %d min 1 max 500", e.multiPV)
	e.send("option name Simulations type spin default %d min 0 max 100000000", e.cfg.Budget.Simulations)
	e.send("option name AvoidRoyalEnPrise type check default %t", !e.allowEnPrise)
	seen := map[string]bool{}
	for _, v := range append([]rules.VariantID{e.variant}, e.variants...) {
		c := rules.DefaultConfig(v)
		for _, a := range e.cfg.Rules {
			c.SetAssignment(a)
		}
		for _, o := range rules.Options(v) {
			if seen[o.Name] {
				continue
			}
			seen[o.Name] = true
			cur, _ := c.Value(o.Name)
			if o.Name == "MaxPlies" {
				e.send("option name MaxPlies type spin default %s min 0 max 100000", cur)
				continue
			}
			e.send("option name %s type combo default %s var %s", o.Name, cur, strings.Join(o.Values, " var "))
		}
	}
	e.send("usiok")
}

// setOption handles "setoption name NAME [value VALUE]". Rules options
// and USI_Variant apply from the next position; the others at once.
func (e *Engine) setOption(arg string) {
	rest, ok := strings.CutPrefix(arg, "name ")
	if !ok {
		e.sendError("setoption: want name NAME value VALUE: %s", clip(arg))
		return
	}
	name, value, _ := strings.Cut(rest, " value ")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	bad := func() { e.sendError("setoption: bad value %q for %s", clip(value), clip(name)) }
	switch strings.ToLower(name) {
	case "usi_variant":
		v, ok := parseVariant(value)
		if !ok || !e.offers(v) {
			e.sendError("setoption: variant %q is not offered", clip(value))
			return
		}
		if v != e.variant {
			e.variant, e.rules, e.game = v, nil, nil
			if err := e.newPlayer(); err != nil {
				e.sendError("%v", err)
			}
		}
	case "usi_hash", "hash": // Hash: the Lishogi-Bot bridge's example config

		if !setInt(&e.hashMB, value, 1) {
			bad()
		}
	case "move overhead":
		ms := 0
		if !setInt(&ms, value, 0) || ms > 60000 {
			bad()
			return
		}
		e.overhead = time.Duration(ms) * time.Millisecond
	case "multipv":
		if !setInt(&e.multiPV, value, 1) {
			bad()
		}
	case "threads":
		if !setInt(&e.threads, value, 1) {
			bad()
		}
	case "simulations":
		n := e.cfg.Budget.Simulations
		if !setInt(&n, value, 0) {
			bad()
			return
		}
		e.cfg.Budget.Simulations = n
	case "usi_ponder":
		if value != "true" && value != "false" {
			bad()
		}
	case "avoidroyalenprise":
		if value != "true" && value != "false" {
			bad()
			return
		}
		e.allowEnPrise = value == "false"
	default:
		e.setRulesOption(name, value)
	}
}

// setRulesOption sets a rules option that some variant offered has.
func (e *Engine) setRulesOption(name, value string) {
	if strings.EqualFold(name, "MaxPlies") && value == "0" { // the variant's own
		delete(e.options, name)
		e.rules = nil
		return
	}
	known := false
	for _, v := range e.variants {
		c := rules.DefaultConfig(v)
		if err := c.Set(name, value); err == nil && c.Validate() == nil {
			known = true
		}
	}
	if !known {
		e.sendError("setoption: unknown option or value: %s = %s", clip(name), clip(value))
		return
	}
	e.options[name] = value
	e.rules = nil
}

// setInt sets *v to the number s if it is at least least.
func setInt(v *int, s string, least int) bool {
	n, err := strconv.Atoi(s)
	if err != nil || n < least || n > 1<<30 {
		return false
	}
	*v = n
	return true
}
