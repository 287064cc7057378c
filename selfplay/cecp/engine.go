package cecp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"runtime/debug"
	"strconv"
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
	e.outMu.Lock()
	defer e.outMu.Unlock()
	fmt.Fprintf(e.out, format+"\n", args...)
	e.out.Flush()
}

// Serve runs the protocol on in and out until "quit", the end of in, or
// ctx ends. Its search is stopped and joined before it returns; the
// goroutine reading in ends at once if in has a read deadline (an *os.File
// on a pipe or a socket: Serve sets the deadline to now, leaving in unusable
// for further reads), else at in's next line or its end.
func (e *Engine) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	e.out = bufio.NewWriter(out)
	lines := make(chan string)
	readErr := make(chan error, 1)
	served := make(chan struct{}) // closed when Serve returns
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-served:
				return
			}
		}
		readErr <- sc.Err()
		close(lines)
	}()
	defer func() {
		close(served)
		// a reader blocked on in ends now where in can say so (a pipe,
		// a socket), else at in's next line or end
		if d, ok := in.(interface{ SetReadDeadline(time.Time) error }); ok {
			d.SetReadDeadline(time.Now())
		}
	}()
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

// handle runs one command; it reports "quit".
func (e *Engine) handle(ctx context.Context, line string) (quit bool) {
	defer func() {
		if p := recover(); p != nil { // never crash on input: report and carry on
			e.cfg.Log.Error("cecp: internal error", "command", line, "panic", p, "stack", string(debug.Stack()))
			e.send("Error (internal error): %s", strings.TrimSpace(line))
		}
	}()
	line = strings.TrimSpace(line)
	if line == "" {
		return false
	}
	e.cfg.Log.Debug("cecp <", "line", line)
	cmd, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	// Commands that may come while the engine thinks.
	switch cmd {
	case "?":
		if e.thinking != nil {
			e.thinking.cancel()
		}
		return false
	case "post":
		e.post = true
		return false
	case "nopost":
		e.post = false
		return false
	case "easy", "hard", ".", "computer", "random", "accepted", "rejected", "name", "rating", "ics", "hint", "bk", "draw", "cores", "egtpath":
		return false
	case "time", "otim":
		e.setClock(cmd, arg, line)
		return false
	}
	// Everything else waits for the search: a game command discards it,
	// the rest (ping, usermove) lets it finish and move first.
	if e.thinking != nil {
		switch cmd {
		case "force", "new", "quit", "result", "setboard", "undo", "remove", "variant", "edit", "white", "black", "exit":
			e.stopThinking(true)
		default:
			r := <-e.thinking.done
			e.finishThinking(r)
		}
	}
	switch cmd {
	case "xboard":
	case "protover":
		e.protoVersion, _ = strconv.Atoi(arg)
		e.features()
	case "quit":
		return true
	case "new":
		e.force = false
		e.engineSide = rules.Gote
		e.depth = 0 // the protocol: new sets the depth back to unlimited
		if err := e.reset(e.variant); err != nil {
			e.send("Error (%v): %s", err, line)
		}
	case "variant":
		v, err := rules.ParseVariant(arg)
		if err != nil || !e.offers(v) {
			e.send("Error (unsupported variant): %s", arg)
			return false
		}
		if err := e.reset(v); err != nil {
			e.send("Error (%v): %s", err, line)
			return false
		}
		e.announce()
	case "force":
		e.force = true
	case "go":
		e.force = false
		e.engineSide = e.game.Position().SideToMove()
		e.maybeThink(ctx)
	case "playother":
		e.force = false
		e.engineSide = e.game.Position().SideToMove().Other()
	case "white", "black": // protocol 1: the side to move, and the engine plays the other
		e.force = true
		e.engineSide = map[string]rules.Color{"white": rules.Gote, "black": rules.Sente}[cmd]
	case "usermove":
		e.userMove(ctx, arg, line)
	case "setboard":
		e.setBoard(arg)
	case "level":
		e.setLevel(arg, line)
	case "st":
		sec, err := strconv.ParseFloat(arg, 64)
		if err != nil || !(sec > 0) || math.IsInf(sec, 0) {
			e.send("Error (bad time): %s", line)
			return false
		}
		e.moveTime = time.Duration(sec * float64(time.Second))
	case "sd":
		d, err := strconv.Atoi(arg)
		if err != nil || d < 0 {
			e.send("Error (bad depth): %s", line)
			return false
		}
		e.depth = d
	case "memory":
		mb, err := strconv.Atoi(arg)
		if err != nil || mb <= 0 {
			e.send("Error (bad memory size): %s", line)
			return false
		}
		e.memoryMB = mb
	case "ping":
		e.send("pong %s", arg)
	case "result":
		e.force = true
	case "undo", "remove":
		n := 1
		if cmd == "remove" {
			n = 2
		}
		if e.game.Len() < n {
			e.send("Error (command not legal now): %s", line)
			return false
		}
		for range n {
			e.game.Undo()
		}
	case "option":
		e.setOption(arg, line)
	case "edit", "analyze", "exit":
		e.send("Error (unknown command): %s", line)
	default:
		// A bare move (an engine without usermove=1 gets these).
		if looksLikeMove(cmd) && arg == "" {
			e.userMove(ctx, cmd, line)
			return false
		}
		e.send("Error (unknown command): %s", line)
	}
	return false
}

