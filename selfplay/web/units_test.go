package web

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"chuzero/checkpoints"
	"chuzero/rules"
	"chuzero/selfplay/report"
)

// TestPieceTables: every piece of every variant has its kanji, name and
// Hodges letters; the board has its shape and labels.
func TestPieceTables(t *testing.T) {
	for _, tt := range []struct {
		v            rules.VariantID
		files, zone  int
		first, right string // the top-left file label, the last rank label
	}{{rules.Chu, 12, 4, "12", "l"}, {rules.Sho, 9, 3, "9", "i"}, {rules.Heian, 13, 3, "13", "m"}} {
		r := rules.MustNew(rules.DefaultConfig(tt.v))
		b := newBoard(r)
		if b.Files != tt.files || b.Ranks != tt.files || b.Zone != tt.zone || b.FileLabels[0] != tt.first || b.RankLabels[b.Ranks-1] != tt.right {
			t.Errorf("%v board: %dx%d zone %d labels %q %q", tt.v, b.Files, b.Ranks, b.Zone, b.FileLabels, b.RankLabels)
		}
		if len(b.Pieces) != r.NumKinds() {
			t.Errorf("%v: %d pieces drawn for %d kinds", tt.v, len(b.Pieces), r.NumKinds())
		}
		for code, p := range b.Pieces {
			if len([]rune(p.Kanji)) != 1 || len([]rune(p.Name)) < 2 || p.Latin == "" || p.English == "" || p.Promoted != strings.HasPrefix(code, "+") {
				t.Errorf("%v piece %s: %+v", tt.v, code, p)
			}
		}
		if n := len(kanji[tt.v.String()]); n != r.NumKinds() {
			t.Errorf("%v: %d kanji for %d kinds (a name for a piece the variant lacks?)", tt.v, n, r.NumKinds())
		}
	}
}

// TestSquares: the start position in display order, Gote's side first.
func TestSquares(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	p := r.StartPosition()
	sq := squares(&p)
	want := strings.Split("l n s g k g s n l", " ")
	if got := sq[:9]; fmt.Sprint(got) != fmt.Sprint(want) || sq[80] != "L" || sq[9+7] != "b" || sq[72-9+1] != "B" {
		t.Errorf("Sho start in display order: %q ... %q", sq[:18], sq[63:])
	}
	if i := displayIndex(r, rules.Sq(0, 8)); i != 0 {
		t.Errorf("displayIndex(a9) = %d, want 0", i)
	}
}

// TestIndexIDs: match games get kind-match-index ids, a duplicate self-play
// id a suffix, the same every rescan; offsets lead back to each line.
func TestIndexIDs(t *testing.T) {
	dir := t.TempDir()
	run := checkpoints.Run{Dir: dir}
	os.MkdirAll(run.Games(), 0o755)
	os.MkdirAll(run.Eval("step-1-vs-first"), 0o755)
	line := func(id string, i int) string {
		return fmt.Sprintf(`{"id":%q,"index":%d,"result":"1-0","reason":"bare king","plies":3,"started":"2026-01-01T00:00:%02dZ"}`+"\n", id, i, i)
	}
	os.WriteFile(filepath.Join(run.Games(), "a.jsonl"), []byte(line("ab12", 1)+"\n"+line("ab12", 2)+line("cd34", 3)), 0o644)
	os.WriteFile(filepath.Join(run.Eval("step-1-vs-first"), checkpoints.MatchRecords), []byte(line("", 0)+strings.Replace(line("", 1), ":01Z", ":09Z", 1)), 0o644)
	x := newIndex(run, 0)
	for range 2 {
		list, warn := x.snapshot()
		var ids []string
		for _, g := range list {
			ids = append(ids, g.ID)
			b, err := readLine(g)
			if err != nil || !strings.Contains(string(b), fmt.Sprintf(`"index":%d`, g.Index)) || strings.HasSuffix(string(b), "\n") {
				t.Errorf("game %s: line %q, %v", g.ID, b, err)
			}
		}
		want := "[eval-step-1-vs-first-1 cd34 ab12-2 ab12 eval-step-1-vs-first-0]"
		if fmt.Sprint(ids) != want || len(warn) != 0 {
			t.Errorf("ids %v, warnings %q; want %s", ids, warn, want)
		}
		os.Chtimes(filepath.Join(run.Games(), "a.jsonl"), time.Now(), time.Now()) // rescanned next time
	}
}

// TestGamesFilter: filters, pages and their links.
func TestGamesFilter(t *testing.T) {
	var games []*GameInfo
	for i := range 25 {
		kind, result := KindSelfPlay, "1-0"
		if i%5 == 0 {
			kind, result = KindEval, "0-1"
		}
		games = append(games, &GameInfo{ID: fmt.Sprint(i), Kind: kind, Result: result, Reason: "bare king"})
	}
	for _, tt := range []struct {
		query             string
		matched, shown    int
		first, prev, next string
	}{
		{"", 25, 25, "0", "", ""},
		{"kind=eval", 5, 5, "0", "", ""},
		{"result=1-0&limit=7", 20, 7, "1", "", "?limit=7&offset=7&result=1-0"},
		{"result=1-0&limit=7&offset=14", 20, 6, "18", "?limit=7&offset=7&result=1-0", ""},
		{"reason=repetition", 0, 0, "", "", ""},
		{"limit=-3&offset=x", 25, 25, "0", "", ""},
	} {
		q, _ := url.ParseQuery(tt.query)
		f, off, lim := parseGamesQuery(q)
		v := gamesView(games, nil, f, off, lim)
		prev, next := v.pageLinks()
		first := ""
		if len(v.Games) > 0 {
			first = v.Games[0].ID
		}
		if v.Matched != tt.matched || len(v.Games) != tt.shown || first != tt.first || prev != tt.prev || next != tt.next {
			t.Errorf("games?%s: matched %d shown %d first %q prev %q next %q; want %d %d %q %q %q",
				tt.query, v.Matched, len(v.Games), first, prev, next, tt.matched, tt.shown, tt.first, tt.prev, tt.next)
		}
	}
}

