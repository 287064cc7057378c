package protocol

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"chuzero/mcts"
	"chuzero/selfplay/engine"
)

// serve runs Serve on input and returns what the engine wrote.
func serve(t *testing.T, protocol, input string) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() { w.WriteString(input); w.Close() }()
	var out bytes.Buffer
	cfg := engine.Config{Name: "chuzero test", Budget: mcts.Budget{Simulations: 4}}
	if err := Serve(context.Background(), protocol, cfg, r, &out); err != nil {
		t.Fatalf("%s: %v", protocol, err)
	}
	return out.String()
}

// TestServe: "auto" hands a first "usi" to the USI engine and anything
// else to the CECP one, with the first command answered (not lost); a
// named protocol is used as named; an unknown one is an error.
func TestServe(t *testing.T) {
	for _, tc := range []struct{ protocol, input, want, not string }{
		{"auto", "usi\nquit\n", "usiok", "feature"},
		{"auto", "\n\nusi\nisready\nquit\n", "readyok", "feature"},
		{"auto", "xboard\nprotover 2\nquit\n", "feature", "usiok"},
		{"auto", "protover 2\nquit\n", "feature", "usiok"},
		{"usi", "usi\nquit\n", "id name chuzero test", "feature"},
		{"cecp", "xboard\nprotover 2\nquit\n", "myname=\"chuzero test\"", "usiok"},
	} {
		out := serve(t, tc.protocol, tc.input)
		if !strings.Contains(out, tc.want) || strings.Contains(out, tc.not) {
			t.Errorf("%s on %q: wrote %q, want %q and no %q", tc.protocol, tc.input, out, tc.want, tc.not)
		}
	}
	if err := Serve(context.Background(), "uci", engine.Config{}, os.Stdin, &bytes.Buffer{}); err == nil {
		t.Error("an unknown protocol was accepted")
	}
}

// TestReadFirstCommand: blank lines are skipped, nothing past the first
// command's line is read.
func TestReadFirstCommand(t *testing.T) {
	r := strings.NewReader("\n \nusi\nisready\n")
	if got := readFirstCommand(r); got != "\n \nusi\n" {
		t.Errorf("read %q", got)
	}
	if rest := r.Len(); rest != len("isready\n") {
		t.Errorf("%d bytes left, want %d", rest, len("isready\n"))
	}
}
