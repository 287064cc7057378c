package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"chuzero/mcts"
	"chuzero/rules"
)

// Core is the state an engine session shares between protocols. A
// protocol's Engine embeds it; it is not safe for concurrent use, except
// Send.
type Core struct {
	// Cfg is the configuration, with its defaults filled in.
	Cfg Config
	// Player searches; its tree is kept between moves.
	Player *mcts.Timed
	// Options are the rules options the GUI set, by canonical name.
	Options map[string]string
	// AllowEnPrise lets the engine play a move that leaves one of its
	// royals attacked (Chu allows it; see SafeMove); off by default.
	AllowEnPrise bool
	// MultiPV is the number of lines reported (1: the principal
	// variation only).
	MultiPV int

	search   mcts.Config
	proto    string // the protocol's name, for logs
	out      *bufio.Writer
	outMu    sync.Mutex
	thinking *Thought
	h        Handler
	ctx      context.Context // the session's, for Finish
}

// NewCore checks cfg, fills in its defaults and starts a search tree;
// proto names the protocol in logs and errors.
func NewCore(proto string, cfg Config) (*Core, error) {
	search, err := cfg.prepare()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", proto, err)
	}
	c := &Core{Cfg: cfg, Options: map[string]string{}, MultiPV: 1, search: search, proto: proto}
	if err := c.NewPlayer(); err != nil {
		return nil, err
	}
	return c, nil
}

// NewPlayer starts a fresh search tree.
func (c *Core) NewPlayer() error {
	s, err := mcts.New(c.search, c.Cfg.Eval, c.Cfg.Seed)
	if err != nil {
		return err
	}
	c.Player = &mcts.Timed{Search: s}
	return nil
}

// Quiescence returns the search's quiescence blend (mcts.Config.Quiescence).
func (c *Core) Quiescence() float64 { return c.search.Quiescence }

// SetQuiescence sets the search's quiescence blend, λ in [0, 1], and
// starts a fresh tree (the values in the old one were blended with the
// old λ).
func (c *Core) SetQuiescence(l float64) error {
	if !(l >= 0 && l <= 1) {
		return fmt.Errorf("quiescence %v out of [0, 1]", l)
	}
	if l == c.search.Quiescence {
		return nil
	}
	c.search.Quiescence = l
	return c.NewPlayer()
}

// Send writes one line to the GUI and flushes it; the search goroutine
// sends too.
func (c *Core) Send(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	c.Cfg.Log.Debug(c.proto+" >", "line", line)
	c.outMu.Lock()
	defer c.outMu.Unlock()
	if c.out == nil {
		return // not serving
	}
	fmt.Fprintln(c.out, line)
	c.out.Flush()
}

// Offers reports whether the engine plays v.
func (c *Core) Offers(v rules.VariantID) bool {
	for _, o := range c.Cfg.Variants {
		if o == v {
			return true
		}
	}
	return false
}

// Translate maps a GUI option that is not a rules option onto the rules
// config of a variant; it reports whether name was one (see RulesConfig).
type Translate func(c *rules.Config, v rules.VariantID, name, value string) bool

// RulesConfig returns the rules config of variant v: its defaults, the
// configured options, then the GUI's (those v has; translate, if not nil,
// handles a protocol's own option names first).
func (c *Core) RulesConfig(v rules.VariantID, translate Translate) (rules.Config, error) {
	rc := rules.DefaultConfig(v)
	if err := rc.Apply(c.Cfg.Rules, true); err != nil { // options of other variants do not apply
		return rc, err
	}
	for name, value := range c.Options {
		if translate != nil && translate(&rc, v, name, value) {
			continue
		}
		rc.Set(name, value) // those of other variants neither
	}
	if err := rc.Validate(); err != nil {
		return rules.DefaultConfig(v), err
	}
	return rc, nil
}

// RulesOption is a rules option an engine offers the GUI: its name, the
// value in effect, and the values it may take (none for MaxPlies, a
// number).
type RulesOption struct {
	Name, Current string
	Values        []string
}

// RulesOptions lists the rules options of the variants, in order, each
// name once, with the value it has in config(v) of the first variant
// that has it: the option list both protocols offer.
func RulesOptions(variants []rules.VariantID, config func(rules.VariantID) rules.Config) []RulesOption {
	seen := map[string]bool{}
	var out []RulesOption
	for _, v := range variants {
		c := config(v)
		for _, o := range rules.Options(v) {
			if seen[o.Name] {
				continue
			}
			seen[o.Name] = true
			cur, _ := c.Value(o.Name)
			ro := RulesOption{Name: o.Name, Current: cur}
			if o.Name != "MaxPlies" {
				ro.Values = o.Values
			}
			out = append(out, ro)
		}
	}
	return out
}

// ErrUnknownOption is returned by SetRulesOption for an option or a value
// that no variant offered has.
var ErrUnknownOption = errors.New("unknown option or value")

// SetRulesOption records a rules option from the GUI, by its name as
// rules spells it (matched without regard to case). It applies from the
// next rules built; MaxPlies 0 goes back to the variant's own.
func (c *Core) SetRulesOption(name, value string) error {
	canon := ""
	for _, v := range c.Cfg.Variants {
		for _, o := range rules.Options(v) {
			if strings.EqualFold(o.Name, name) {
				canon = o.Name
			}
		}
	}
	if canon == "MaxPlies" && value == "0" {
		delete(c.Options, canon)
		return nil
	}
	known := false
	for _, v := range c.Cfg.Variants {
		rc := rules.DefaultConfig(v)
		if canon != "" && rc.Set(canon, value) == nil && rc.Validate() == nil {
			known = true
		}
	}
	if !known {
		return ErrUnknownOption
	}
	c.Options[canon] = value
	return nil
}

// Clip shortens s for an error message and makes it one printable line.
func Clip(s string) string {
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || r == 0xfffd {
			return '?'
		}
		return r
	}, s)
}

// serveOutput sets where Send writes.
func (c *Core) serveOutput(w io.Writer) {
	c.outMu.Lock()
	defer c.outMu.Unlock()
	c.out = bufio.NewWriter(w)
}
