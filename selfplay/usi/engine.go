package usi

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/arena"
	"chuzero/selfplay/cecp"
)

// Config configures an engine: the same as package cecp's (Name is sent
// as "id name").
type Config = cecp.Config

// defaultHashMB is USI_Hash until the GUI sets it.
const defaultHashMB = 1024

// Engine is one USI session's state. It is not safe for concurrent use;
// Serve runs the session.
type Engine struct {
	cfg      Config
	search   mcts.Config
	variants []rules.VariantID

	out   *bufio.Writer
	outMu sync.Mutex

	variant      rules.VariantID
	options      map[string]string // rules options set by the GUI
	rules        *rules.Rules      // of variant and options; nil: rebuild
	game         *rules.Game       // nil: no position, or a refused one
	player       *arena.SearchPlayer
	hashMB       int
	threads      int
	multiPV      int
	overhead     time.Duration // Move Overhead
	allowEnPrise bool

	thinking *thought
}

// New returns an engine playing Chu (or the first variant offered) until
// the GUI sets USI_Variant.
func New(cfg Config) (*Engine, error) {
	if cfg.Name == "" {
		cfg.Name = "chuzero"
	}
	if cfg.Eval == nil {
		cfg.Eval = mcts.Uniform{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Budget == (mcts.Budget{}) {
		cfg.Budget.Simulations = 400
	}
	if err := cfg.Budget.Validate(); err != nil {
		return nil, err
	}
	e := &Engine{cfg: cfg, options: map[string]string{}, hashMB: defaultHashMB, threads: 1, multiPV: 1, overhead: defaultOverhead}
	if cfg.Search != nil {
		e.search = *cfg.Search
	} else {
		e.search = mcts.DefaultConfig()
		e.search.Temperature, e.search.TemperatureMoves, e.search.FinalTemperature = 0, 0, 0
	}
	e.search.ReuseTree = true
	if err := e.search.Validate(); err != nil {
		return nil, err
	}
	e.variants = cfg.Variants
	if len(e.variants) == 0 {
		e.variants = rules.Variants
	}
	for _, a := range cfg.Rules {
		if _, _, ok := strings.Cut(a, "="); !ok {
			return nil, fmt.Errorf("usi: rules option %q is not Name=Value", a)
		}
	}
	e.variant = e.variants[0]
	if _, err := e.currentRules(); err != nil {
		return nil, err
	}
	if err := e.newPlayer(); err != nil {
		return nil, err
	}
	return e, nil
}

// currentRules returns the rules of the variant with the configured and
// GUI options, building them (and dropping the search tree) when an option
// changed.
func (e *Engine) currentRules() (*rules.Rules, error) {
	if e.rules != nil {
		return e.rules, nil
	}
	c := rules.DefaultConfig(e.variant)
	for _, a := range e.cfg.Rules {
		c.SetAssignment(a) // options of other variants do not apply
	}
	for name, value := range e.options {
		c.Set(name, value) // those of other variants neither
	}
	r, err := rules.New(c)
	if err != nil {
		return nil, err
	}
	e.rules = r
	if e.player != nil { // a tree searched under other rules is no good
		e.player.Search.Reset()
	}
	return r, nil
}

// newPlayer starts a fresh search tree.
func (e *Engine) newPlayer() error {
	s, err := mcts.New(e.search, e.cfg.Eval, e.cfg.Seed)
	if err != nil {
		return err
	}
	e.player = &arena.SearchPlayer{Search: s}
	return nil
}

// send writes one line to the GUI; the search goroutine sends too.
func (e *Engine) send(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	e.cfg.Log.Debug("usi >", "line", line)
	e.outMu.Lock()
	defer e.outMu.Unlock()
	fmt.Fprintln(e.out, line)
	e.out.Flush()
}

// sendError reports a command the engine cannot carry out.
func (e *Engine) sendError(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	msg = strings.Map(func(r rune) rune { // one line, printable
		if r < ' ' || r == 0x7f || r == 0xfffd {
			return '?'
		}
		return r
	}, msg)
	e.cfg.Log.Debug("usi: error", "msg", msg)
	e.send("info string error %s", msg)
}

// Serve runs the protocol on in and out until "quit", the end of in, or
// ctx ends. Its search is stopped and joined before it returns; the
// reader of in ends as cecp.ReadLines says.
func (e *Engine) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	e.out = bufio.NewWriter(out)
	lines, readErr, stopReading := cecp.ReadLines(in)
	defer stopReading()
	defer e.stopThinking(true)
	for {
		var done chan thinkResult
		if e.thinking != nil {
			done = e.thinking.done
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case r := <-done:
			e.finishThinking(r)
		case line, ok := <-lines:
			if !ok {
				e.stopThinking(true)
				return <-readErr
			}
			if quit := e.handle(ctx, line); quit {
				return nil
			}
		}
	}
}

// offers reports whether the engine plays v.
func (e *Engine) offers(v rules.VariantID) bool {
	for _, o := range e.variants {
		if o == v {
			return true
		}
	}
	return false
}
