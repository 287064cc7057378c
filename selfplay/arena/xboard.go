package arena

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"chuzero/rules"
)

// Engine is an external engine speaking CECP (the XBoard/WinBoard
// protocol, version 2), such as HaChu. One process is started per game.
//
// The session: "xboard", "protover 2" and the engine's features (answered
// "accepted"); "memory N" when the engine offers memory=1 (HaChu crashes
// if it searches before it has been sent); "new", "variant <name>",
// "force", "easy" (no pondering), the options, "sd"/"st", then for each of
// its turns the moves it has not seen as "usermove <move>" (or bare, if it
// did not ask for usermove=1), a "ping" whose "pong" shows whether it
// refused one ("Illegal move"), "go", and its "move ..." reply, after which
// it is put back in force mode. A move printed over two lines (HaChu's
// Lion double moves, "move f6g7," then "move g7h8") is joined. Lines that
// start with "#" are the engine's debug output and are ignored.
type Engine struct {
	Label   string   // name in tables and records (default: the program's base name)
	Command []string // program and arguments
	Dir     string   // working directory ("" = the current one)
	Env     []string // extra environment variables ("NAME=value")
	// Memory is the hash size in MB sent with "memory" (default 64).
	Memory int
	// Depth limits the search depth ("sd N"); 0 sends nothing.
	Depth int
	// MoveTime is the time per move ("st N", whole seconds, at least 1);
	// 0 sends nothing (the engine's own default time control applies).
	MoveTime time.Duration
	// Options are engine options, sent as "option Name=Value" after the
	// rule options, so they override them.
	Options map[string]string
	// NoRuleOptions turns off the automatic mapping of our rules options
	// onto the engine's options of the same meaning (see RuleOptions).
	NoRuleOptions bool
	// Timeout is how long the engine may take over one move, or to start,
	// before it forfeits (default 30s + 4 x MoveTime).
	Timeout time.Duration
	// Log, if set, receives the protocol traffic ("name> sent",
	// "name< received").
	Log io.Writer
}

// Name implements Entrant.
func (e *Engine) Name() string {
	if e.Label != "" {
		return e.Label
	}
	if len(e.Command) > 0 {
		return filepath.Base(e.Command[0])
	}
	return "engine"
}

// RuleOptions returns the engine options that carry the rules of c, for
// an engine that offers options of these names (HaChu's): "Allow repeats"
// (off iff Repetition=Forbid), "Promote on entry" (off iff
// PromotionRule=Hodges) and "Okazaki rule" (on iff CounterStrike=Okazaki).
// Only Chu has them.
func RuleOptions(c rules.Config) map[string]string {
	if c.Variant != rules.Chu {
		return nil
	}
	b := func(on bool) string {
		if on {
			return "1"
		}
		return "0"
	}
	rep, _ := c.Value("Repetition")
	prom, _ := c.Value("PromotionRule")
	cs, _ := c.Value("CounterStrike")
	return map[string]string{
		"Allow repeats":    b(!strings.EqualFold(rep, "Forbid")),
		"Promote on entry": b(!strings.EqualFold(prom, "Hodges")),
		"Okazaki rule":     b(strings.EqualFold(cs, "Okazaki")),
	}
}

func (e *Engine) timeout() time.Duration {
	if e.Timeout > 0 {
		return e.Timeout
	}
	return 30*time.Second + 4*e.MoveTime
}

// Open implements Entrant: it starts the engine and sets up a game of r's
// variant.
func (e *Engine) Open(ctx context.Context, r *rules.Rules, _ uint64) (Player, error) {
	if len(e.Command) == 0 {
		return nil, errors.New("arena: an engine needs a command")
	}
	p := &enginePlayer{e: e, name: e.Name(), r: r, variant: r.Variant().XBoard, features: map[string]string{}, options: map[string]bool{}}
	if err := p.start(ctx); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

type enginePlayer struct {
	e        *Engine
	name     string
	r        *rules.Rules
	variant  string
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	stdout   io.ReadCloser
	lines    chan string // stdout, closed at EOF
	stderr   *tailBuffer
	waitDone chan struct{}
	waitErr  error
	features map[string]string
	options  map[string]bool // options the engine offers
	known    []rules.Move    // moves of the game the engine has been told
	startFEN string          // start position sent ("" = the variant's)
	synced   bool
	ping     int
	closed   bool
	said     string // the engine's last complaint (tellusererror, Error), for error messages
}

// tailBuffer keeps the last bytes written to it (an engine's stderr).
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > 4096 {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-2048:]...)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

