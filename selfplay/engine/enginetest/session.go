// Package enginetest drives a text-protocol engine (CECP or USI) through
// pipes, as a GUI or a bridge would, for the protocol tests (the cecp and
// usi packages, and chuzero play as a process).
package enginetest

import (
	"bufio"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"chuzero/selfplay/engine"
)

// Timeout bounds each wait for an expected line.
const Timeout = 60 * time.Second

// Session is one engine served over pipes.
type Session struct {
	T *testing.T
	// Lines carries the engine's output, a line at a time; it is closed
	// when the engine closes its output.
	Lines chan string

	in   *io.PipeWriter
	done chan error
	once sync.Once
	err  error
}

// Start serves an engine with serve (its Serve method) and closes its
// input, waits for it and drains its output when the test ends.
func Start(t *testing.T, serve func(ctx context.Context, in io.Reader, out io.Writer) error) *Session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &Session{T: t, Lines: make(chan string, 10000), in: inW, done: make(chan error, 1)}
	go func() {
		err := serve(context.Background(), inR, outW)
		outW.Close()
		inR.Close()
		s.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			s.Lines <- sc.Text()
		}
		close(s.Lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		s.Wait()
		for range s.Lines {
		}
	})
	return s
}

// Wait waits for the engine to return and returns its error; it may be
// called more than once.
func (s *Session) Wait() error {
	s.once.Do(func() { s.err = <-s.done })
	return s.err
}

// Send writes lines to the engine.
func (s *Session) Send(lines ...string) {
	s.T.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l+"\n"); err != nil {
			s.T.Fatalf("send %q: %v", engine.Clip(l), err)
		}
	}
}

// Expect reads lines until one starts with prefix and returns it with the
// lines before it.
func (s *Session) Expect(prefix string) (string, []string) {
	s.T.Helper()
	return ExpectLine(s.T, s.Lines, prefix, Timeout)
}

// ExpectLine reads lines until one starts with prefix and returns it with
// the lines before it, failing t if lines closes or timeout passes first.
func ExpectLine(t testing.TB, lines <-chan string, prefix string, timeout time.Duration) (string, []string) {
	t.Helper()
	var before []string
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the engine closed its output waiting for %q (after %q)", prefix, before)
			}
			if strings.HasPrefix(l, prefix) {
				return l, before
			}
			before = append(before, l)
		case <-deadline:
			t.Fatalf("no %q within %v (got %q)", prefix, timeout, before)
		}
	}
}

// Sync sends cmd and returns every line before the reply that starts with
// reply (a CECP ping and its pong, a USI isready and its readyok).
func (s *Session) Sync(cmd, reply string) []string {
	s.T.Helper()
	s.Send(cmd)
	_, before := s.Expect(reply)
	return before
}