// TestLastLogEntry: the last entry of a training log longer than the part
// read, a cut last line skipped.
func TestLastLogEntry(t *testing.T) {
	dir := t.TempDir()
	app := checkpoints.Run{Dir: dir}.Appender(checkpoints.TrainLog)
	n := int64(0)
	for fi, _ := os.Stat(filepath.Join(dir, "logs", checkpoints.TrainLog)); fi == nil || fi.Size() < 2*tailBytes; fi, _ = os.Stat(filepath.Join(dir, "logs", checkpoints.TrainLog)) {
		n++
		if err := app.Append(checkpoints.TrainEntry{Step: n, Loss: float64(n)}); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "logs", checkpoints.TrainLog)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"step": 999`)
	f.Close()
	e, err := lastLogEntry[checkpoints.TrainEntry](path)
	if err != nil || e == nil || e.Step != n {
		t.Fatalf("lastLogEntry = %+v, %v; want step %d", e, err, n)
	}
	if e, err := lastLogEntry[checkpoints.TrainEntry](filepath.Join(dir, "none")); e != nil || err != nil {
		t.Errorf("a missing log: %+v, %v", e, err)
	}
}

// TestProcessFields: counters summed over labels, gauges one by one,
// histograms as count and mean, other families left out.
func TestProcessFields(t *testing.T) {
	reg := prometheus.NewRegistry()
	games := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "chuzero_selfplay_games_total", Help: "h"}, []string{"result"})
	loss := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "chuzero_train_loss", Help: "h"}, []string{"head"})
	hist := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "chuzero_train_step_seconds", Help: "h"})
	other := prometheus.NewCounter(prometheus.CounterOpts{Name: "go_other_total", Help: "h"})
	reg.MustRegister(games, loss, hist, other)
	games.WithLabelValues("1-0").Add(3)
	games.WithLabelValues("0-1").Add(2)
	loss.WithLabelValues("policy").Set(2.5)
	hist.Observe(1)
	hist.Observe(3)
	var got []string
	for _, f := range processFields(reg) {
		got = append(got, f.Label+"="+f.Value)
	}
	want := "[selfplay_games_total=5 train_loss{head=policy}=2.5 train_step_seconds=2, mean 2]"
	if fmt.Sprint(got) != want {
		t.Errorf("processFields = %v, want %s", got, want)
	}
}

// TestConfigValidate: the config's checks.
func TestConfigValidate(t *testing.T) {
	for _, tt := range []struct {
		change func(*Config)
		ok     bool
	}{
		{func(*Config) {}, true},
		{func(c *Config) { c.Run = checkpoints.Run{} }, false},
		{func(c *Config) { c.Poll = time.Millisecond }, false},
		{func(c *Config) { c.Rescan = -time.Second }, false},
		{func(c *Config) { c.Redraw = -time.Second }, false},
		{func(c *Config) { c.Plots.Width = 5 }, false},
	} {
		c := DefaultConfig(checkpoints.Run{Dir: "runs/chu"})
		tt.change(&c)
		if err := c.Validate(); (err == nil) != tt.ok {
			t.Errorf("Validate(%+v) = %v, want ok %v", c, err, tt.ok)
		}
	}
}

// TestPlotCache: the plots are drawn again when the run changed, but not
// within the redraw interval; the version in their URLs follows.
func TestPlotCache(t *testing.T) {
	dir := copyRun(t, rules.Sho)
	for _, tt := range []struct {
		every  time.Duration
		redraw bool
	}{{0, true}, {time.Hour, false}} {
		c := &plotCache{run: checkpoints.Run{Dir: dir}, opt: report.DefaultOptions(), every: tt.every}
		before, _, err := c.get(report.LossPlot)
		v := c.version()
		if err != nil || len(before) == 0 {
			t.Fatalf("loss plot: %d bytes, %v", len(before), err)
		}
		if err := (checkpoints.Run{Dir: dir}).Appender(checkpoints.TrainLog).Append(checkpoints.TrainEntry{Time: time.Now().UTC(), Step: 50, Loss: 9, PolicyLoss: 8, ValueLoss: 1}); err != nil {
			t.Fatal(err)
		}
		after, _, _ := c.get(report.LossPlot)
		if changed := string(after) != string(before); changed != tt.redraw || (c.version() != v) != tt.redraw {
			t.Errorf("redraw every %v: plot changed %v, version %s -> %s; want a redraw %v", tt.every, changed, v, c.version(), tt.redraw)
		}
	}
	if _, ok, _ := (&plotCache{}).get("../config.json"); ok {
		t.Error("a name outside the report's plots was taken for a plot")
	}
}
