package usi

import (
	"math"
	"strconv"
	"strings"
	"time"

	"chuzero/rules"
	"chuzero/selfplay/engine"
)

// identify answers "usi": the name, the options, usiok.
func (e *Engine) identify() {
	e.Send("id name %s", e.Cfg.Name)
	e.Send("id author the chuzero authors")
	var names []string
	for _, v := range e.Cfg.Variants {
		names = append(names, "var "+variantNames[v])
	}
	e.Send("option name USI_Variant type combo default %s %s", variantNames[e.variant], strings.Join(names, " "))
	e.Send("option name USI_Hash type spin default %d min 1 max 1048576", e.hashMB)
	e.Send("option name USI_Ponder type check default false")
	e.Send("option name Move Overhead type spin default %d min 0 max 60000", e.overhead.Milliseconds())
	e.Send("option name Threads type spin default %d min 1 max 1024", e.threads)
	e.Send("option name MultiPV type spin default %d min 1 max 500", e.MultiPV)
	e.Send("option name Simulations type spin default %d min 0 max 100000000", e.Cfg.Budget.Simulations)
	e.Send("option name AvoidRoyalEnPrise type check default %t", !e.AllowEnPrise)
	e.Send("option name Quiescence type spin default %d min 0 max 100", int(math.Round(100*e.Quiescence())))
	config := func(v rules.VariantID) rules.Config {
		c, err := e.RulesConfig(v, nil)
		if err != nil { // a GUI value the rules refuse together: the defaults apply
			e.sendError("%v", err)
		}
		return c
	}
	for _, o := range engine.RulesOptions(append([]rules.VariantID{e.variant}, e.Cfg.Variants...), config) {
		if o.Values == nil {
			e.Send("option name %s type spin default %s min 0 max 100000", o.Name, o.Current)
			continue
		}
		e.Send("option name %s type combo default %s var %s", o.Name, o.Current, strings.Join(o.Values, " var "))
	}
	e.Send("usiok")
}

// setOption handles "setoption name NAME [value VALUE]". Rules options
// and USI_Variant apply from the next position; the others at once.
func (e *Engine) setOption(arg string) {
	rest, ok := strings.CutPrefix(arg, "name ")
	if !ok {
		e.sendError("setoption: want name NAME value VALUE: %s", engine.Clip(arg))
		return
	}
	name, value, _ := strings.Cut(rest, " value ")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	bad := func() { e.sendError("setoption: bad value %q for %s", engine.Clip(value), engine.Clip(name)) }
	switch strings.ToLower(name) {
	case "usi_variant":
		v, ok := parseVariant(value)
		if !ok || !e.Offers(v) {
			e.sendError("setoption: variant %q is not offered", engine.Clip(value))
			return
		}
		if v != e.variant {
			e.variant, e.rules, e.game = v, nil, nil
			if err := e.NewPlayer(); err != nil {
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
		if !setInt(&e.MultiPV, value, 1) {
			bad()
		}
	case "threads":
		if !setInt(&e.threads, value, 1) {
			bad()
		}
	case "simulations":
		n := e.Cfg.Budget.Simulations
		if !setInt(&n, value, 0) {
			bad()
			return
		}
		e.Cfg.Budget.Simulations = n
	case "quiescence": // percent: the search's quiescence blend λ
		n := 0
		if !setInt(&n, value, 0) || n > 100 {
			bad()
			return
		}
		if err := e.SetQuiescence(float64(n) / 100); err != nil {
			e.sendError("%v", err)
		}
	case "usi_ponder":
		if value != "true" && value != "false" {
			bad()
		}
	case "avoidroyalenprise":
		if value != "true" && value != "false" {
			bad()
			return
		}
		e.AllowEnPrise = value == "false"
	default:
		e.setRulesOption(name, value)
	}
}

// setRulesOption sets a rules option that some variant offered has.
func (e *Engine) setRulesOption(name, value string) {
	if err := e.SetRulesOption(name, value); err != nil {
		e.sendError("setoption: %v: %s = %s", err, name, value)
		return
	}
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
