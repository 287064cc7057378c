// Package report turns the logs of a training run (checkpoints.ReadLog:
// training steps, evaluation matches, gating decisions), with its game
// records and strength gauntlet, into plots and an HTML page ("chuzero
// report").
package report

import (
	"bytes"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"sort"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"chuzero/checkpoints"
	"chuzero/checkpoints/atomicfile"
)

// Files Generate writes into its output directory. Every plot is written
// even without data: it then shows a centred "no data yet" note, so the
// page and its links never change shape.
const (
	LossPlot         = "loss.png"           // policy, value, L2 and total loss over time
	EloPlot          = "elo.png"            // Elo against each anchor over time, 95% intervals
	GamesPerHourPlot = "games_per_hour.png" // self-play games finished per hour, binned
	GameLengthPlot   = "game_length.png"    // game length in plies: mean and 10th–90th percentile per bin
	ResignFPPlot     = "resign_fp.png"      // resignation false-positive rate per bin, Wilson intervals
	IndexPage        = "index.html"         // summary, the plots, the last gating decisions
)

// Options shape the report. The zero value of a field means its default
// (DefaultOptions).
type Options struct {
	Width, Height int           // image size in pixels (960×540)
	DPI           int           // dots per inch (96); text is sized in points, so more DPI is larger text
	TimeUnit      time.Duration // unit of the time axes, counted from the run's start (time.Hour)
	Smooth        int           // loss moving-average window in log entries (0: about 1/25 of them; 1: none)
	Bins          int           // most time bins of the game plots (40; fewer for few games); bins have a round width, 1 s to weeks
	GatingRows    int           // last gating decisions listed in index.html (20)
}

// DefaultOptions returns the defaults: 960×540 pixels at 96 DPI, hours
// since the run's start, automatic smoothing, at most 40 bins, 20 gating
// rows.
func DefaultOptions() Options {
	return Options{Width: 960, Height: 540, DPI: 96, TimeUnit: time.Hour, Bins: 40, GatingRows: 20}
}

// withDefaults returns o with its zero fields set to the defaults.
func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.Width == 0 {
		o.Width = d.Width
	}
	if o.Height == 0 {
		o.Height = d.Height
	}
	if o.DPI == 0 {
		o.DPI = d.DPI
	}
	if o.TimeUnit == 0 {
		o.TimeUnit = d.TimeUnit
	}
	if o.Bins == 0 {
		o.Bins = d.Bins
	}
	if o.GatingRows == 0 {
		o.GatingRows = d.GatingRows
	}
	return o
}

// Validate checks the options (after defaults are filled in).
func (o Options) Validate() error {
	switch {
	case o.Width < 100 || o.Height < 100 || o.Width > 10000 || o.Height > 10000:
		return fmt.Errorf("report: image size %d×%d pixels out of range 100..10000", o.Width, o.Height)
	case o.DPI < 10 || o.DPI > 1200:
		return fmt.Errorf("report: %d DPI out of range 10..1200", o.DPI)
	case o.TimeUnit < 0:
		return fmt.Errorf("report: negative time unit %v", o.TimeUnit)
	case o.Smooth < 0:
		return fmt.Errorf("report: negative smoothing window %d", o.Smooth)
	case o.Bins < 0 || o.Bins > 10000:
		return fmt.Errorf("report: %d bins out of range 1..10000", o.Bins)
	case o.GatingRows < 0:
		return fmt.Errorf("report: negative gating rows %d", o.GatingRows)
	}
	return nil
}

// Plot is one of the report's plots: its file name and its heading on the
// page.
type Plot struct {
	File, Heading string
	make          func(*runData, Options, timeAxis) *plot.Plot
}

// plots are the report's plots in page order.
var plots = []Plot{
	{LossPlot, "Training loss", lossPlot},
	{EloPlot, "Elo against the anchors", eloPlot},
	{GamesPerHourPlot, "Self-play games per hour", gamesPerHourPlot},
	{GameLengthPlot, "Game length", gameLengthPlot},
	{ResignFPPlot, "Resignation false positives", resignFPPlot},
	{StrengthPlot, "Strength benchmark", strengthPlot},
}

// Plots lists the report's plots in page order.
func Plots() []Plot { return append([]Plot(nil), plots...) }

