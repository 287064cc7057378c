package cecp

import (
	"strconv"
	"strings"

	"chuzero/rules"
)

// config returns the rules of variant v with the configured and GUI
// options applied (those the variant has).
func (e *Engine) config(v rules.VariantID) rules.Config {
	c := rules.DefaultConfig(v)
	for _, a := range e.cfg.Rules {
		c.SetAssignment(a) // options of other variants do not apply
	}
	for name, value := range e.options {
		if hachu, ok := hachuOptions[name]; ok {
			if v == rules.Chu {
				cur, _ := c.Value(hachu.option)
				c.Set(hachu.option, hachu.value(value == "1", cur))
			}
			continue
		}
		c.Set(name, value)
	}
	if c.Validate() != nil {
		return rules.DefaultConfig(v)
	}
	return c
}

// hachuOptions are HaChu's engine options that carry rules, offered under
// the same names so that a GUI set up for HaChu sets ours too.
//
// "Allow repeats" off is Repetition=Forbid; on keeps a configured
// repetition rule other than Forbid (else JCSA4, the default). "Promote on
// entry" off is PromotionRule=Hodges, on is JCSA. "Okazaki rule" on is
// CounterStrike=Okazaki, off is Strict.
var hachuOptions = map[string]struct {
	option string
	value  func(on bool, cur string) string
}{
	"Allow repeats": {"Repetition", func(on bool, cur string) string {
		switch {
		case !on:
			return "Forbid"
		case cur == "Forbid":
			return "JCSA4"
		}
		return cur
	}},
	"Promote on entry": {"PromotionRule", func(on bool, _ string) string { return map[bool]string{true: "JCSA", false: "Hodges"}[on] }},
	"Okazaki rule":     {"CounterStrike", func(on bool, _ string) string { return map[bool]string{true: "Okazaki", false: "Strict"}[on] }},
}

// features answers protover.
func (e *Engine) features() {
	var names []string
	for _, v := range e.variants {
		d, _ := rules.Describe(v)
		names = append(names, d.XBoard)
	}
	e.send(`feature myname="%s" variants="%s"`, e.cfg.Name, strings.Join(names, ","))
	e.send("feature setboard=1 usermove=1 ping=1 memory=1 playother=1 colors=0 sigint=0 sigterm=0 reuse=1 analyze=0 draw=0 name=0 time=1 san=0 debug=1 exclude=0 highlight=0")
	if e.offers(rules.Chu) {
		c := e.config(rules.Chu)
		rep, _ := c.Value("Repetition")
		prom, _ := c.Value("PromotionRule")
		cs, _ := c.Value("CounterStrike")
		e.send(`feature option="Allow repeats -check %d"`, b2i(rep != "Forbid"))
		e.send(`feature option="Promote on entry -check %d"`, b2i(prom != "Hodges"))
		e.send(`feature option="Okazaki rule -check %d"`, b2i(cs == "Okazaki"))
	}
	seen := map[string]bool{}
	for _, v := range e.variants {
		c := e.config(v)
		for _, o := range rules.Options(v) {
			if seen[o.Name] {
				continue
			}
			seen[o.Name] = true
			cur, _ := c.Value(o.Name)
			if o.Name == "MaxPlies" {
				n, _ := strconv.Atoi(cur)
				e.send(`feature option="MaxPlies -spin %d 0 100000"`, n)
				continue
			}
			var vals []string
			for _, val := range o.Values {
				if val == cur {
					val = "*" + val // the current value
				}
				vals = append(vals, val)
			}
			e.send(`feature option="%s -combo %s"`, o.Name, strings.Join(vals, " /// "))
		}
	}
	sims := e.cfg.Budget.Simulations
	e.send(`feature option="Simulations -spin %d 0 100000000"`, sims)
	e.send(`feature option="Avoid royal en prise -check %d"`, b2i(!e.allowEnPrise))
	e.send("feature done=1")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// setOption handles "option Name=Value" (rules options apply from the
// next new game; Simulations at once).
func (e *Engine) setOption(arg, line string) {
	name, value, ok := strings.Cut(arg, "=")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !ok || name == "" {
		e.send("Error (bad option): %s", line)
		return
	}
	if name == "Simulations" {
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			e.send("Error (bad option value): %s", line)
			return
		}
		e.cfg.Budget.Simulations = n
		if e.cfg.Budget.Time == 0 && n == 0 {
			e.cfg.Budget.Simulations = 1
		}
		return
	}
	if name == "Avoid royal en prise" {
		if value != "0" && value != "1" {
			e.send("Error (bad option value): %s", line)
			return
		}
		e.allowEnPrise = value == "0"
		return
	}
	if _, ok := hachuOptions[name]; ok {
		if value != "0" && value != "1" {
			e.send("Error (bad option value): %s", line)
			return
		}
		e.options[name] = value
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
		e.send("Error (unknown option or value): %s", line)
		return
	}
	if name == "MaxPlies" && value == "0" {
		delete(e.options, name)
		return
	}
	e.options[name] = value
}
