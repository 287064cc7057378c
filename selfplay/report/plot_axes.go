package report

import (
	"image/color"
	"math"
	"strconv"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

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

// must2 is must for two results.
func must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}
