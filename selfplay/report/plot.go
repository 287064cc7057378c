package report

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"chuzero/encode"
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

// Generate reads the run directory runDir (config.json, logs/*.jsonl,
// games/*.jsonl) and writes the plots and index.html into outDir
// (created if needed), each atomically. Each games file is decoded whole
// by one of GOMAXPROCS workers, and only 16 bytes a game are kept.
// Damaged lines are skipped: a cut last line silently, any other with a
// warning in the Summary. A missing or unreadable run directory is an
// error.
func Generate(runDir, outDir string, opt Options) (*Summary, error) {
	opt = opt.withDefaults()
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	d, err := readRun(runDir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	s := d.summarize(runDir, outDir)
	tx := newTimeAxis(d.start, d.end, opt.TimeUnit)
	plots := []struct {
		name string
		make func(*runData, Options, timeAxis) *plot.Plot
	}{
		{LossPlot, lossPlot},
		{EloPlot, eloPlot},
		{GamesPerHourPlot, gamesPerHourPlot},
		{GameLengthPlot, gameLengthPlot},
		{ResignFPPlot, resignFPPlot},
		{StrengthPlot, strengthPlot},
	}
	for _, p := range plots {
		png, err := renderPNG(p.make(d, opt, tx), opt)
		if err != nil {
			return nil, fmt.Errorf("report: %s: %w", p.name, err)
		}
		if err := s.write(p.name, png); err != nil {
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
	if err := encode.WriteAtomic(path, data); err != nil {
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
	latest := map[string]EvalEntry{}
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

// timeAxis maps times to the x coordinate: units since the run's start.
type timeAxis struct {
	start time.Time
	span  float64 // the run's length in units
	unit  time.Duration
	label string
}

// newTimeAxis returns the axis of the run from start to end in unit.
func newTimeAxis(start, end time.Time, unit time.Duration) timeAxis {
	names := map[time.Duration]string{
		time.Second: "seconds", time.Minute: "minutes", time.Hour: "hours", 24 * time.Hour: "days", 7 * 24 * time.Hour: "weeks",
	}
	label, ok := names[unit]
	if !ok {
		label = "units of " + unit.String()
	}
	return timeAxis{start: start, span: float64(end.Sub(start)) / float64(unit), unit: unit, label: label + " since run start"}
}

// x returns t's coordinate.
func (a timeAxis) x(t time.Time) float64 { return float64(t.Sub(a.start)) / float64(a.unit) }

// since returns the coordinate of a duration since the run's start.
func (a timeAxis) since(d time.Duration) float64 { return float64(d) / float64(a.unit) }

// newPlot returns a plot with a title, axis labels and a grid.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Title.Padding = vg.Points(6)
	p.Y.Tick.Marker = plainTicks{}
	p.Add(plotter.NewGrid())
	return p
}

// plainTicks are plot.DefaultTicks labelled without trailing zeros
// ("250", not "250.00").
type plainTicks struct{}

// Ticks implements plot.Ticker.
func (plainTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'f', -1, 64)
		}
	}
	return ts
}

// logTicks mark a log axis at 1, 2 and 5 times the powers of ten (labelled)
// and at the other integer multiples (unlabelled).
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	if !(min > 0 && max < math.Inf(1) && min <= max) {
		return nil // not a log range; lossPlot never makes one
	}
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		base := math.Pow(10, e)
		for m := 1; m <= 9; m++ {
			v := float64(m) * base
			if v < min || v > max {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'g', 4, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// headroom raises the top of the y axis by frac of its range (of its
// decades on a log scale), to leave the legend room above the data.
func headroom(p *plot.Plot, frac float64) {
	if _, ok := p.Y.Scale.(plot.LogScale); ok {
		p.Y.Max *= math.Pow(p.Y.Max/p.Y.Min, frac)
		return
	}
	p.Y.Max += frac * (p.Y.Max - p.Y.Min)
}

// finish starts the time axis at 0 and stretches it to the whole run, so
// that the plots line up.
func finish(p *plot.Plot, tx timeAxis) *plot.Plot {
	p.X.Min = math.Min(p.X.Min, 0)
	p.X.Max = math.Max(p.X.Max, tx.span)
	return p
}

// noData turns p into an empty frame with a centred note.
func noData(p *plot.Plot, note string) *plot.Plot {
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	p.X.Tick.Marker = plot.ConstantTicks(nil)
	p.Y.Tick.Marker = plot.ConstantTicks(nil)
	p.Y.Scale = plot.LinearScale{}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: 0.5, Y: 0.5}}, Labels: []string{note}})
	if err != nil {
		panic(err) // one finite point cannot fail
	}
	l.TextStyle[0].XAlign = text.XCenter
	l.TextStyle[0].YAlign = text.YCenter
	l.TextStyle[0].Font.Size = vg.Points(16)
	l.TextStyle[0].Color = color.Gray{Y: 96}
	p.Add(l)
	return p
}