// Rendered is a report made in memory: the summary and each plot as PNG
// bytes, by file name (LossPlot, EloPlot, ...).
type Rendered struct {
	Summary *Summary
	PNG     map[string][]byte
}

// Render reads the run directory run as Generate does and draws every
// plot in memory; it writes nothing. The Summary's OutDir and Files are
// empty.
func Render(run checkpoints.Run, opt Options) (*Rendered, error) {
	d, opt, err := open(run, opt)
	if err != nil {
		return nil, err
	}
	r, err := d.render(opt)
	if err != nil {
		return nil, err
	}
	r.Summary = d.summarize(run.Dir, "")
	return r, nil
}

// open checks opt, fills in its defaults and reads the run directory.
func open(run checkpoints.Run, opt Options) (*runData, Options, error) {
	opt = opt.withDefaults()
	if err := opt.Validate(); err != nil {
		return nil, opt, err
	}
	d, err := readRun(run)
	return d, opt, err
}

// render draws every plot of d.
func (d *runData) render(opt Options) (*Rendered, error) {
	tx := newTimeAxis(d.start, d.end, opt.TimeUnit)
	r := &Rendered{PNG: map[string][]byte{}}
	for _, p := range plots {
		png, err := renderPNG(p.make(d, opt, tx), opt)
		if err != nil {
			return nil, fmt.Errorf("report: %s: %w", p.File, err)
		}
		r.PNG[p.File] = png
	}
	return r, nil
}

// Generate reads the run directory run (config.json, logs/*.jsonl,
// games/*.jsonl) and writes the plots and index.html into outDir
// (created if needed), each atomically. Each games file is decoded whole
// by one of GOMAXPROCS workers, and only 16 bytes a game are kept.
// Damaged lines are skipped: a cut last line silently, any other with a
// warning in the Summary. A missing or unreadable run directory is an
// error.
func Generate(run checkpoints.Run, outDir string, opt Options) (*Summary, error) {
	d, opt, err := open(run, opt)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	s := d.summarize(run.Dir, outDir)
	r, err := d.render(opt)
	if err != nil {
		return nil, err
	}
	for _, p := range plots {
		if err := s.write(p.File, r.PNG[p.File]); err != nil {
			return nil, err
		}
	}
	page, err := renderHTML(d, s, opt)
	if err != nil {
		return nil, err
	}
	if err := s.write(IndexPage, page); err != nil {
		return nil, err
	}
	return s, nil
}

// write writes one output file atomically and lists it in s.Files.
func (s *Summary) write(name string, data []byte) error {
	path := filepath.Join(s.OutDir, name)
	if err := atomicfile.Write(path, data); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	s.Files = append(s.Files, path)
	return nil
}

// summarize completes the counts gathered while reading.
func (d *runData) summarize(runDir, outDir string) *Summary {
	s := d.sum
	s.RunDir, s.OutDir = runDir, outDir
	s.Variant = d.variant
	s.ResignThreshold = d.resignThreshold
	s.Start, s.End = d.start, d.end
	if !d.start.IsZero() {
		s.Hours = d.end.Sub(d.start).Hours()
	}
	s.TrainEntries = len(d.train)
	if n := len(d.train); n > 0 {
		t := d.train[n-1]
		s.LastTrain = &t
	}
	s.Evals = len(d.eval)
	latest := map[string]checkpoints.EvalEntry{}
	for _, e := range d.eval { // sorted by time: the last one wins
		latest[e.Opponent] = e
	}
	for _, e := range latest {
		s.LatestElo = append(s.LatestElo, e)
	}
	sort.Slice(s.LatestElo, func(i, j int) bool { return s.LatestElo[i].Opponent < s.LatestElo[j].Opponent })
	s.Gatings = len(d.gating)
	for _, g := range d.gating {
		if g.Promoted {
			s.Promotions++
		}
	}
	if n := len(d.gating); n > 0 {
		g := d.gating[n-1]
		s.LastGating = &g
	}
	return &s
}

// renderPNG draws p on an image of exactly opt.Width×opt.Height pixels.
func renderPNG(p *plot.Plot, opt Options) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, opt.Width, opt.Height))
	c := vgimg.NewWith(vgimg.UseImage(img), vgimg.UseDPI(opt.DPI))
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
