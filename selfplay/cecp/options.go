package cecp

import (
	"math"
	"strconv"
	"strings"

	"chuzero/rules"
	"chuzero/selfplay/engine"
)

// config returns the rules config of variant v with the configured and
// GUI options applied (those the variant has; HaChu's names mapped).
func (e *Engine) config(v rules.VariantID) (rules.Config, error) {
	return e.RulesConfig(v, func(c *rules.Config, v rules.VariantID, name, value string) bool {
		hachu, ok := hachuOptions[name]
		if ok && v == rules.Chu {
			cur, _ := c.Value(hachu.option)
			c.Set(hachu.option, hachu.value(value == "1", cur))
		}
		return ok
	})
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
	for _, v := range e.Cfg.Variants {
		d, _ := rules.Describe(v)
		names = append(names, d.XBoard)
	}
	e.Send(`feature myname="%s" variants="%s"`, e.Cfg.Name, strings.Join(names, ","))
	e.Send("feature setboard=1 usermove=1 ping=1 memory=1 playother=1 colors=0 sigint=0 sigterm=0 reuse=1 analyze=1 draw=0 name=0 time=1 san=0 debug=1 exclude=0 highlight=0")
	if e.Offers(rules.Chu) {
		c, _ := e.config(rules.Chu)
		rep, _ := c.Value("Repetition")
		prom, _ := c.Value("PromotionRule")
		cs, _ := c.Value("CounterStrike")
		e.Send(`feature option="Allow repeats -check %d"`, b2i(rep != "Forbid"))
		e.Send(`feature option="Promote on entry -check %d"`, b2i(prom != "Hodges"))
		e.Send(`feature option="Okazaki rule -check %d"`, b2i(cs == "Okazaki"))
	}
	config := func(v rules.VariantID) rules.Config { c, _ := e.config(v); return c } // a bad GUI value shows the defaults
	for _, o := range engine.RulesOptions(e.Cfg.Variants, config) {
		if o.Values == nil {
			n, _ := strconv.Atoi(o.Current)
			e.Send(`feature option="%s -spin %d 0 100000"`, o.Name, n)
			continue
		}
		var vals []string
		for _, val := range o.Values {
			if val == o.Current {
				val = "*" + val // the current value
			}
			vals = append(vals, val)
		}
		e.Send(`feature option="%s -combo %s"`, o.Name, strings.Join(vals, " /// "))
	}
	sims := e.Cfg.Budget.Simulations
	e.Send(`feature option="Simulations -spin %d 0 100000000"`, sims)
	e.Send(`feature option="Avoid royal en prise -check %d"`, b2i(!e.AllowEnPrise))
	e.Send(`feature option="MultiPV -spin %d 1 500"`, e.MultiPV)
	e.Send(`feature option="Quiescence -spin %d 0 100"`, int(math.Round(100*e.Quiescence())))
	e.Send("feature done=1")
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
		e.Send("Error (bad option): %s", line)
		return
	}
	if name == "Simulations" {
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			e.Send("Error (bad option value): %s", line)
			return
		}
		e.Cfg.Budget.Simulations = n
		if e.Cfg.Budget.Time == 0 && n == 0 {
			e.Cfg.Budget.Simulations = 1
		}
		return
	}
	if name == "MultiPV" {
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > 500 {
			e.Send("Error (bad option value): %s", line)
			return
		}
		e.MultiPV = n
		if e.analyzing {
			e.Stop(true) // and analyse again with the lines asked for
		}
		return
	}
	if name == "Quiescence" { // percent: the search's quiescence blend λ
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 || n > 100 {
			e.Send("Error (bad option value): %s", line)
			return
		}
		if err := e.SetQuiescence(float64(n) / 100); err != nil {
			e.Send("Error (%v): %s", err, line)
		}
		return
	}
	if name == "Avoid royal en prise" {
		if value != "0" && value != "1" {
			e.Send("Error (bad option value): %s", line)
			return
		}
		e.AllowEnPrise = value == "0"
		return
	}
	if _, ok := hachuOptions[name]; ok {
		if value != "0" && value != "1" {
			e.Send("Error (bad option value): %s", line)
			return
		}
		e.Options[name] = value
		return
	}
	if err := e.SetRulesOption(name, value); err != nil {
		e.Send("Error (unknown option or value): %s", line)
	}
}