// seriesColor returns the i-th series colour.
func seriesColor(i int) color.Color { return plotutil.DarkColors[i%len(plotutil.DarkColors)] }

// faint returns c made translucent.
func faint(c color.Color, alpha uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: alpha}
}

// must panics on a plotter error, which for the finite points built
// here is a broken invariant.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// lossPlot: each loss head over time, log scale; faint raw reports and a
// centred moving average.
func lossPlot(d *runData, opt Options, tx timeAxis) *plot.Plot {
	p := newPlot("Training loss", tx.label, "loss (log scale)")
	heads := []struct {
		name string
		get  func(TrainEntry) float64
	}{
		{"total", func(e TrainEntry) float64 { return e.Loss }},
		{"policy", func(e TrainEntry) float64 { return e.PolicyLoss }},
		{"value", func(e TrainEntry) float64 { return e.ValueLoss }},
		{"L2", func(e TrainEntry) float64 { return e.L2Loss }},
		{"held-out policy", func(e TrainEntry) float64 { return e.HeldOutPolicy }},
		{"held-out value", func(e TrainEntry) float64 { return e.HeldOutValue }},
		{"reply", func(e TrainEntry) float64 { return e.ReplyLoss }},
		{"ownership", func(e TrainEntry) float64 { return e.OwnershipLoss }},
		{"short value", func(e TrainEntry) float64 { return e.ShortValueLoss }},
		{"material", func(e TrainEntry) float64 { return e.MaterialLoss }},
	}
	k := smoothWindow(len(d.train), opt.Smooth)
	drawn := false
	for i, h := range heads {
		var xs, ys []float64
		for _, e := range d.train {
			// a log scale has no place for zero (a head not logged is left
			// out), and a moving average no place for overflow
			if y := h.get(e); !e.Time.IsZero() && y > 0 && y < 1e100 {
				xs = append(xs, tx.x(e.Time))
				ys = append(ys, y)
			}
		}
		if len(xs) == 0 {
			continue
		}
		drawn = true
		c := seriesColor(i)
		raw := make(plotter.XYs, len(xs))
		avg := make(plotter.XYs, len(xs))
		for j, m := range movingAverage(ys, k) {
			raw[j] = plotter.XY{X: xs[j], Y: ys[j]}
			avg[j] = plotter.XY{X: xs[j], Y: m}
		}
		sc := must(plotter.NewScatter(raw))
		sc.GlyphStyle.Color = faint(c, 60)
		sc.GlyphStyle.Radius = vg.Points(1.5)
		sc.GlyphStyle.Shape = draw.CircleGlyph{}
		ln := must(plotter.NewLine(avg))
		ln.Color = c
		ln.Width = vg.Points(2)
		p.Add(sc, ln)
		p.Legend.Add(h.name, ln)
	}
	if !drawn {
		return noData(p, "no data yet: no training steps logged")
	}
	first, last := d.train[0].Step, d.train[len(d.train)-1].Step
	p.Title.Text = fmt.Sprintf("Training loss per head, steps %d–%d (dots: reports; lines: moving average of %d)", first, last, k)
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = logTicks{}
	if p.Y.Max < 1.5*p.Y.Min { // a flat loss: show it in a range of its own
		p.Y.Min, p.Y.Max = p.Y.Min/1.5, p.Y.Max*1.5
	}
	p.Legend.Top = true
	headroom(p, 0.15)
	return finish(p, tx)
}

