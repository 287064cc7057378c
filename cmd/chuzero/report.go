package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"chuzero/checkpoints"
	"chuzero/selfplay/report"
)

func init() {
	register(command{name: "report", summary: "plot a training run (loss, Elo, games, resignation) into an HTML page", run: runReport})
}

// runReport implements
//
//	chuzero report -run DIR [-out DIR/report] [-width 960] [-height 540] [-dpi 96] [-time-unit 1h] [-smooth 0] [-bins 40] [-gating-rows 20]
//
// It reads the run's logs and games and writes the plots and index.html
// (report.Generate), then prints the files written and a one-paragraph
// summary; warnings about skipped damaged lines go to standard error.
func runReport(args []string, stdout, stderr io.Writer) int {
	fset := newFlagSet("report", "report -run DIR [-out DIR/report] [-width PX -height PX -dpi N] [-time-unit 1h] [-smooth N] [-bins N] [-gating-rows N]", stderr)
	d := report.DefaultOptions()
	runDir := fset.String("run", "", "run directory (config.json, logs/, games/); required")
	out := fset.String("out", "", "output directory (default: DIR/report)")
	opt := report.Options{}
	fset.IntVar(&opt.Width, "width", d.Width, "image width in pixels")
	fset.IntVar(&opt.Height, "height", d.Height, "image height in pixels")
	fset.IntVar(&opt.DPI, "dpi", d.DPI, "dots per inch (text is sized in points: more DPI, larger text)")
	fset.DurationVar(&opt.TimeUnit, "time-unit", d.TimeUnit, "unit of the time axes, since the run's start (1h, 1m, 24h)")
	fset.IntVar(&opt.Smooth, "smooth", d.Smooth, "loss moving-average window in log entries (0: automatic, 1: none)")
	fset.IntVar(&opt.Bins, "bins", d.Bins, "most time bins of the game plots (bins have round widths)")
	fset.IntVar(&opt.GatingRows, "gating-rows", d.GatingRows, "last gating decisions listed in index.html")
	if code, done := parseFlags(fset, args); done {
		return code
	}
	if *runDir == "" {
		fmt.Fprintln(stderr, "chuzero report: -run DIR is required")
		fset.Usage()
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "chuzero report: %v\n", err)
		return 1
	}
	if fi, err := os.Stat(*runDir); errors.Is(err, fs.ErrNotExist) {
		return fail(fmt.Errorf("run directory %s does not exist", *runDir))
	} else if err != nil {
		return fail(err)
	} else if !fi.IsDir() {
		return fail(fmt.Errorf("run directory %s is not a directory", *runDir))
	}
	run := checkpoints.RunAt(*runDir, "") // -run is required: never the default
	if *out == "" {
		*out = run.Report()
	}
	s, err := report.Generate(run, *out, opt)
	if err != nil {
		return fail(err)
	}
	for _, w := range s.Warnings {
		fmt.Fprintf(stderr, "chuzero report: warning: %s\n", w)
	}
	if n := s.WarningCount - len(s.Warnings); n > 0 {
		fmt.Fprintf(stderr, "chuzero report: warning: %d more\n", n)
	}
	fmt.Fprintln(stdout, "Wrote:")
	for _, f := range s.Files {
		fmt.Fprintf(stdout, "  %s\n", f)
	}
	fmt.Fprintf(stdout, "\n%s\n", s)
	return 0
}
