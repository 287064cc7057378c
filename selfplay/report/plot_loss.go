package report

import (
	"chuzero/checkpoints"
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// lossPlot: each loss head over time, log scale; faint raw reports and a
// centred moving average.
func lossPlot(d *runData, opt Options, tx timeAxis) *plot.Plot {
	p := newPlot("Training loss", tx.label, "loss (log scale)")
	heads := []struct {
		name string
		get  func(checkpoints.TrainEntry) float64
	}{
		{"total", func(e checkpoints.TrainEntry) float64 { return e.Loss }},
		{"policy", func(e checkpoints.TrainEntry) float64 { return e.PolicyLoss }},
		{"value", func(e checkpoints.TrainEntry) float64 { return e.ValueLoss }},
		{"L2", func(e checkpoints.TrainEntry) float64 { return e.L2Loss }},
		{"held-out policy", func(e checkpoints.TrainEntry) float64 { return e.HeldOutPolicy }},
		{"held-out value", func(e checkpoints.TrainEntry) float64 { return e.HeldOutValue }},
		{"reply", func(e checkpoints.TrainEntry) float64 { return e.ReplyLoss }},
		{"ownership", func(e checkpoints.TrainEntry) float64 { return e.OwnershipLoss }},
		{"short value", func(e checkpoints.TrainEntry) float64 { return e.ShortValueLoss }},
		{"material", func(e checkpoints.TrainEntry) float64 { return e.MaterialLoss }},
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