// errPoints are points with vertical error bars (95% intervals), for
// plotter.NewYErrorBars: Elo estimates, false-positive rates.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// eloPlot: the Elo of each evaluated checkpoint against each opponent.
// Estimates and bounds beyond the finite data (a 100% score has an
// infinite Elo) are clipped to the frame: such a bar runs off the edge
// without a cap.
func eloPlot(d *runData, opt Options, tx timeAxis) *plot.Plot {
	p := newPlot("Elo against the anchors", tx.label, "Elo difference (95% interval)")
	byOpp := map[string][]EvalEntry{}
	var opps []string
	for _, e := range d.eval {
		if e.Time.IsZero() {
			continue
		}
		if _, ok := byOpp[e.Opponent]; !ok {
			opps = append(opps, e.Opponent)
		}
		byOpp[e.Opponent] = append(byOpp[e.Opponent], e)
	}
	if len(opps) == 0 {
		return noData(p, "no data yet: no evaluation matches logged")
	}
	sort.Strings(opps)
	// the frame: the finite estimates (and 0), padded
	const sane = 2000 // an |Elo| beyond this is as good as infinite
	lo, hi := 0.0, 0.0
	for _, e := range d.eval {
		if finite(e.Elo) && math.Abs(e.Elo) <= sane {
			lo, hi = math.Min(lo, e.Elo), math.Max(hi, e.Elo)
		}
	}
	pad := math.Max(100, 0.25*(hi-lo))
	lo, hi = lo-pad, hi+pad
	clip := func(x, a, b float64) float64 {
		if math.IsNaN(x) {
			return 0
		}
		return math.Max(a, math.Min(b, x))
	}
	// opponents evaluated at the same time would hide each other's bars
	shift := 0.004 * tx.span
	var clipped plotter.XYLabels // estimates outside the frame, labelled with their value
	for i, o := range opps {
		es := byOpp[o]
		pts := errPoints{XYs: make(plotter.XYs, len(es)), YErrors: make(plotter.YErrors, len(es))}
		for j, e := range es {
			y := clip(e.Elo, lo, hi)
			if y != e.Elo && !math.IsNaN(e.Elo) {
				clipped.XYs = append(clipped.XYs, plotter.XY{X: tx.x(e.Time) + float64(i)*shift, Y: y})
				clipped.Labels = append(clipped.Labels, formatElo(e.Elo))
			}
			l := clip(e.EloLow, lo-(hi-lo), y)
			h := clip(e.EloHigh, y, hi+(hi-lo))
			pts.XYs[j] = plotter.XY{X: tx.x(e.Time) + float64(i)*shift, Y: y}
			pts.YErrors[j].Low, pts.YErrors[j].High = y-l, h-y
		}
		c := seriesColor(i)
		ln, sc := must2(plotter.NewLinePoints(pts.XYs))
		ln.Color = c
		ln.Width = vg.Points(1.5)
		sc.GlyphStyle.Color = c
		sc.GlyphStyle.Shape = draw.CircleGlyph{}
		sc.GlyphStyle.Radius = vg.Points(2.5)
		eb := must(plotter.NewYErrorBars(pts))
		eb.Color = faint(c, 160)
		eb.CapWidth = vg.Points(5)
		p.Add(eb, ln, sc)
		p.Legend.Add(fmt.Sprintf("vs %s", o), ln, sc)
	}
	if len(clipped.XYs) > 0 {
		l := must(plotter.NewLabels(clipped))
		for i := range l.TextStyle {
			l.TextStyle[i].XAlign = text.XRight
			l.TextStyle[i].YAlign = text.YCenter
			l.TextStyle[i].Font.Size = vg.Points(9)
		}
		l.Offset = vg.Point{X: -vg.Points(5)}
		p.Add(l)
	}
	zero := plotter.NewFunction(func(float64) float64 { return 0 })
	zero.Color = color.Gray{Y: 100}
	zero.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(zero)
	p.Title.Text = fmt.Sprintf("Elo of the evaluated checkpoints against each anchor (%d matches)", len(d.eval))
	p = finish(p, tx)
	p.Y.Min, p.Y.Max = lo, hi
	p.Legend.Top, p.Legend.Left = true, true
	headroom(p, 0.04*float64(len(opps)))
	return p
}

