package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"chuzero/rules"
)

func init() {
	register(command{name: "perft", summary: "count legal move sequences (move-generation test)", run: runPerft})
}

// runPerft implements
//
//	chuzero perft -variant chu [-sfen 'SFEN' | -fen 'FEN'] -depth N [-divide] [-rule Name=Value]...
//
// The last line of standard output is the bare node count; -divide first
// prints "<move> <count>" per root move in machine notation.
func runPerft(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("perft", "perft -variant chu [-sfen SFEN | -fen FEN] -depth N [-divide] [-rule Name=Value]...", stderr)
	var vf variantFlags
	vf.register(fs)
	sfen := fs.String("sfen", "", "start from this position (SFEN, b = Sente to move); default: the start position")
	fen := fs.String("fen", "", "start from this position (XBoard/FSF FEN, w = Sente to move)")
	moves := fs.String("moves", "", "space-separated moves in machine notation to play first")
	depth := fs.Int("depth", 1, "depth in plies (0 counts the position itself)")
	divide := fs.Bool("divide", false, "print the count below every root move first")
	workers := fs.Int("workers", runtime.NumCPU(), "goroutines sharing the root moves")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "chuzero perft: %v\n", err)
		return 1
	}
	cfg, err := vf.config()
	if err != nil {
		return fail(err)
	}
	r, err := rules.New(cfg)
	if err != nil {
		return fail(err)
	}
	p, err := startPosition(r, *sfen, *fen)
	if err != nil {
		return fail(err)
	}
	for _, s := range strings.Fields(*moves) {
		m, err := p.ParseMove(s)
		if err != nil {
			return fail(err)
		}
		p.Make(m)
	}
	if *depth < 0 || *depth > 12 {
		return fail(fmt.Errorf("depth %d out of range 0..12", *depth))
	}
	if *workers < 1 {
		return fail(fmt.Errorf("workers must be at least 1, got %d", *workers))
	}
	start := time.Now()
	entries, total := rules.ParallelDivide(&p, *depth, *workers)
	elapsed := time.Since(start)
	if *divide {
		for _, e := range entries {
			fmt.Fprintf(stdout, "%s %d\n", e.Text, e.Nodes)
		}
	}
	fmt.Fprintf(stderr, "perft(%d) = %d in %v (%.1f M nodes/s, last ply counted in bulk)\n",
		*depth, total, elapsed.Round(time.Microsecond), float64(total)/elapsed.Seconds()/1e6)
	fmt.Fprintln(stdout, total)
	return 0
}

// startPosition reads -sfen or -fen, or returns the start position.
func startPosition(r *rules.Rules, sfen, fen string) (rules.Position, error) {
	switch {
	case sfen != "" && fen != "":
		return rules.Position{}, errors.New("give -sfen or -fen, not both")
	case sfen != "":
		return r.ParseSFEN(sfen)
	case fen != "":
		return r.ParseFEN(fen)
	}
	return r.StartPosition(), nil
}
