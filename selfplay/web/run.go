package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"

	"chuzero/checkpoints"
	"chuzero/checkpoints/atomicfile"
	"chuzero/selfplay/arena"
	"chuzero/selfplay/report"
)

// RunView is the run page: its status line, config, checkpoints,
// evaluation, gating and plots. Tables hold cell text, so that the page's
// template and its script draw the same thing.
type RunView struct {
	Dir      string    `json:"dir"`
	Variant  string    `json:"variant"`
	Now      time.Time `json:"now"`
	Status   []Field   `json:"status"`            // the status line, in order
	Kinds    []Field   `json:"kinds"`             // games by kind
	Process  []Field   `json:"process,omitempty"` // the serving process's own metrics (a live run)
	Config   string    `json:"config"`            // config.json, indented
	Ckpts    Table     `json:"checkpoints"`
	Eval     Table     `json:"eval"`     // one row per evaluated checkpoint, one column per anchor
	Strength Table     `json:"strength"` // the strength benchmark's gauntlet
	Learning string    `json:"learning"` // the learning probe's table (scripts/learning.sh), if any
	Gating   Table     `json:"gating"`   // newest first
	Plots    []PlotRef `json:"plots"`
	Warnings []string  `json:"warnings,omitempty"`
	Poll     float64   `json:"poll_seconds"` // how often the page refreshes
}

// Field is one labelled value.
type Field struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Value string `json:"value"`
}

// Table is a table of text cells.
type Table struct {
	Head []string   `json:"head"`
	Rows [][]string `json:"rows"`
}

// PlotRef is a plot of the report, with a URL that changes when the data
// does.
type PlotRef struct {
	File    string `json:"file"`
	Heading string `json:"heading"`
	URL     string `json:"url"`
}

// maxGatingRows is how many gating decisions the run page lists.
const maxGatingRows = 50

// runView reads the run page's data from the run directory and the
// index.
func (s *Server) runView() *RunView {
	run := s.run
	cfg := readRunConfig(run)
	v := &RunView{Dir: run.Dir, Variant: cfg.variant, Now: time.Now().UTC(), Config: cfg.text, Poll: s.cfg.Poll.Seconds()}
	games, warn := s.index.snapshot()
	v.Warnings = append(v.Warnings, warn...)
	train, _ := lastLogEntry[checkpoints.TrainEntry](run.Log(checkpoints.TrainLog))
	ckpts, _ := (&checkpoints.Store{Dir: run.Checkpoints()}).List()
	v.Status = status(train, games, ckpts, v.Now)
	v.Kinds = kindCounts(games)
	v.Ckpts = checkpointTable(ckpts)
	evals, bad, err := checkpoints.ReadLog[checkpoints.EvalEntry](run, checkpoints.EvalLog)
	v.Warnings = append(v.Warnings, logWarnings(checkpoints.EvalLog, bad, err)...)
	v.Eval = evalTable(evals)
	gates, bad, err := checkpoints.ReadLog[checkpoints.GatingEntry](run, checkpoints.GatingLog)
	v.Warnings = append(v.Warnings, logWarnings(checkpoints.GatingLog, bad, err)...)
	v.Gating = gatingTable(gates)
	strength, err := report.ReadStrength(run)
	if err != nil {
		v.Warnings = append(v.Warnings, err.Error())
	}
	v.Strength = strengthTable(strength)
	if v.Learning, err = report.ReadLearning(run); err != nil {
		v.Warnings = append(v.Warnings, err.Error())
	}
	key := s.plots.version()
	for _, p := range report.Plots() {
		v.Plots = append(v.Plots, PlotRef{File: p.File, Heading: p.Heading, URL: "/plots/" + p.File + "?v=" + key})
	}
	if s.cfg.Metrics != nil {
		v.Process = processFields(s.cfg.Metrics)
	}
	return v
}

func logWarnings(name string, bad int, err error) []string {
	var out []string
	if bad > 0 {
		out = append(out, fmt.Sprintf("logs/%s: %d damaged lines skipped", name, bad))
	}
	if err != nil {
		out = append(out, err.Error())
	}
	return out
}

// status is the status line: training step and losses, games, positions,
// games per hour, the newest checkpoint and when the run last wrote.
func status(t *checkpoints.TrainEntry, games []*GameInfo, ckpts []checkpoints.Entry, now time.Time) []Field {
	var n int
	var plies int64
	var newest, last time.Time
	for _, g := range games {
		if g.Kind != KindSelfPlay {
			continue
		}
		n++
		plies += int64(g.Plies)
		if e := g.Finished(); e.After(newest) {
			newest = e
		}
	}
	f := []Field{{"step", "step", "—"}, {"games", "self-play games", fmt.Sprint(n)}, {"positions", "positions", fmt.Sprint(plies)}}
	if t != nil {
		f[0].Value = fmt.Sprint(t.Step)
		last = t.Time
		f = append(f, Field{"samples", "samples", fmt.Sprint(t.Samples)},
			Field{"loss", "loss", fmt.Sprintf("%.4g", t.Loss)},
			Field{"policy_loss", "policy", fmt.Sprintf("%.4g", t.PolicyLoss)},
			Field{"value_loss", "value", fmt.Sprintf("%.4g", t.ValueLoss)},
			Field{"lr", "learning rate", fmt.Sprintf("%.3g", t.LR)})
	} else if len(ckpts) > 0 {
		f[0].Value = fmt.Sprint(ckpts[len(ckpts)-1].Step)
	}
	f = append(f, Field{"games_per_hour", "games/h", gamesPerHour(games, newest)})
	if len(ckpts) > 0 {
		f = append(f, Field{"checkpoint", "checkpoint", ckpts[len(ckpts)-1].Name})
	}
	if newest.After(last) {
		last = newest
	}
	f = append(f, Field{"updated", "last written", ago(last, now)})
	return f
}

