package report

import (
	"bytes"
	"chuzero/checkpoints"
	"chuzero/selfplay/arena"
	"fmt"
	"html/template"
	"time"
)

// pageTemplate is index.html: self-contained (inline style, images by
// relative name next to it).
var pageTemplate = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: sans-serif; margin: 1.5em auto; max-width: {{.Width}}px; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f2f2f2; }
img { max-width: 100%; height: auto; border: 1px solid #ddd; }
.note { color: #666; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="note">Variant {{.Variant}}. Generated {{.Generated}}; times are {{.TimeLabel}}.</p>

<h2>Summary</h2>
<table>
{{range .Rows}}<tr><th>{{.Label}}</th><td>{{.Value}}</td></tr>
{{end}}</table>

<h2>Latest Elo per anchor</h2>
{{if .Elo}}<table>
<tr><th>opponent</th><th>step</th><th>checkpoint</th><th>time</th><th>games</th><th>W</th><th>D</th><th>L</th><th>Elo</th><th>95% interval</th></tr>
{{range .Elo}}<tr><td>{{.Opponent}}</td><td class="n">{{.Step}}</td><td>{{.Checkpoint}}</td><td>{{.Time}}</td><td class="n">{{.Games}}</td><td class="n">{{.Wins}}</td><td class="n">{{.Draws}}</td><td class="n">{{.Losses}}</td><td class="n">{{.Elo}}</td><td class="n">{{.Interval}}</td></tr>
{{end}}</table>
{{else}}<p class="note">No evaluation matches logged yet.</p>
{{end}}
{{if .Strength}}<h2>Strength benchmark</h2>
<table>
<tr><th>player</th><th>anchor</th><th>games</th><th>W</th><th>D</th><th>L</th><th>Elo</th><th>95% interval</th></tr>
{{range .Strength}}<tr><td>{{.Checkpoint}}</td><td>{{.Opponent}}</td><td class="n">{{.Games}}</td><td class="n">{{.Wins}}</td><td class="n">{{.Draws}}</td><td class="n">{{.Losses}}</td><td class="n">{{.Elo}}</td><td class="n">{{.Interval}}</td></tr>
{{end}}</table>
{{end}}
{{if .Learning}}<h2>Learning probe</h2>
<p class="note">scripts/learning.sh: what the run's networks learned (RUN/learning.txt).</p>
<pre>{{.Learning}}</pre>
{{end}}
{{range .Plots}}<h2>{{.Heading}}</h2>
<p><img src="{{.File}}" alt="{{.Heading}}" width="{{$.Width}}" height="{{$.Height}}"></p>
{{end}}
<h2>Last gating decisions</h2>
{{if .Gating}}<p class="note">The last {{len .Gating}} of {{.Gatings}}, newest first.</p>
<table>
<tr><th>time</th><th>candidate</th><th>best</th><th>games</th><th>W</th><th>D</th><th>L</th><th>LLR</th><th>decision</th><th>promoted</th></tr>
{{range .Gating}}<tr><td>{{.Time}}</td><td>{{.Candidate}}</td><td>{{.Best}}</td><td class="n">{{.Games}}</td><td class="n">{{.Wins}}</td><td class="n">{{.Draws}}</td><td class="n">{{.Losses}}</td><td class="n">{{.LLR}}</td><td>{{.Decision}}</td><td>{{if .Promoted}}yes{{else}}no{{end}}</td></tr>
{{end}}</table>
{{else}}<p class="note">No gating decisions logged yet.</p>
{{end}}
{{if .Warnings}}<h2>Warnings</h2>
<p class="note">{{.WarningCount}} damaged input lines or files were skipped{{if gt .WarningCount (len .Warnings)}}; the first {{len .Warnings}}{{end}}:</p>
<ul>
{{range .Warnings}}<li><code>{{.}}</code></li>
{{end}}</ul>
{{end}}</body>
</html>
`))

type pageRow struct{ Label, Value string }

type pagePlot struct{ File, Heading string }

type pageElo struct {
	checkpoints.EvalEntry
	Time, Elo, Interval string
}

type pageGating struct {
	checkpoints.GatingEntry
	Time, LLR string
}

type pageData struct {
	Title, Variant, Generated, TimeLabel string
	Width, Height                        int
	Rows                                 []pageRow
	Elo                                  []pageElo
	Strength                             []pageElo
	Learning                             string
	Plots                                []pagePlot
	Gating                               []pageGating
	Gatings                              int
	Warnings                             []string
	WarningCount                         int
}

// renderHTML builds index.html from the summary.
func renderHTML(d *runData, s *Summary, opt Options) ([]byte, error) {
	stamp := func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.UTC().Format("2006-01-02 15:04:05Z")
	}
	variant := s.Variant
	if variant == "" {
		variant = "unknown"
	}
	pd := pageData{
		Title:        "chuzero report: " + s.RunDir + " (" + variant + ")",
		Variant:      variant,
		Generated:    stamp(time.Now()),
		TimeLabel:    "UTC; plot time axes in " + newTimeAxis(s.Start, s.End, opt.TimeUnit).label,
		Width:        opt.Width,
		Height:       opt.Height,
		Gatings:      s.Gatings,
		Warnings:     s.Warnings,
		WarningCount: s.WarningCount,
	}
	row := func(label, format string, args ...any) {
		pd.Rows = append(pd.Rows, pageRow{label, fmt.Sprintf(format, args...)})
	}
	row("Run directory", "%s", s.RunDir)
	row("Time", "%s to %s (%.2f hours)", stamp(s.Start), stamp(s.End), s.Hours)
	row("Self-play games", "%d in %d files", s.Games, s.GameFiles)
	row("Plies (positions)", "%d (%.1f per game)", s.Plies, s.MeanPlies())
	row("Results", "Sente %d, Gote %d, draws %d; %d by resignation", s.SenteWins, s.GoteWins, s.Draws, s.Resignations)
	threshold := "unknown"
	if s.ResignThreshold != nil {
		threshold = fmt.Sprintf("%g (config.json)", *s.ResignThreshold)
	}
	row("Resignation check", "%d games without resignation; a side would have resigned in %d; false positives %d (%.1f%%); threshold %s",
		s.NoResignGames, s.ResignChecked, s.FalsePositives, 100*s.FalsePositiveRate(), threshold)
	if t := s.LastTrain; t != nil {
		row("Training", "%d reports; last step %d at %s; samples %d generated, %d trained on; window %d",
			s.TrainEntries, t.Step, stamp(t.Time), t.Samples, t.SamplesSeen, t.Window)
		row("Last losses", "total %.4g: policy %.4g, value %.4g, L2 %.4g; learning rate %.3g",
			t.Loss, t.PolicyLoss, t.ValueLoss, t.L2Loss, t.LR)
	} else {
		row("Training", "no steps logged")
	}
	row("Evaluation matches", "%d", s.Evals)
	row("Gating decisions", "%d, %d promoted", s.Gatings, s.Promotions)
	if s.Truncated+s.SkippedLines > 0 || s.Undated > 0 {
		row("Skipped input", "cut last lines %d, damaged lines %d, undated games %d", s.Truncated, s.SkippedLines, s.Undated)
	}
	for _, e := range s.LatestElo {
		pd.Elo = append(pd.Elo, pageElo{
			EvalEntry: e,
			Time:      stamp(e.Time),
			Elo:       arena.FormatElo(e.Elo),
			Interval:  "[" + arena.FormatElo(e.EloLow) + ", " + arena.FormatElo(e.EloHigh) + "]",
		})
	}
	for _, e := range d.strength {
		pd.Strength = append(pd.Strength, pageElo{EvalEntry: e, Elo: arena.FormatElo(e.Elo),
			Interval: "[" + arena.FormatElo(e.EloLow) + ", " + arena.FormatElo(e.EloHigh) + "]"})
	}
	pd.Learning = d.learning
	for _, p := range plots {
		pd.Plots = append(pd.Plots, pagePlot{p.File, p.Heading})
	}
	for i := len(d.gating) - 1; i >= 0 && len(pd.Gating) < opt.GatingRows; i-- {
		g := d.gating[i]
		pd.Gating = append(pd.Gating, pageGating{GatingEntry: g, Time: stamp(g.Time), LLR: fmt.Sprintf("%.2f", g.LLR)})
	}
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, pd); err != nil {
		return nil, fmt.Errorf("report: index.html: %w", err)
	}
	return buf.Bytes(), nil
}
