package probe

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// Targets describes the search targets of the probed positions: how many
// had a full search (a policy target), the targets' mean entropy (nats)
// and the mean probability of their first move.
type Targets struct {
	N                int
	Entropy, TopMass float64
}

// TargetsOf measures the search targets of ps.
func TargetsOf(ps []Position) Targets {
	var t Targets
	for i := range ps {
		s := ps[i].Sample
		if !s.FullSearch || len(s.Policy) == 0 {
			continue
		}
		t.N++
		top := 0.0
		for _, e := range s.Policy {
			if p := float64(e.Prob); p > 0 {
				t.Entropy -= p * math.Log(p)
				top = max(top, p)
			}
		}
		t.TopMass += top
	}
	t.Entropy, t.TopMass = ratio(t.Entropy, float64(t.N)), ratio(t.TopMass, float64(t.N))
	return t
}

// Report is a whole probe: the games, the positions' targets and one
// result per network.
type Report struct {
	Games     Games
	Every     int
	Positions int
	Targets   Targets
	Results   []Result
	// TrainedOn: the run held no game out, so the positions are from
	// games the networks trained on.
	TrainedOn bool
}

// Write prints the report as one table, a column per network.
func (r *Report) Write(w io.Writer) error {
	g := r.Games
	kind := "held-out"
	if r.TrainedOn {
		kind = "training (no game held out)"
	}
	fmt.Fprintf(w, "learning probe: %d %s positions (every %d plies) from %d sample files (%d damaged or skipped)\n",
		r.Positions, kind, r.Every, g.Files, g.BadFiles)
	fmt.Fprintf(w, "self-play: %d games, %.1f%% decisive, %.1f%% stopped at the ply cap, %.0f plies a game, %d samples\n",
		g.Games, 100*g.DecisiveShare(), 100*g.CappedShare(), g.MeanPlies(), g.Samples)
	fmt.Fprintf(w, "search targets: %d of the positions full-searched; target entropy %.2f nats, first move %.2f\n",
		r.Targets.N, r.Targets.Entropy, r.Targets.TopMass)
	if len(r.Results) > 0 {
		fmt.Fprintf(w, "calibration bins: the %d positions of decisive games; the capture value's own correlation with the result %.2f\n",
			r.Results[0].Decisive, r.Results[0].CorrCaptureResult)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	row := func(label string, cell func(x *Result) string) {
		cells := []string{label}
		for i := range r.Results {
			cells = append(cells, cell(&r.Results[i]))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	row("network", func(x *Result) string { return x.Name })
	row("policy entropy / max (nats)", func(x *Result) string { return fmt.Sprintf("%.2f/%.2f", x.Entropy, x.MaxEntropy) })
	row("effective moves", func(x *Result) string { return fmt.Sprintf("%.1f", x.Effective) })
	row("first move's probability", func(x *Result) string { return fmt.Sprintf("%.3f", x.TopMass) })
	row("first move = search target's", func(x *Result) string { return pct(x.SearchAgree) })
	row("first move = capture-best", func(x *Result) string { return pct(x.CaptureAgree) })
	row("capture-best: rank, mass", func(x *Result) string { return fmt.Sprintf("%.1f, %.3f", x.CaptureRank, x.CaptureMass) })
	row("first move drops material", func(x *Result) string { return pct(x.Blunders) })
	row("value corr. capture value", func(x *Result) string { return fmt.Sprintf("%.2f", x.CorrCapture) })
	row("value corr. its target", func(x *Result) string { return fmt.Sprintf("%.2f", x.CorrTarget) })
	row("value corr. result", func(x *Result) string { return fmt.Sprintf("%.2f", x.CorrResult) })
	row("played value corr. result", func(x *Result) string { return fmt.Sprintf("%.2f", x.CorrPlayed) })
	row("value: whole or residual (weight)", func(x *Result) string {
		if x.Residual > 0 {
			return fmt.Sprintf("residual (%g)", x.Residual)
		}
		return "whole"
	})
	row("value MSE against result", func(x *Result) string { return fmt.Sprintf("%.3f", x.MSE) })
	if len(r.Results) > 0 {
		for i, b := range r.Results[0].Bins {
			label := fmt.Sprintf("decisive, value in [%+.1f,%+.1f): result (n)", b.Lo, b.Hi)
			row(label, func(x *Result) string {
				c := x.Bins[i]
				if c.N == 0 {
					return "-"
				}
				return fmt.Sprintf("%+.2f (%d)", c.Result, c.N)
			})
		}
	}
	row("ms a position", func(x *Result) string { return fmt.Sprintf("%.2f", x.PerPosition.Seconds()*1000) })
	return tw.Flush()
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