func (p *enginePlayer) start(ctx context.Context) error {
	path, err := LookPath(p.e.Command[0])
	if err != nil {
		return fmt.Errorf("arena: engine %s: %w", p.name, err)
	}
	p.cmd = exec.Command(path, p.e.Command[1:]...)
	p.cmd.Dir = p.e.Dir
	if len(p.e.Env) > 0 {
		p.cmd.Env = append(os.Environ(), p.e.Env...)
	}
	p.stderr = &tailBuffer{}
	p.cmd.Stderr = p.stderr
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		return err
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := p.cmd.Start(); err != nil {
		return fmt.Errorf("arena: engine %s: %w", p.name, err)
	}
	p.lines = make(chan string, 256)
	p.waitDone = make(chan struct{})
	p.stdout = out
	// Wait closes the pipe: only once it has been read to the end, or the
	// engine's last lines (its reason for exiting) would be lost.
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			p.lines <- strings.TrimRight(sc.Text(), "\r")
		}
		close(p.lines)
		p.waitErr = p.cmd.Wait()
		close(p.waitDone)
	}()

	p.send("xboard")
	p.send("protover 2")
	// Features until done=1; an engine that never sends done=1 (protocol
	// 1) gets two seconds, one that sends done=0 gets the whole timeout.
	deadline := time.Now().Add(2 * time.Second)
	for {
		line, err := p.readLine(ctx, deadline)
		if errors.Is(err, errTimeout) && p.features["done"] != "0" {
			break
		}
		if err != nil {
			return p.wrap("no reply to protover", err)
		}
		if !strings.HasPrefix(line, "feature ") {
			continue
		}
		for _, kv := range parseFeatures(line[len("feature "):]) {
			p.features[kv[0]] = kv[1]
			if kv[0] == "option" {
				p.options[strings.TrimSpace(strings.SplitN(kv[1], " -", 2)[0])] = true
			}
			p.send("accepted " + kv[0])
		}
		if d, ok := p.features["done"]; ok {
			if d == "1" {
				break
			}
			deadline = time.Now().Add(p.e.timeout())
		}
	}
	if v, ok := p.features["variants"]; ok && p.variant != "normal" {
		found := false
		for _, name := range strings.Split(v, ",") {
			if strings.TrimSpace(name) == p.variant {
				found = true
			}
		}
		if !found {
			return fmt.Errorf("arena: engine %s does not play %s (its variants: %s)", p.name, p.variant, v)
		}
	}
	if p.features["memory"] == "1" {
		mem := p.e.Memory
		if mem <= 0 {
			mem = 64
		}
		p.send(fmt.Sprintf("memory %d", mem))
	}
	return p.newGame(ctx, "")
}

// newGame sets up a fresh game from fen ("" = the variant's start).
func (p *enginePlayer) newGame(ctx context.Context, fen string) error {
	p.send("new")
	if p.variant != "normal" {
		p.send("variant " + p.variant)
	}
	p.send("force")
	p.send("easy")
	p.send("nopost")
	if !p.e.NoRuleOptions {
		opts := RuleOptions(p.r.Config())
		names := make([]string, 0, len(opts))
		for n := range opts {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if p.options[n] {
				if _, mine := p.e.Options[n]; !mine {
					p.send("option " + n + "=" + opts[n])
				}
			}
		}
	}
	names := make([]string, 0, len(p.e.Options))
	for n := range p.e.Options {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p.send("option " + n + "=" + p.e.Options[n])
	}
	if p.e.Depth > 0 {
		p.send(fmt.Sprintf("sd %d", p.e.Depth))
	}
	if p.e.MoveTime > 0 {
		p.send(fmt.Sprintf("st %d", max(1, int((p.e.MoveTime+time.Second-1)/time.Second))))
	}
	if fen != "" {
		p.send("setboard " + fen)
	}
	p.startFEN, p.known, p.synced = fen, p.known[:0], true
	_, err := p.sync(ctx)
	return err
}

