package usi

import (
	"context"
	"fmt"
	"io"
	"time"

	"chuzero/rules"
	"chuzero/selfplay/engine"
)

// defaultHashMB is USI_Hash until the GUI sets it.
const defaultHashMB = 1024

// Engine is one USI session's state. It is not safe for concurrent use;
// Serve runs the session.
type Engine struct {
	*engine.Core

	variant  rules.VariantID
	rules    *rules.Rules // of variant and options; nil: rebuild
	game     *rules.Game  // nil: no position, or a refused one
	hashMB   int
	threads  int
	overhead time.Duration // Move Overhead
	// held is the answer to a "go ponder" on a finished position, sent
	// at its stop or ponderhit (USI: no bestmove before either); "" none.
	held string
}

// handler is the Engine as the core's Handler.
type handler Engine

// New returns an engine playing Chu (or the first variant offered) until
// the GUI sets USI_Variant.
func New(cfg engine.Config) (*Engine, error) {
	core, err := engine.NewCore("usi", cfg)
	if err != nil {
		return nil, err
	}
	e := &Engine{Core: core, hashMB: defaultHashMB, threads: 1, overhead: defaultOverhead}
	e.variant = e.Cfg.Variants[0]
	if _, err := e.currentRules(); err != nil {
		return nil, err
	}
	return e, nil
}

// Serve runs the protocol on in and out until "quit", the end of in, or
// ctx ends. Its search is stopped and joined before it returns; the
// reader of in ends as engine.ReadLines says.
func (e *Engine) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	return e.Core.Serve(ctx, in, out, (*handler)(e))
}

// currentRules returns the rules of the variant with the configured and
// GUI options, building them (and dropping the search tree) when an option
// changed.
func (e *Engine) currentRules() (*rules.Rules, error) {
	if e.rules != nil {
		return e.rules, nil
	}
	c, err := e.RulesConfig(e.variant, nil)
	if err != nil {
		return nil, err
	}
	r, err := rules.New(c)
	if err != nil {
		return nil, err
	}
	e.rules = r
	e.Player.Search.Reset() // a tree searched under other rules is no good
	return r, nil
}

// sendError reports a command the engine cannot carry out.
func (e *Engine) sendError(format string, args ...any) {
	e.Send("info string error %s", engine.Clip(fmt.Sprintf(format, args...)))
}

// Failed implements engine.Handler.
func (s *handler) Failed(kind, line string) {
	(*Engine)(s).sendError("%s: %s", kind, line)
}
