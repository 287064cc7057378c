package cecp

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
)

// Config configures an engine.
type Config struct {
	// Name is sent as the engine's name (feature myname).
	Name string
	// Eval scores positions for the search (nil: mcts.Uniform, pure
	// rules-scored tree search).
	Eval mcts.Evaluator
	// Variants are the games offered (default: all three). An engine with
	// a network offers the network's game only.
	Variants []rules.VariantID
	// Rules are rules options ("Name=Value") applied to every game whose
	// variant has them, before the options the GUI sets.
	Rules []string
	// Search configures the tree search (default: mcts.DefaultConfig with
	// temperature 0 and tree reuse).
	Search *mcts.Config
	// Budget bounds each search when the GUI gives no clock, and caps its
	// simulations always if Budget.Simulations > 0 (default: 400
	// simulations).
	Budget mcts.Budget
	// Seed drives the search's randomness.
	Seed uint64
	// Log receives diagnostics (default: none).
	Log *slog.Logger
}

// Engine is one CECP session's state. It is not safe for concurrent use;
// Serve runs the session.
type Engine struct {
	cfg      Config
	search   mcts.Config
	variants []rules.VariantID

	out   *bufio.Writer
	outMu sync.Mutex

	variant    rules.VariantID
	options    map[string]string // rules options set by the GUI ("option" command)
	rules      *rules.Rules
	game       *rules.Game
	badPos     bool // setboard was refused: every move is illegal until new/setboard
	force      bool
	engineSide rules.Color
	player     *arena.SearchPlayer
	post       bool

	// Clock: st (seconds per move), level (moves per session, base,
	// increment), time/otim (centiseconds), sd (depth cap).
	moveTime     time.Duration
	mps          int
	base, inc    time.Duration
	clock        time.Duration
	clockKnown   bool
	depth        int
	memoryMB     int
	thinking     *thought
	protoVersion int
	allowEnPrise bool // "Avoid royal en prise" off
}

// thought is a search in progress.
type thought struct {
	cancel  context.CancelFunc
	discard bool
	done    chan thinkResult
}

type thinkResult struct {
	res *mcts.Result
	err error
	dur time.Duration
}

// New returns an engine at the start of a Chu game (or the first variant
// offered).
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
	e := &Engine{cfg: cfg, options: map[string]string{}}
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
		name, _, ok := strings.Cut(a, "=")
		if !ok {
			return nil, fmt.Errorf("cecp: rules option %q is not Name=Value", a)
		}
		applies := false
		for _, v := range e.variants {
			c := rules.DefaultConfig(v)
			if c.SetAssignment(a) == nil {
				applies = true
			}
		}
		if !applies {
			return nil, fmt.Errorf("cecp: rules option %q applies to none of the variants offered", name)
		}
	}
	if err := e.reset(e.variants[0]); err != nil {
		return nil, err
	}
	return e, nil
}

// reset starts a new game of v from its start position (the "new" and
// "variant" commands).
func (e *Engine) reset(v rules.VariantID) error {
	r, err := rules.New(e.config(v))
	if err != nil {
		return err
	}
	e.variant, e.rules = v, r
	e.game = rules.NewGame(r.StartPosition())
	e.badPos = false
	return e.newPlayer()
}

func (e *Engine) newPlayer() error {
	s, err := mcts.New(e.search, e.cfg.Eval, e.cfg.Seed)
	if err != nil {
		return err
	}
	e.player = &arena.SearchPlayer{Search: s}
	return nil
}

// send writes one line to the GUI.
func (e *Engine) send(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	e.cfg.Log.Debug("cecp >", "line", line)
	e.outMu.Lock()
	defer e.outMu.Unlock()
	fmt.Fprintln(e.out, line)
	e.out.Flush()
}

// Serve runs the protocol on in and out until "quit", the end of in, or
// ctx ends. Its search is stopped and joined before it returns; the
// goroutine reading in ends at once if in has a read deadline (an *os.File
// on a pipe or a socket: Serve sets the deadline to now, leaving in unusable
// for further reads), else at in's next line or its end.
func (e *Engine) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	e.out = bufio.NewWriter(out)
	lines, readErr, stopReading := ReadLines(in)
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

// ReadLines reads in line by line on a goroutine of its own: lines is
// closed at in's end, after which readErr holds the read error (nil at
// EOF). stop ends the reader: at once if in has a read deadline (an
// *os.File on a pipe or a socket: stop sets the deadline to now, leaving in
// unusable for further reads), else at in's next line or its end. Lines
// are capped at 1 MiB.
func ReadLines(in io.Reader) (lines <-chan string, readErr <-chan error, stop func()) {
	ch := make(chan string)
	errc := make(chan error, 1)
	served := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case ch <- sc.Text():
			case <-served:
				return
			}
		}
		errc <- sc.Err()
		close(ch)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			close(served)
			if d, ok := in.(interface{ SetReadDeadline(time.Time) error }); ok {
				d.SetReadDeadline(time.Now())
			}
		})
	}
	return ch, errc, stop
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
