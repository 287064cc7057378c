package cecp

import (
	"context"
	"io"
	"sync/atomic"
	"time"

	"chuzero/rules"
	"chuzero/selfplay/engine"
)

// Engine is one CECP session's state. It is not safe for concurrent use;
// Serve runs the session.
type Engine struct {
	*engine.Core

	variant    rules.VariantID
	rules      *rules.Rules
	game       *rules.Game
	badPos     bool // setboard was refused: every move is illegal until new/setboard
	force      bool
	engineSide rules.Color
	post       atomic.Bool            // read by the search's progress reports
	ponder     bool                   // "hard": think on the expected reply
	pondered   rules.Move             // the reply pondered on when the GUI's move came (NoMove: none)
	analyzing  bool                   // "analyze" mode, until "exit"
	stat       atomic.Pointer[string] // the analysis's last "stat01" line

	// Clock: st (seconds per move), level (moves per session, base,
	// increment), time/otim (centiseconds), sd (depth cap).
	moveTime     time.Duration
	mps          int
	base, inc    time.Duration
	clock        time.Duration
	clockKnown   bool
	depth        int
	memoryMB     int
	protoVersion int
}

// handler is the Engine as the core's Handler.
type handler Engine

// New returns an engine at the start of a Chu game (or the first variant
// offered).
func New(cfg engine.Config) (*Engine, error) {
	core, err := engine.NewCore("cecp", cfg)
	if err != nil {
		return nil, err
	}
	e := &Engine{Core: core}
	if err := e.reset(e.Cfg.Variants[0]); err != nil {
		return nil, err
	}
	return e, nil
}

// reset starts a new game of v from its start position (the "new" and
// "variant" commands).
func (e *Engine) reset(v rules.VariantID) error {
	c, err := e.config(v)
	if err != nil {
		return err
	}
	r, err := rules.New(c)
	if err != nil {
		return err
	}
	e.variant, e.rules = v, r
	e.game = rules.NewGame(r.StartPosition())
	e.badPos = false
	return e.NewPlayer()
}

// Serve runs the protocol on in and out until "quit", the end of in, or
// ctx ends. Its search is stopped and joined before it returns; the
// goroutine reading in ends at once if in has a read deadline (an *os.File
// on a pipe or a socket: Serve sets the deadline to now, leaving in unusable
// for further reads), else at in's next line or its end.
func (e *Engine) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	return e.Core.Serve(ctx, in, out, (*handler)(e))
}

// Failed implements engine.Handler.
func (h *handler) Failed(kind, line string) {
	h.Send("Error (%s): %s", kind, line)
}
