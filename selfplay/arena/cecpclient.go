package arena

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"chuzero/rules"
)

// CECPClient is an external program that the arena plays over CECP (the
// XBoard/WinBoard protocol, version 2), such as HaChu: a client of chuzero
// in this package's words, which keep "engine" for selfplay/engine (the
// player spec calls it xboard:CMD, as users know it). One process is
// started per game.
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
type CECPClient struct {
	Label   string   // name in tables and records (default: the program's base name)
	Command []string // program and arguments
	Dir     string   // working directory ("" = the current one)
	Env     []string // extra environment variables ("NAME=value")
	// Memory is the hash size in MB sent with "memory" (default 64).
	Memory int
	// Depth limits the search depth ("sd N"); 0 sends nothing.
	Depth int
	// MoveTime is the time per move ("st N", whole seconds, at least 1,
	// with "time" and "otim" of N seconds before every move, as XBoard
	// sends them); 0 sends none of them (the engine's own default time
	// control applies).
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
func (e *CECPClient) Name() string {
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

// moveSeconds is MoveTime in the whole seconds of "st", rounded up, at
// least 1.
func (e *CECPClient) moveSeconds() int {
	return max(1, int((e.MoveTime+time.Second-1)/time.Second))
}

func (e *CECPClient) timeout() time.Duration {
	if e.Timeout > 0 {
		return e.Timeout
	}
	return 30*time.Second + 4*e.MoveTime
}

// Open implements Entrant: it starts the engine and sets up a game of r's
// variant.
func (e *CECPClient) Open(ctx context.Context, r *rules.Rules, _ uint64) (Player, error) {
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
	e        *CECPClient
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

// ParseEngineOption splits "Name=Value".
func ParseEngineOption(s string) (name, value string, err error) {
	name, value, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return "", "", fmt.Errorf("arena: engine option %q is not Name=Value", s)
	}
	return strings.TrimSpace(name), strings.TrimSpace(value), nil
}
