package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"chuzero/rules"
)

func init() {
	register(command{name: "moves", summary: "list legal moves or play a move, for positions read line by line", run: runMoves})
}

// runMoves serves other programs (the shogiops cross-check, scripts): for
// every line of input "<SFEN>" it prints the legal moves in one line,
// space-separated; for "<SFEN> | <move>" it plays the move (any notation
// the -format accepts) and prints the resulting SFEN. Errors are printed as
// "error: ..." lines so a driver stays in step.
func runMoves(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("moves", "moves -variant chu [-format usi|machine|hodges] [-sfen SFEN] [-rule Name=Value]...", stderr)
	var vf variantFlags
	vf.register(fs)
	format := fs.String("format", "machine", "move notation: machine, usi or hodges")
	sfen := fs.String("sfen", "", "answer for this one position instead of reading standard input")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	cfg, err := vf.config()
	if err != nil {
		fmt.Fprintf(stderr, "chuzero moves: %v\n", err)
		return 1
	}
	r, err := rules.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "chuzero moves: %v\n", err)
		return 1
	}
	nf, err := notationByName(*format)
	if err != nil {
		fmt.Fprintf(stderr, "chuzero moves: %v\n", err)
		return 1
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	if *sfen != "" {
		if err := answerMoves(w, r, nf, *sfen); err != nil {
			fmt.Fprintf(stderr, "chuzero moves: %v\n", err)
			return 1
		}
		return 0
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if err := answerMoves(w, r, nf, line); err != nil {
			fmt.Fprintf(w, "error: %v\n", err)
		}
		w.Flush()
	}
	return 0
}

func answerMoves(w io.Writer, r *rules.Rules, nf notation, line string) error {
	sfen, move, play := strings.Cut(line, "|")
	p, err := r.ParseSFEN(strings.TrimSpace(sfen))
	if err != nil {
		return err
	}
	if play {
		m, err := nf.parse(&p, strings.TrimSpace(move))
		if err != nil {
			return err
		}
		p.Make(m)
		_, err = fmt.Fprintln(w, p.SFEN())
		return err
	}
	var out []string
	for _, m := range p.GenerateMoves(nil) {
		out = append(out, nf.format(&p, m))
	}
	_, err = fmt.Fprintln(w, strings.Join(out, " "))
	return err
}

// notation is a move format by name.
type notation struct {
	format func(*rules.Position, rules.Move) string
	parse  func(*rules.Position, string) (rules.Move, error)
}

func notationByName(name string) (notation, error) {
	switch name {
	case "machine":
		return notation{(*rules.Position).MoveString, (*rules.Position).ParseMove}, nil
	case "usi":
		return notation{(*rules.Position).USI, (*rules.Position).ParseUSI}, nil
	case "hodges":
		return notation{(*rules.Position).Hodges, (*rules.Position).ParseHodges}, nil
	}
	return notation{}, fmt.Errorf("unknown move format %q (want machine, usi or hodges)", name)
}