// looksLikeMove reports a word shaped like a machine-notation move.
func looksLikeMove(s string) bool {
	if s == "@@@@" || s == "0000" {
		return true
	}
	if len(s) < 4 || len(s) > 16 {
		return false
	}
	return s[0] >= 'a' && s[0] <= 'z' && s[1] >= '0' && s[1] <= '9'
}

func (e *Engine) offers(v rules.VariantID) bool {
	for _, o := range e.variants {
		if o == v {
			return true
		}
	}
	return false
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

// announce tells the GUI the board of an engine-defined variant.
func (e *Engine) announce() {
	if lines := SetupLines(e.rules); len(lines) > 0 {
		for _, l := range lines {
			e.send("%s", l)
		}
	}
}

// setBoard handles "setboard FEN" (XBoard FEN: "w" = Sente to move).
func (e *Engine) setBoard(fen string) {
	pos, err := e.rules.ParseFEN(fen)
	if err != nil {
		e.send("tellusererror Illegal position: %v", err)
		e.badPos = true
		return
	}
	e.game = rules.NewGame(pos)
	e.badPos = false
	if r := e.game.Result(); r.Over() {
		e.send("%s {%s}", r.PGN(), r)
	}
}

// userMove plays the GUI's move and, if it is then the engine's turn,
// thinks.
func (e *Engine) userMove(ctx context.Context, text, line string) {
	if text == "" {
		e.send("Error (missing move): %s", line)
		return
	}
	if e.badPos {
		e.send("Illegal move (illegal position): %s", text)
		return
	}
	if e.game.Result().Over() {
		e.send("Illegal move (the game is over): %s", text)
		return
	}
	m, err := e.game.Position().ParseMove(text)
	if err == nil {
		err = e.game.Play(m)
	}
	if err != nil {
		e.cfg.Log.Debug("cecp: illegal move", "move", text, "err", err)
		e.send("Illegal move: %s", text)
		return
	}
	if r := e.game.Result(); r.Over() {
		e.send("%s {%s}", r.PGN(), r)
		return
	}
	e.maybeThink(ctx)
}

// maybeThink starts a search if the engine is to move.
func (e *Engine) maybeThink(ctx context.Context) {
	if e.force || e.thinking != nil || e.badPos || e.game.Result().Over() || e.game.Position().SideToMove() != e.engineSide {
		return
	}
	b := e.budget()
	e.player.Budget = b
	e.player.MaxNodes = 0
	if e.memoryMB > 0 {
		e.player.MaxNodes = e.memoryMB << 20 / mcts.NodeBytes
	}
	tctx, cancel := context.WithCancel(ctx)
	t := &thought{cancel: cancel, done: make(chan thinkResult, 1)}
	e.thinking = t
	g := e.game
	player := e.player
	go func() {
		start := time.Now()
		res, err := player.Think(tctx, g)
		t.done <- thinkResult{res: res, err: err, dur: time.Since(start)}
	}()
}

// budget returns the next search's bounds: the clock's share of time (st,
// or level with time), the simulation cap (configured budget, sd).
func (e *Engine) budget() mcts.Budget {
	b := mcts.Budget{Simulations: e.cfg.Budget.Simulations}
	switch {
	case e.moveTime > 0:
		b.Time = e.moveTime * 95 / 100
	case e.clockKnown:
		togo := 40
		if e.mps > 0 {
			played := e.game.Len() / 2
			togo = e.mps - played%e.mps
		}
		t := e.clock/time.Duration(togo) + e.inc*9/10
		t = min(t, e.clock/2-50*time.Millisecond)
		b.Time = max(t, 20*time.Millisecond)
	case e.cfg.Budget.Time > 0:
		b.Time = e.cfg.Budget.Time
	}
	if e.depth > 0 {
		cap := 100 * e.depth
		if b.Simulations == 0 || cap < b.Simulations {
			b.Simulations = cap
		}
	}
	if b.Time == 0 {
		// untimed: still chunked, so "?" can stop it
		b.Time = 24 * time.Hour
	}
	return b
}

// stopThinking cancels a search; discard drops its move.
func (e *Engine) stopThinking(discard bool) {
	if e.thinking == nil {
		return
	}
	e.thinking.discard = discard
	e.thinking.cancel()
	r := <-e.thinking.done
	e.finishThinking(r)
}

// finishThinking plays and announces the move of a finished search.
func (e *Engine) finishThinking(r thinkResult) {
	t := e.thinking
	e.thinking = nil
	t.cancel()
	if t.discard {
		return
	}
	var m rules.Move
	switch {
	case r.err == nil && r.res != nil:
		m = r.res.Best
	case errors.Is(r.err, mcts.ErrGameOver):
		return
	default: // stopped before any result: the first legal move rather than none
		e.cfg.Log.Warn("cecp: search failed; playing the first legal move", "err", r.err)
		moves := e.game.LegalMoves()
		if len(moves) == 0 {
			return
		}
		m = moves[0]
	}
	if r.res != nil && !e.allowEnPrise {
		m = e.safeMove(r.res, m)
	}
	text := e.game.Position().MoveString(m)
	if e.post && r.res != nil {
		score := int(math.Round(100 * r.res.RootValue))
		e.send("%d %d %d %d %s", 1, score, r.dur.Milliseconds()/10, r.res.Simulations, text)
	}
	if err := e.game.Play(m); err != nil {
		e.cfg.Log.Error("cecp: the search chose an illegal move", "move", text, "err", err)
		return
	}
	e.send("move %s", text)
	if res := e.game.Result(); res.Over() {
		e.send("%s {%s}", res.PGN(), res)
	}
}

// safeMove returns the search's choice unless it leaves one of the
// mover's royals attacked while another move does not: then the most
// visited of those. Chu has no rule against it (the King is simply
// taken), but XBoard, testing legality, forfeits such a move, and it is a
// blunder anyway. Variants with a check rule already forbid it.
func (e *Engine) safeMove(res *mcts.Result, best rules.Move) rules.Move {
	if e.rules.Variant().CheckRule != rules.NoCheck || !e.exposes(best) {
		return best
	}
	pick, visits := best, int32(-1)
	for i, m := range res.Moves {
		if res.Visits[i] > visits && !e.exposes(m) {
			pick, visits = m, res.Visits[i]
		}
	}
	return pick
}

// exposes reports whether m leaves a royal of the mover attacked.
func (e *Engine) exposes(m rules.Move) bool {
	pos := *e.game.Position()
	me := pos.SideToMove()
	pos.Make(m)
	var buf [4]rules.Square
	for _, sq := range pos.RoyalSquares(buf[:0], me) {
		if pos.Attacked(sq, me.Other()) {
			return true
		}
	}
	return false
}

// setLevel handles "level MPS BASE INC" (BASE in minutes or min:sec).
func (e *Engine) setLevel(arg, line string) {
	f := strings.Fields(arg)
	if len(f) != 3 {
		e.send("Error (bad time control): %s", line)
		return
	}
	mps, err1 := strconv.Atoi(f[0])
	base, err2 := parseMinutes(f[1])
	inc, err3 := strconv.ParseFloat(f[2], 64)
	if err1 != nil || err2 != nil || err3 != nil || mps < 0 || !(inc >= 0) || math.IsInf(inc, 0) {
		e.send("Error (bad time control): %s", line)
		return
	}
	e.mps, e.base, e.inc = mps, base, time.Duration(inc*float64(time.Second))
	e.moveTime = 0
	e.clock, e.clockKnown = base, base > 0
}

// parseMinutes reads "5" (minutes) or "0:30" (minutes:seconds).
func parseMinutes(s string) (time.Duration, error) {
	m, sec, hasSec := strings.Cut(s, ":")
	mins, err := strconv.Atoi(m)
	if err != nil || mins < 0 {
		return 0, fmt.Errorf("bad minutes %q", s)
	}
	d := time.Duration(mins) * time.Minute
	if hasSec {
		secs, err := strconv.Atoi(sec)
		if err != nil || secs < 0 || secs > 59 {
			return 0, fmt.Errorf("bad seconds %q", s)
		}
		d += time.Duration(secs) * time.Second
	}
	return d, nil
}

// setClock handles "time N" (the engine's clock) and "otim N", in
// centiseconds.
func (e *Engine) setClock(cmd, arg, line string) {
	cs, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || cs < -1<<40 || cs > 1<<40 {
		e.send("Error (bad time): %s", line)
		return
	}
	if cmd == "time" {
		e.clock = max(time.Duration(cs)*10*time.Millisecond, 0)
		e.clockKnown = true
	}
}