// must2 is must for two results.
func must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}

// gameBins bins the dated games: at most opt.Bins/div bins, and fewer
// when there are few games, so that a bin holds about perBin of the n
// games that count, or more.
func gameBins(d *runData, opt Options, div, n, perBin int) ([]bin, time.Duration) {
	target := min(max(1, opt.Bins/div), max(4, n/perBin))
	w := binWidth(d.end.Sub(d.start), target)
	return binGames(d.games, d.start, d.end, w), w
}

// binMid returns the x coordinate of the middle of the part of b inside
// the run.
func binMid(b bin, tx timeAxis) float64 { return tx.since(b.start + b.covered/2) }

// gamesPerHourPlot: games finished per hour, per bin. The last bin,
// usually cut short by the run's end, is scaled by the part it covers,
// and left out if that is under a quarter of a bin.
func gamesPerHourPlot(d *runData, opt Options, tx timeAxis) *plot.Plot {
	p := newPlot("Self-play games finished per hour", tx.label, "games per hour")
	if len(d.games) == 0 {
		return noData(p, "no data yet: no finished self-play games")
	}
	bins, w := gameBins(d, opt, 1, len(d.games), 8)
	var pts plotter.XYs
	for _, b := range bins {
		if b.covered < w/4 && len(bins) > 1 {
			continue
		}
		cov := max(b.covered, time.Second)
		pts = append(pts, plotter.XY{X: binMid(b, tx), Y: float64(len(b.games)) / cov.Hours()})
	}
	ln, sc := must2(plotter.NewLinePoints(pts))
	ln.Color = seriesColor(0)
	ln.Width = vg.Points(1.5)
	sc.GlyphStyle.Color = seriesColor(0)
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	p.Add(ln, sc)
	p.Title.Text = fmt.Sprintf("Self-play games finished per hour (%d games, bins of %s)", len(d.games), formatWidth(w))
	p.Y.Min = 0
	return finish(p, tx)
}

// gameLengthPlot: mean game length per bin with the 10th–90th percentile
// band.
func gameLengthPlot(d *runData, opt Options, tx timeAxis) *plot.Plot {
	p := newPlot("Game length", tx.label, "plies per game")
	if len(d.games) == 0 {
		return noData(p, "no data yet: no finished self-play games")
	}
	bins, w := gameBins(d, opt, 1, len(d.games), 8)
	var mean, low, high plotter.XYs
	for _, b := range bins {
		if len(b.games) == 0 {
			continue
		}
		m, p10, p90 := lengthStats(b.games)
		x := binMid(b, tx)
		mean = append(mean, plotter.XY{X: x, Y: m})
		low = append(low, plotter.XY{X: x, Y: p10})
		high = append(high, plotter.XY{X: x, Y: p90})
	}
	band := make(plotter.XYs, 0, 2*len(low))
	band = append(band, low...)
	for i := len(high) - 1; i >= 0; i-- {
		band = append(band, high[i])
	}
	c := seriesColor(0)
	poly := must(plotter.NewPolygon(band))
	poly.Color = faint(c, 50)
	poly.LineStyle.Width = 0
	ln, sc := must2(plotter.NewLinePoints(mean))
	ln.Color = c
	ln.Width = vg.Points(1.5)
	sc.GlyphStyle.Color = c
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	p.Add(poly, ln, sc)
	p.Legend.Add("mean", ln, sc)
	p.Legend.Add("10th–90th percentile", poly)
	p.Legend.Top = true
	p.Y.Min = 0
	headroom(p, 0.12)
	p.Title.Text = fmt.Sprintf("Game length in plies (%d games, bins of %s)", len(d.games), formatWidth(w))
	return finish(p, tx)
}