// sync sends a ping and reads up to its pong, returning the engine's
// refusal of a move, if any.
func (p *enginePlayer) sync(ctx context.Context) (refused string, err error) {
	p.ping++
	want := fmt.Sprintf("pong %d", p.ping)
	p.send(fmt.Sprintf("ping %d", p.ping))
	deadline := time.Now().Add(p.e.timeout())
	for {
		line, err := p.readLine(ctx, deadline)
		if err != nil {
			return refused, p.wrap("no pong", err)
		}
		switch {
		case line == want:
			return refused, nil
		case strings.HasPrefix(line, "Illegal move"), strings.HasPrefix(line, "Error"):
			if refused == "" {
				refused = line
			}
		}
	}
}

// Move implements Player.
func (p *enginePlayer) Move(ctx context.Context, g *rules.Game) (Reply, error) {
	start := g.Start()
	fen := ""
	if std := p.r.StartPosition(); !start.Equal(&std) {
		fen = start.FEN()
	}
	// Tell the engine the moves it has not seen; start over if the game
	// is not a continuation of what it knows.
	moves := g.Moves()
	cont := p.synced && fen == p.startFEN && len(moves) >= len(p.known)
	for i := 0; cont && i < len(p.known); i++ {
		cont = p.known[i] == moves[i]
	}
	if !cont {
		if err := p.newGame(ctx, fen); err != nil {
			return Reply{}, err
		}
	}
	if len(p.known) < len(moves) {
		replay := rules.NewGame(start)
		for _, m := range p.known {
			replay.Push(m)
		}
		prefix := ""
		if p.features["usermove"] == "1" {
			prefix = "usermove "
		}
		var sent []string
		for _, m := range moves[len(p.known):] {
			text := replay.Position().MoveString(m)
			p.send(prefix + text)
			sent = append(sent, text)
			replay.Push(m)
		}
		refused, err := p.sync(ctx)
		if err != nil {
			return Reply{}, err
		}
		if refused != "" {
			p.synced = false // its game is no longer ours
			return Reply{}, &RejectedError{Move: strings.Join(sent, " "), Reason: refused}
		}
		p.known = append(p.known, moves[len(p.known):]...)
	}
	p.send("go")
	deadline := time.Now().Add(p.e.timeout())
	var partial string
	for {
		line, err := p.readLine(ctx, deadline)
		if err != nil {
			return Reply{}, p.wrap("no move", err)
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch {
		case f[0] == "move" && len(f) >= 2:
			text := partial + f[1]
			if strings.HasSuffix(f[1], ",") { // first leg of a two-line move
				partial = text
				continue
			}
			p.send("force")
			m, perr := g.Position().ParseMove(text)
			if perr != nil {
				m = rules.NoMove
			} else {
				p.known = append(p.known, m)
			}
			return Reply{Move: m, Text: text}, nil
		case len(f) >= 4 && f[0] == "My" && f[1] == "move" && f[2] == "is:":
			p.send("force")
			m, perr := g.Position().ParseMove(f[3])
			if perr != nil {
				m = rules.NoMove
			} else {
				p.known = append(p.known, m)
			}
			return Reply{Move: m, Text: f[3]}, nil
		case f[0] == "resign":
			p.synced = false
			return Reply{Resign: true, Text: line}, nil
		case f[0] == "1-0" || f[0] == "0-1" || f[0] == "1/2-1/2":
			p.send("force")
			p.synced = false
			return Reply{Claim: line, Text: line}, nil
		case strings.HasPrefix(line, "Illegal move"), strings.HasPrefix(line, "Error"):
			// a late refusal of the last move it was sent
			p.synced = false
			return Reply{}, &RejectedError{Move: g.Position().MoveString(g.MoveAt(g.Len() - 1)), Reason: line}
		}
	}
}

var errTimeout = errors.New("timed out")

// readLine returns the next non-debug line, waiting until deadline.
func (p *enginePlayer) readLine(ctx context.Context, deadline time.Time) (string, error) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				<-p.waitDone
				return "", fmt.Errorf("the engine exited (%v)", p.waitErr)
			}
			if p.e.Log != nil {
				fmt.Fprintf(p.e.Log, "%s< %s\n", p.name, line)
			}
			if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
				continue
			}
			if strings.HasPrefix(line, "tellusererror") || strings.HasPrefix(line, "Error") {
				p.said = line
			}
			return line, nil
		case <-timer.C:
			return "", errTimeout
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

