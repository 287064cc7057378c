package report

import (
	"fmt"
	"image/color"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

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
