package report

import (
	"chuzero/checkpoints"
	"chuzero/selfplay/arena"
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

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
	opps, byOpp := evalsByOpponent(d.eval)
	if len(opps) == 0 {
		return noData(p, "no data yet: no evaluation matches logged")
	}
	lo, hi := eloFrame(d.eval)
	// opponents evaluated at the same time would hide each other's bars
	shift := 0.004 * tx.span
	var clipped plotter.XYLabels // estimates outside the frame, labelled with their value
	for i, o := range opps {
		pts := eloPoints(byOpp[o], tx, float64(i)*shift, lo, hi, &clipped)
		addEloSeries(p, pts, seriesColor(i), fmt.Sprintf("vs %s", o))
	}
	if len(clipped.XYs) > 0 {
		addClippedLabels(p, clipped)
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

// evalsByOpponent groups the dated evaluations by opponent, each group
// in log order, and returns the opponents sorted by name.
func evalsByOpponent(evals []checkpoints.EvalEntry) ([]string, map[string][]checkpoints.EvalEntry) {
	byOpp := map[string][]checkpoints.EvalEntry{}
	var opps []string
	for _, e := range evals {
		if e.Time.IsZero() {
			continue
		}
		if _, ok := byOpp[e.Opponent]; !ok {
			opps = append(opps, e.Opponent)
		}
		byOpp[e.Opponent] = append(byOpp[e.Opponent], e)
	}
	sort.Strings(opps)
	return opps, byOpp
}

// eloFrame returns the y range of the Elo plot: the finite estimates
// (and 0), padded.
func eloFrame(evals []checkpoints.EvalEntry) (lo, hi float64) {
	const sane = 2000 // an |Elo| beyond this is as good as infinite
	for _, e := range evals {
		if finite(e.Elo) && math.Abs(e.Elo) <= sane {
			lo, hi = math.Min(lo, e.Elo), math.Max(hi, e.Elo)
		}
	}
	pad := math.Max(100, 0.25*(hi-lo))
	return lo - pad, hi + pad
}

// clamp returns x limited to [a, b], and 0 for NaN.
func clamp(x, a, b float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return math.Max(a, math.Min(b, x))
}

// eloPoints returns the points of one opponent's evaluations, shifted
// right by shift, with the estimates clamped to the frame [lo, hi] and
// the bounds to a frame's height beyond it. The estimates that had to be
// clamped are added to clipped, labelled with their value.
func eloPoints(es []checkpoints.EvalEntry, tx timeAxis, shift, lo, hi float64, clipped *plotter.XYLabels) errPoints {
	pts := errPoints{XYs: make(plotter.XYs, len(es)), YErrors: make(plotter.YErrors, len(es))}
	for j, e := range es {
		y := clamp(e.Elo, lo, hi)
		if y != e.Elo && !math.IsNaN(e.Elo) {
			clipped.XYs = append(clipped.XYs, plotter.XY{X: tx.x(e.Time) + shift, Y: y})
			clipped.Labels = append(clipped.Labels, arena.FormatElo(e.Elo))
		}
		l := clamp(e.EloLow, lo-(hi-lo), y)
		h := clamp(e.EloHigh, y, hi+(hi-lo))
		pts.XYs[j] = plotter.XY{X: tx.x(e.Time) + shift, Y: y}
		pts.YErrors[j].Low, pts.YErrors[j].High = y-l, h-y
	}
	return pts
}

// addEloSeries draws one opponent's points in colour c: a line through
// the estimates, dots, faint error bars, and a legend entry.
func addEloSeries(p *plot.Plot, pts errPoints, c color.Color, legend string) {
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
	p.Legend.Add(legend, ln, sc)
}

// addClippedLabels writes the value of each clipped estimate to the left
// of its dot.
func addClippedLabels(p *plot.Plot, clipped plotter.XYLabels) {
	l := must(plotter.NewLabels(clipped))
	for i := range l.TextStyle {
		l.TextStyle[i].XAlign = text.XRight
		l.TextStyle[i].YAlign = text.YCenter
		l.TextStyle[i].Font.Size = vg.Points(9)
	}
	l.Offset = vg.Point{X: -vg.Points(5)}
	p.Add(l)
}