func (p *enginePlayer) send(line string) {
	if p.e.Log != nil {
		fmt.Fprintf(p.e.Log, "%s> %s\n", p.name, line)
	}
	io.WriteString(p.stdin, line+"\n") // a dead engine shows up at the next read
}

// wrap names the engine and adds the tail of its standard error.
func (p *enginePlayer) wrap(what string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if errors.Is(err, errTimeout) {
		err = fmt.Errorf("%w after %v", err, p.e.timeout())
	}
	msg := fmt.Sprintf("arena: engine %s: %s: %v", p.name, what, err)
	if p.said != "" {
		msg += fmt.Sprintf(" (it said %q)", p.said)
	}
	if tail := p.stderr.String(); tail != "" {
		if i := strings.LastIndexByte(tail, '\n'); i >= 0 {
			tail = tail[i+1:]
		}
		msg += " (stderr: " + tail + ")"
	}
	return errors.New(msg)
}

// Close implements Player: "quit", then a kill after a second.
func (p *enginePlayer) Close() error {
	if p.closed || p.cmd == nil || p.cmd.Process == nil {
		return nil
	}
	p.closed = true
	p.send("quit")
	p.stdin.Close()
	go func() { // read what is left so the reader reaches the end
		for line := range p.lines {
			if p.e.Log != nil {
				fmt.Fprintf(p.e.Log, "%s< %s\n", p.name, line)
			}
		}
	}()
	select {
	case <-p.waitDone:
		return nil
	case <-time.After(time.Second):
	}
	p.cmd.Process.Kill()
	select {
	case <-p.waitDone:
	case <-time.After(time.Second):
		// a child of the engine still holds its output open
		p.stdout.Close()
		<-p.waitDone
	}
	return nil
}

// parseFeatures splits `a=1 b="x y" c=2` into pairs.
func parseFeatures(s string) [][2]string {
	var out [][2]string
	for {
		s = strings.TrimSpace(s)
		if s == "" {
			return out
		}
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			return out
		}
		key := strings.TrimSpace(s[:eq])
		s = s[eq+1:]
		var val string
		if strings.HasPrefix(s, `"`) {
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				val, s = s[1:], ""
			} else {
				val, s = s[1:1+end], s[2+end:]
			}
		} else {
			end := strings.IndexAny(s, " \t")
			if end < 0 {
				end = len(s)
			}
			val, s = s[:end], s[end:]
		}
		out = append(out, [2]string{key, val})
	}
}

// LookPath finds a program like exec.LookPath, also in /usr/games (where
// Debian installs hachu and which is not on every PATH).
func LookPath(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err == nil || strings.ContainsRune(name, os.PathSeparator) {
		return p, err
	}
	alt := filepath.Join("/usr/games", name)
	if st, serr := os.Stat(alt); serr == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
		return alt, nil
	}
	return "", err
}

// ParseEngineOption splits "Name=Value".
func ParseEngineOption(s string) (name, value string, err error) {
	name, value, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return "", "", fmt.Errorf("arena: engine option %q is not Name=Value", s)
	}
	return strings.TrimSpace(name), strings.TrimSpace(value), nil
}
