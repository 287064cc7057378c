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
	// Failed answers, in the protocol's error form, a line that could not
	// be run: kind says why ("internal error": its handling panicked, a
	// bug; "line too long": over MaxLine bytes, ignored), line is (the
	// start of) the line. The session carries on.
	Failed(kind, line string)
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
			if line.Overlong {
				c.Cfg.Log.Warn(c.proto+": a line over the limit, ignored", "bytes", line.Bytes, "limit", MaxLine)
				c.h.Failed("line too long", Clip(line.Text))
				continue
			}
			if c.handle(ctx, line.Text) {
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
			c.h.Failed("internal error", Clip(strings.TrimSpace(line)))
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

// MaxLine is the longest line a session reads; a longer one is answered
// with an error and skipped, and the session goes on.
const MaxLine = 1 << 20

// InputLine is a line read by ReadLines: its text, or for a line over
// MaxLine its first bytes, Overlong and its length.
type InputLine struct {
	Text     string
	Overlong bool
	Bytes    int
}

// ReadLines reads in line by line on a goroutine of its own: lines is
// closed at in's end, after which readErr holds the read error (nil at
// EOF). stop ends the reader: at once if in has a read deadline (an
// *os.File on a pipe or a socket: stop sets the deadline to now, leaving in
// unusable for further reads), else at in's next line or its end. A line
// over MaxLine comes as Overlong with its first 64 bytes; the reading goes
// on after its end.
func ReadLines(in io.Reader) (lines <-chan InputLine, readErr <-chan error, stop func()) {
	ch := make(chan InputLine)
	errc := make(chan error, 1)
	served := make(chan struct{})
	go func() {
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := readLine(r)
			if err != nil && line.Bytes == 0 {
				if err == io.EOF {
					err = nil
				}
				errc <- err
				close(ch)
				return
			}
			select {
			case ch <- line:
			case <-served:
				return
			}
		}
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

// readLine reads one line (without its "\n" or "\r\n"), holding at most
// MaxLine bytes of it; the last line may lack its newline.
func readLine(r *bufio.Reader) (InputLine, error) {
	var buf []byte
	var l InputLine
	for {
		chunk, err := r.ReadSlice('\n')
		l.Bytes += len(chunk)
		if !l.Overlong {
			if len(buf)+len(chunk) > MaxLine+2 {
				l.Overlong = true
				buf = append(buf, chunk[:min(len(chunk), 64)]...)
			} else {
				buf = append(buf, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if l.Overlong {
			l.Text = string(buf[:min(len(buf), 64)])
		} else {
			l.Text = strings.TrimRight(string(buf), "\r\n")
		}
		return l, err
	}
}
