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
	"time"
)

// start runs the engine and sets it up: the protover handshake, the
// variant check, "memory", and a new game.
func (p *enginePlayer) start(ctx context.Context) error {
	if err := p.launch(); err != nil {
		return err
	}
	if err := p.handshake(ctx); err != nil {
		return err
	}
	if err := p.checkVariant(); err != nil {
		return err
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

// launch starts the engine's process and the goroutine that reads its
// standard output into p.lines and then waits for the process.
func (p *enginePlayer) launch() error {
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
	return nil
}

// handshake sends "xboard" and "protover 2" and accepts the engine's
// features until done=1. An engine that never sends done=1 (protocol 1)
// gets two seconds, one that sends done=0 gets the whole timeout.
func (p *enginePlayer) handshake(ctx context.Context) error {
	p.send("xboard")
	p.send("protover 2")
	deadline := time.Now().Add(2 * time.Second)
	for {
		line, err := p.readLine(ctx, deadline)
		if errors.Is(err, errTimeout) && p.features["done"] != "0" {
			return nil
		}
		if err != nil {
			return p.wrap("no reply to protover", err)
		}
		if !strings.HasPrefix(line, "feature ") {
			continue
		}
		p.acceptFeatures(line[len("feature "):])
		if d, ok := p.features["done"]; ok {
			if d == "1" {
				return nil
			}
			deadline = time.Now().Add(p.e.timeout())
		}
	}
}

// acceptFeatures records and accepts the features of one "feature" line
// (s is what follows "feature "), the options offered among them.
func (p *enginePlayer) acceptFeatures(s string) {
	for _, kv := range parseFeatures(s) {
		p.features[kv[0]] = kv[1]
		if kv[0] == "option" {
			p.options[strings.TrimSpace(strings.SplitN(kv[1], " -", 2)[0])] = true
		}
		p.send("accepted " + kv[0])
	}
}

// checkVariant reports an engine whose variants feature lacks ours.
func (p *enginePlayer) checkVariant() error {
	v, ok := p.features["variants"]
	if !ok || p.variant == "normal" {
		return nil
	}
	for _, name := range strings.Split(v, ",") {
		if strings.TrimSpace(name) == p.variant {
			return nil
		}
	}
	return fmt.Errorf("arena: engine %s does not play %s (its variants: %s)", p.name, p.variant, v)
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
		p.send(fmt.Sprintf("st %d", p.e.moveSeconds()))
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
