package cecp

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"chuzero/mcts"
	"chuzero/selfplay/engine"
)

// TestQuitLeavesNoGoroutine: lines after "quit" (a GUI that keeps
// talking) must not keep Serve's reader alive, nor a search started
// before it.
func TestQuitLeavesNoGoroutine(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	e, err := New(engine.Config{Name: "leak", Budget: mcts.Budget{Simulations: 100000}})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	in := strings.NewReader("xboard\nprotover 2\nvariant chu\nnew\ngo\nquit\nnew\nforce\nnew\n")
	if err := e.Serve(context.Background(), in, &out); err != nil {
		t.Fatal(err)
	}
}

// TestQuitOnAPipe: with an *os.File pipe the reader ends at once after
// "quit", though the writer stays open.
func TestQuitOnAPipe(t *testing.T) {
	before := goleak.IgnoreCurrent()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(engine.Config{Name: "leak", Budget: mcts.Budget{Simulations: 16}})
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString("xboard\nprotover 2\nquit\n")
	var out bytes.Buffer
	if err := e.Serve(context.Background(), r, &out); err != nil {
		t.Fatal(err)
	}
	goleak.VerifyNone(t, before) // the writer is still open
	w.Close()
	r.Close()
}