// resignFPPlot: among games in which resigning was forbidden and a side
// would have resigned, the share in which that side did not lose, per
// bin (at most half as many bins as the other game plots, and about 5
// such games a bin or more: these games are few),
// with 95% Wilson intervals and, when there are few bins, the count n.
func resignFPPlot(d *runData, opt Options, tx timeAxis) *plot.Plot {
	p := newPlot("Resignation false positives", tx.label, "false positives (% of checked games, 95% interval)")
	if d.sum.ResignChecked == 0 || len(d.games) == 0 {
		return noData(p, "no data yet: no game without resignation in which a side would have resigned")
	}
	bins, w := gameBins(d, opt, 2, d.sum.ResignChecked, 5)
	var pts errPoints
	var counts []string
	for _, b := range bins {
		n, k := 0, 0
		for _, g := range b.games {
			if g.checked {
				n++
				if g.falsePo {
					k++
				}
			}
		}
		if n == 0 {
			continue
		}
		r := 100 * float64(k) / float64(n)
		l, h := wilson(k, n)
		pts.XYs = append(pts.XYs, plotter.XY{X: binMid(b, tx), Y: r})
		pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{r - 100*l, 100*h - r})
		counts = append(counts, fmt.Sprintf("n=%d", n))
	}
	c := seriesColor(0)
	eb := must(plotter.NewYErrorBars(pts))
	eb.Color = faint(c, 160)
	eb.CapWidth = vg.Points(5)
	sc := must(plotter.NewScatter(pts.XYs))
	sc.GlyphStyle.Color = c
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	sc.GlyphStyle.Radius = vg.Points(2.5)
	p.Add(eb, sc)
	if len(counts) <= 24 {
		top := make(plotter.XYs, len(pts.XYs))
		for i, xy := range pts.XYs {
			top[i] = plotter.XY{X: xy.X, Y: xy.Y + pts.YErrors[i].High}
		}
		l := must(plotter.NewLabels(plotter.XYLabels{XYs: top, Labels: counts}))
		for i := range l.TextStyle {
			l.TextStyle[i].XAlign = text.XCenter
			l.TextStyle[i].Font.Size = vg.Points(8)
			l.TextStyle[i].Color = color.Gray{Y: 80}
		}
		l.Offset = vg.Point{Y: vg.Points(3)}
		p.Add(l)
	}
	s := &d.sum
	p.Title.Text = fmt.Sprintf("Resignation false positives: %d of %d checked games (%.1f%%), bins of %s",
		s.FalsePositives, s.ResignChecked, 100*float64(s.FalsePositives)/float64(s.ResignChecked), formatWidth(w))
	p.Y.Min = 0
	return finish(p, tx)
}

// formatWidth writes a bin width as "10 s", "15 min", "2 h", "7 d".
func formatWidth(w time.Duration) string {
	switch {
	case w%(24*time.Hour) == 0:
		return fmt.Sprintf("%d d", w/(24*time.Hour))
	case w%time.Hour == 0:
		return fmt.Sprintf("%d h", w/time.Hour)
	case w%time.Minute == 0:
		return fmt.Sprintf("%d min", w/time.Minute)
	}
	return fmt.Sprintf("%g s", w.Seconds())
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
