package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"chuzero/checkpoints"
	"chuzero/checkpoints/atomicfile"
)

// The strength benchmark (scripts/strength.sh) leaves its gauntlet in the
// run's strength/ (a match directory: checkpoints.MatchRecords, MatchPGN
// and MatchResults); the report shows its pairs as a table and
// StrengthPlot, the benchmark's Elo against each anchor with 95% intervals.
const StrengthPlot = "strength.png"

// maxLearning bounds the learning table the page shows (a table is a few
// KB; anything past this is not one).
const maxLearning = 64 << 10

// readLearning loads the learning probe's table when there is one (see
// ReadLearning); a file it cannot show is a warning.
func (d *runData) readLearning(run checkpoints.Run) {
	table, err := ReadLearning(run)
	if err != nil {
		d.warn(err.Error())
	}
	d.learning = table
}

// ReadLearning reads the learning probe's table (scripts/learning.sh
// writes RUN/learning.txt). A run without one has "" and no error; an
// unreadable or oversized file is an error.
func ReadLearning(run checkpoints.Run) (string, error) {
	f, err := atomicfile.OpenRegular(run.Learning())
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxLearning+1))
	switch {
	case err != nil:
		return "", fmt.Errorf("report: %s: %w", run.Learning(), err)
	case len(b) > maxLearning:
		return "", fmt.Errorf("report: %s: over %d bytes, not shown", run.Learning(), maxLearning)
	}
	return string(b), nil
}

// strengthResults is the part of the arena's results.json the report
// reads: the pairs of the gauntlet.
type strengthResults struct {
	Pairs []struct {
		Player   string  `json:"player"`
		Opponent string  `json:"opponent"`
		Wins     int     `json:"wins"`
		Draws    int     `json:"draws"`
		Losses   int     `json:"losses"`
		Elo      float64 `json:"elo"`
		EloLow   float64 `json:"elo_low"`
		EloHigh  float64 `json:"elo_high"`
	} `json:"pairs"`
}

// readStrength loads the gauntlet's results when there are some (see
// ReadStrength); a damaged file is a warning.
func (d *runData) readStrength(run checkpoints.Run) error {
	entries, err := ReadStrength(run)
	var bad *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &bad) || errors.As(err, &typ) {
		d.warn(err.Error())
		return nil
	}
	d.strength = entries
	return err
}

// ReadStrength reads the strength benchmark's results (strength/results.json),
// one checkpoints.EvalEntry per anchor (Checkpoint is the benchmarked player). A run
// without one has no entries and no error.
func ReadStrength(run checkpoints.Run) ([]checkpoints.EvalEntry, error) {
	path := filepath.Join(run.Strength(), checkpoints.MatchResults)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	var r strengthResults
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("report: %s: %w", path, err)
	}
	var out []checkpoints.EvalEntry
	for _, p := range r.Pairs {
		out = append(out, checkpoints.EvalEntry{Checkpoint: p.Player, Opponent: p.Opponent,
			Games: p.Wins + p.Draws + p.Losses, Wins: p.Wins, Draws: p.Draws, Losses: p.Losses,
			Elo: p.Elo, EloLow: p.EloLow, EloHigh: p.EloHigh})
	}
	return out, nil
}

// strengthPlot: the benchmarked checkpoint's Elo against each anchor of
// the gauntlet, with 95% intervals, clipped to ±1000.
func strengthPlot(d *runData, _ Options, _ timeAxis) *plot.Plot {
	p := newPlot("Strength benchmark", "anchor", "Elo of the benchmarked checkpoint (95% interval)")
	if len(d.strength) == 0 {
		return noData(p, "no strength benchmark in this run (scripts/strength.sh)")
	}
	const lim = 1000
	clip := func(x float64) float64 {
		if math.IsNaN(x) {
			return 0
		}
		return math.Max(-lim, math.Min(lim, x))
	}
	pts := errPoints{XYs: make(plotter.XYs, len(d.strength)), YErrors: make(plotter.YErrors, len(d.strength))}
	var names []string
	for i, e := range d.strength {
		y := clip(e.Elo)
		pts.XYs[i] = plotter.XY{X: float64(i), Y: y}
		pts.YErrors[i].Low, pts.YErrors[i].High = y-clip(e.EloLow), clip(e.EloHigh)-y
		score := 100 * (float64(e.Wins) + float64(e.Draws)/2) / math.Max(1, float64(e.Games))
		names = append(names, fmt.Sprintf("%s\n%.0f%% of %d", e.Opponent, score, e.Games))
	}
	sc := must(plotter.NewScatter(pts.XYs))
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	sc.GlyphStyle.Radius = vg.Points(4)
	sc.GlyphStyle.Color = seriesColor(0)
	eb := must(plotter.NewYErrorBars(pts))
	eb.Color = seriesColor(0)
	eb.CapWidth = vg.Points(8)
	zero := plotter.NewFunction(func(float64) float64 { return 0 })
	zero.Color = color.Gray{Y: 100}
	zero.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(eb, sc, zero)
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5
	p.Y.Min, p.Y.Max = -lim, lim
	p.Title.Text = fmt.Sprintf("Strength benchmark: %s against fixed anchors", d.strength[0].Checkpoint)
	return p
}
