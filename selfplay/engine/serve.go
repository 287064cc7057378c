package engine

import (
	"bufio"
	"context"
	"io"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// Handler is a protocol: it runs the GUI's commands and answers the
// searches that end, both on the session goroutine.
type Handler interface {
	// Handle runs one command line (trimmed, not empty); it reports quit.
	Handle(ctx context.Context, cmd, arg, line string) (quit bool)
	// Finish answers a search that ended and was not discarded; ctx is
	// the session's.
	Finish(ctx context.Context, o Outcome)
	// Failed answers a command whose handling panicked (a bug): the
	// protocol's error form; the session carries on.
	Failed(line string)
}

// Serve runs the protocol h on in and out until h reports quit, in ends,
// or ctx ends. Its search is stopped and joined before it returns; the
// reader of in ends as ReadLines says.
func (c *Core) Serve(ctx context.Context, in io.Reader, out io.Writer, h Handler) error {
	c.serveOutput(out)
	c.h, c.ctx = h, ctx
	lines, readErr, stopReading := ReadLines(in)
	defer stopReading()
	defer c.Stop(true)
	for {
		var done chan Outcome
		if c.thinking != nil {
			done = c.thinking.done
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case o := <-done:
			c.finish(o)
		case line, ok := <-lines:
			if !ok {
				c.Stop(true)
				return <-readErr
			}
			if c.handle(ctx, line) {
				return nil
			}
		}
	}
}

// handle runs one line through the handler, never letting it crash the
// session.
func (c *Core) handle(ctx context.Context, line string) (quit bool) {
	defer func() {
		if p := recover(); p != nil { // never crash on input: report and carry on
			c.Cfg.Log.Error(c.proto+": internal error", "command", line, "panic", p, "stack", string(debug.Stack()))
			c.h.Failed(Clip(strings.TrimSpace(line)))
		}
	}()
	line = strings.TrimSpace(line)
	if line == "" {
		return false
	}
	c.Cfg.Log.Debug(c.proto+" <", "line", line)
	cmd, arg, _ := strings.Cut(line, " ")
	return c.h.Handle(ctx, cmd, strings.TrimSpace(arg), line)
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