// gamesPerHour is the self-play rate over the hour before the newest game
// (over the run's span when it is shorter).
func gamesPerHour(games []*GameInfo, newest time.Time) string {
	var n int
	oldest := newest
	for _, g := range games {
		e := g.Finished()
		if g.Kind != KindSelfPlay || e.Before(newest.Add(-time.Hour)) || g.Started.IsZero() {
			continue
		}
		n++
		if g.Started.Before(oldest) {
			oldest = g.Started
		}
	}
	span := newest.Sub(oldest).Hours()
	if n == 0 || span <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f", float64(n)/span)
}

// ago writes a time with how long before now it was.
func ago(t, now time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return fmt.Sprintf("%s (%s ago)", stamp(t), now.Sub(t).Round(time.Second))
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04:05Z")
}

// kindCounts counts the games of each kind.
func kindCounts(games []*GameInfo) []Field {
	count := map[string]int{}
	for _, g := range games {
		count[g.Kind]++
	}
	var f []Field
	for _, k := range []string{KindSelfPlay, KindEval, KindGating, KindArena} {
		f = append(f, Field{k, k, fmt.Sprint(count[k])})
	}
	return f
}

func checkpointTable(ckpts []checkpoints.Entry) Table {
	t := Table{Head: []string{"checkpoint", "step", "written", "size"}}
	for i := len(ckpts) - 1; i >= 0; i-- {
		e := ckpts[i]
		t.Rows = append(t.Rows, []string{e.Name, fmt.Sprint(e.Step), stamp(e.ModTime), fmt.Sprintf("%.1f MB", float64(e.Size)/1e6)})
	}
	return t
}

// evalTable has a row per evaluated checkpoint (newest first) and a
// column per anchor: Elo with its 95% interval and the games' W-D-L.
func evalTable(evals []checkpoints.EvalEntry) Table {
	var anchors []string
	col := map[string]int{}
	type row struct {
		step  int64
		name  string
		cells map[string]string
	}
	rows := map[string]*row{}
	for _, e := range evals {
		if _, ok := col[e.Opponent]; !ok {
			col[e.Opponent] = len(anchors)
			anchors = append(anchors, e.Opponent)
		}
		r := rows[e.Checkpoint]
		if r == nil {
			r = &row{step: e.Step, name: e.Checkpoint, cells: map[string]string{}}
			rows[e.Checkpoint] = r
		}
		r.cells[e.Opponent] = eloCell(e)
	}
	t := Table{Head: append([]string{"checkpoint", "step"}, anchors...)}
	var list []*row
	for _, r := range rows {
		list = append(list, r)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].step > list[j].step })
	for _, r := range list {
		cells := []string{r.name, fmt.Sprint(r.step)}
		for _, a := range anchors {
			cells = append(cells, r.cells[a])
		}
		t.Rows = append(t.Rows, cells)
	}
	return t
}

// eloCell is "+35 [-12, +80] 12-5-3".
func eloCell(e checkpoints.EvalEntry) string {
	return fmt.Sprintf("%s [%s, %s] %d-%d-%d", arena.FormatElo(e.Elo), arena.FormatElo(e.EloLow), arena.FormatElo(e.EloHigh), e.Wins, e.Draws, e.Losses)
}

func strengthTable(entries []checkpoints.EvalEntry) Table {
	t := Table{Head: []string{"player", "anchor", "games", "W-D-L", "Elo", "95% interval"}}
	for _, e := range entries {
		t.Rows = append(t.Rows, []string{e.Checkpoint, e.Opponent, fmt.Sprint(e.Games),
			fmt.Sprintf("%d-%d-%d", e.Wins, e.Draws, e.Losses), arena.FormatElo(e.Elo), "[" + arena.FormatElo(e.EloLow) + ", " + arena.FormatElo(e.EloHigh) + "]"})
	}
	return t
}

func gatingTable(gates []checkpoints.GatingEntry) Table {
	t := Table{Head: []string{"time", "candidate", "best", "games", "W-D-L", "LLR", "decision", "promoted"}}
	for i := len(gates) - 1; i >= 0 && len(t.Rows) < maxGatingRows; i-- {
		g := gates[i]
		promoted := "no"
		if g.Promoted {
			promoted = "yes"
		}
		t.Rows = append(t.Rows, []string{stamp(g.Time), g.Candidate, g.Best, fmt.Sprint(g.Games),
			fmt.Sprintf("%d-%d-%d", g.Wins, g.Draws, g.Losses), fmt.Sprintf("%.2f", g.LLR), g.Decision, promoted})
	}
	return t
}

// tailBytes is how much of a log's end lastLogEntry reads.
const tailBytes = 256 << 10

// lastLogEntry decodes the last whole line of a JSON-lines log that
// decodes, reading only the file's end: the training log of a long run
// is large, and the status line only needs its last entry. A missing file
// has none.
func lastLogEntry[T any](path string) (*T, error) {
	f, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	off := max(0, fi.Size()-tailBytes)
	b, err := io.ReadAll(io.NewSectionReader(f, off, fi.Size()-off))
	if err != nil {
		return nil, err
	}
	var last *T
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), tailBytes)
	for first := off > 0; sc.Scan(); first = false {
		if first {
			continue // the tail starts inside a line
		}
		var v T
		if json.Unmarshal(sc.Bytes(), &v) == nil {
			last = &v
		}
	}
	return last, nil
}
