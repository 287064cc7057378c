package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chuzero/checkpoints"
	"chuzero/selfplay"
)

// checkPNGs checks that every plot in out decodes as a w×h PNG.
func checkPNGs(t *testing.T, out string, w, h int) {
	t.Helper()
	for _, name := range []string{LossPlot, EloPlot, GamesPerHourPlot, GameLengthPlot, ResignFPPlot, StrengthPlot} {
		f, err := os.Open(filepath.Join(out, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("png.Decode(%s): %v", name, err)
			continue
		}
		if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
			t.Errorf("%s is %d×%d pixels, want %d×%d", name, b.Dx(), b.Dy(), w, h)
		}
	}
}

func TestReportGenerate(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) synthRun
		opt   Options
		check func(t *testing.T, s *Summary, want synthRun, page string)
	}{
		{
			name:  "three hours",
			setup: func(t *testing.T, dir string) synthRun { return writeSynthRun(t, dir, 3*time.Hour, 300) },
			opt:   Options{Width: 480, Height: 320},
			check: checkThreeHours,
		},
		{
			name:  "five minutes in minutes",
			setup: func(t *testing.T, dir string) synthRun { return writeSynthRun(t, dir, 5*time.Minute, 40) },
			opt:   Options{Width: 300, Height: 200, DPI: 72, TimeUnit: time.Minute, Smooth: 1, Bins: 10},
			check: func(t *testing.T, s *Summary, want synthRun, page string) {
				if s.Games != 40 || !strings.Contains(page, "minutes since run start") {
					t.Errorf("games %d; page names its time unit: %v", s.Games, strings.Contains(page, "minutes since run start"))
				}
			},
		},
		{
			name:  "one of each at one instant",
			setup: writeOneOfEach,
			check: func(t *testing.T, s *Summary, want synthRun, page string) {
				if s.Games != 1 || s.Hours != 0 || s.Evals != 1 || !strings.Contains(page, "-inf") {
					t.Errorf("games %d, hours %v, evals %d", s.Games, s.Hours, s.Evals)
				}
			},
		},
		{
			name:  "empty",
			setup: func(t *testing.T, dir string) synthRun { return synthRun{} },
			check: func(t *testing.T, s *Summary, want synthRun, page string) {
				if s.Games != 0 || s.LastTrain != nil || s.Evals != 0 || s.Gatings != 0 || !s.Start.IsZero() {
					t.Errorf("empty run: %+v", s)
				}
				for _, w := range []string{"No evaluation matches logged yet", "No gating decisions logged yet", "(unknown)"} {
					if !strings.Contains(page, w) {
						t.Errorf("index.html lacks %q", w)
					}
				}
			},
		},
		{
			name:  "damaged middle line",
			setup: writeDamagedRun,
			check: func(t *testing.T, s *Summary, want synthRun, page string) {
				if s.Games != want.games || s.SkippedLines != 1 || s.WarningCount != 1 ||
					len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "games-00001.jsonl:4") {
					t.Errorf("games %d (want %d), skipped %d, warnings %q", s.Games, want.games, s.SkippedLines, s.Warnings)
				}
				if !strings.Contains(page, "games-00001.jsonl:4") {
					t.Errorf("index.html does not show the warning")
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			want := tt.setup(t, dir)
			s, page := generateChecked(t, dir, tt.opt)
			tt.check(t, s, want, page)
		})
	}
}

// generateChecked generates the report of run directory dir and checks
// what every report has: its files, each plot a PNG of the options' size,
// the page showing every plot. It returns the summary and the page.
func generateChecked(t *testing.T, dir string, o Options) (*Summary, string) {
	t.Helper()
	out := filepath.Join(dir, "report")
	s, err := Generate(checkpoints.Run{Dir: dir}, out, o)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if len(s.Files) != 7 || filepath.Base(s.Files[6]) != IndexPage {
		t.Errorf("Files = %q, want 6 plots and index.html", s.Files)
	}
	for _, f := range s.Files {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("listed file: %v", err)
		}
	}
	opt := o.withDefaults()
	checkPNGs(t, out, opt.Width, opt.Height)
	page, err := os.ReadFile(filepath.Join(out, IndexPage))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{LossPlot, EloPlot, GamesPerHourPlot, GameLengthPlot, ResignFPPlot, StrengthPlot} {
		if !bytes.Contains(page, []byte(`src="`+name+`"`)) {
			t.Errorf("index.html does not show %s", name)
		}
	}
	return s, string(page)
}

// checkThreeHours checks the summary and page of the three-hour run.
func checkThreeHours(t *testing.T, s *Summary, want synthRun, page string) {
	if s.Games != want.games || s.GameFiles != want.files || s.Plies != int64(want.plies) {
		t.Errorf("games %d in %d files, %d plies; want %d in %d, %d", s.Games, s.GameFiles, s.Plies, want.games, want.files, want.plies)
	}
	if s.ResignChecked != want.checked || s.FalsePositives != want.falsePositives || want.checked == 0 {
		t.Errorf("resignation check %d/%d, want %d/%d", s.FalsePositives, s.ResignChecked, want.falsePositives, want.checked)
	}
	if s.NoResignGames != 30 || s.SenteWins+s.GoteWins+s.Draws != want.games {
		t.Errorf("no-resign games %d, results %d+%d+%d", s.NoResignGames, s.SenteWins, s.GoteWins, s.Draws)
	}
	if s.Truncated != 1 || s.SkippedLines != 0 || len(s.Warnings) != 0 {
		t.Errorf("truncated %d, skipped %d, warnings %q; want 1, 0, none", s.Truncated, s.SkippedLines, s.Warnings)
	}
	if s.Variant != "chu" || s.ResignThreshold == nil || *s.ResignThreshold != -0.9 {
		t.Errorf("variant %q, threshold %v", s.Variant, s.ResignThreshold)
	}
	if s.LastTrain == nil || s.LastTrain.Step != want.lastStep || s.TrainEntries != 200 {
		t.Errorf("last train %+v of %d, want step %d", s.LastTrain, s.TrainEntries, want.lastStep)
	}
	if s.Evals != 18 || len(s.LatestElo) != 3 || s.LatestElo[1].Opponent != "greedy" || s.LatestElo[1].Step != 1800 {
		t.Errorf("evals %d, latest %+v", s.Evals, s.LatestElo)
	}
	if s.Gatings != want.gatings || s.Promotions != 3 || s.LastGating == nil {
		t.Errorf("gatings %d, promoted %d", s.Gatings, s.Promotions)
	}
	if s.Hours < 3 || s.Hours > 3.1 {
		t.Errorf("Hours = %v, want about 3", s.Hours)
	}
	for _, w := range []string{
		fmt.Sprintf("%d in %d files", want.games, want.files),
		fmt.Sprintf("%d (", want.plies),
		fmt.Sprintf("last step %d", want.lastStep),
		"hachu-d1", "inf]", "step-002000", "threshold -0.9 (config.json)", "(chu)",
	} {
		if !strings.Contains(page, w) {
			t.Errorf("index.html lacks %q", w)
		}
	}
	for _, w := range []string{fmt.Sprintf("%d games in %d files", want.games, want.files), "latest Elo:", "5 gating decisions, 3 promoted"} {
		if !strings.Contains(s.String(), w) {
			t.Errorf("Summary.String() = %q, lacks %q", s.String(), w)
		}
	}
}

// writeOneOfEach writes a run with one entry of every log and one game,
// all at one instant (a zero time span).
func writeOneOfEach(t *testing.T, dir string) synthRun {
	for _, e := range []struct {
		log string
		v   any
	}{
		{checkpoints.TrainLog, checkpoints.TrainEntry{Time: t0, Loss: 1e300, PolicyLoss: 1, ValueLoss: 0}},
		{checkpoints.EvalLog, checkpoints.EvalEntry{Time: t0, Opponent: "first", Games: 2, Losses: 2, Elo: -math.MaxFloat64, EloLow: -math.MaxFloat64, EloHigh: 100}},
		{checkpoints.GatingLog, checkpoints.GatingEntry{Time: t0, Candidate: "a", Best: "b", Decision: "inconclusive"}},
	} {
		if err := (checkpoints.Run{Dir: dir}).Appender(e.log).Append(e.v); err != nil {
			t.Fatal(err)
		}
	}
	rec, _ := json.Marshal(selfplay.Record{Started: t0, Plies: 10, Result: "0-1", Winner: "gote"})
	os.MkdirAll(filepath.Join(dir, checkpoints.GamesDir), 0o755)
	if err := os.WriteFile(filepath.Join(dir, checkpoints.GamesDir, "g.jsonl"), append(rec, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	return synthRun{games: 1}
}

// writeDamagedRun writes an hour's run whose second games file has one
// line that is not JSON.
func writeDamagedRun(t *testing.T, dir string) synthRun {
	want := writeSynthRun(t, dir, time.Hour, 24)
	path := filepath.Join(dir, checkpoints.GamesDir, "games-00001.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines[3] = "{not json\n"
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	want.games--
	return want
}

func TestReportGenerateErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name   string
		runDir string
		opt    Options
		want   string
	}{
		{"missing run directory", filepath.Join(dir, "nope"), Options{}, "no such file"},
		{"run directory is a file", filepath.Join(dir, "file"), Options{}, "not a directory"},
		{"tiny image", dir, Options{Width: 10}, "image size"},
		{"negative time unit", dir, Options{TimeUnit: -time.Hour}, "time unit"},
	}
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		_, err := Generate(checkpoints.Run{Dir: tt.runDir}, filepath.Join(dir, "out"), tt.opt)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Generate = %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
}

func TestReportBinWidth(t *testing.T) {
	tests := []struct {
		span   time.Duration
		target int
		want   time.Duration
	}{
		{0, 40, time.Second},
		{3 * time.Minute, 40, 5 * time.Second},
		{5 * time.Minute, 40, 10 * time.Second},
		{3 * time.Hour, 40, 5 * time.Minute},
		{3 * time.Hour, 20, 10 * time.Minute},
		{30 * 24 * time.Hour, 40, 24 * time.Hour},
		{1000 * 24 * time.Hour, 10, 112 * 24 * time.Hour},
		{math.MaxInt64, 1, 2048 * 28 * 24 * time.Hour}, // saturated: no overflow, no endless loop
	}
	for _, tt := range tests {
		if got := binWidth(tt.span, tt.target); got != tt.want {
			t.Errorf("binWidth(%v, %d) = %v, want %v", tt.span, tt.target, got, tt.want)
		}
	}
}

func TestReportBinGames(t *testing.T) {
	at := func(d time.Duration) gamePoint { return gamePoint{end: t0.Add(d).UnixNano()} }
	games := []gamePoint{at(0), at(time.Minute), at(9 * time.Minute), at(10 * time.Minute), at(25 * time.Minute), at(30 * time.Minute)}
	bins := binGames(games, t0, t0.Add(30*time.Minute), 10*time.Minute)
	var got []int
	for _, b := range bins {
		got = append(got, len(b.games))
	}
	if fmt.Sprint(got) != "[3 1 2]" || bins[2].covered != 10*time.Minute {
		t.Errorf("binGames: counts %v, last covers %v; want [3 1 2], 10m", got, bins[2].covered)
	}
	bins = binGames(games[:5], t0, t0.Add(25*time.Minute), 10*time.Minute)
	if len(bins) != 3 || bins[2].covered != 5*time.Minute || len(bins[2].games) != 1 {
		t.Errorf("binGames with a cut last bin: %d bins, last covers %v", len(bins), bins[len(bins)-1].covered)
	}
}

func TestReportStatistics(t *testing.T) {
	if got := movingAverage([]float64{1, 2, 3, 4, 5}, 3); fmt.Sprint(got) != "[1.5 2 3 4 4.5]" {
		t.Errorf("movingAverage = %v", got)
	}
	tests := []struct {
		name      string
		got, want float64
	}{
		{"quantile(0.1)", quantile([]float64{10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110}, 0.1), 20},
		{"quantile(0.9)", quantile([]float64{1, 2}, 0.9), 1.9},
		{"wilson(0, 10) high", second(wilson(0, 10)), 0.2775},
		{"wilson(5, 10) low", first(wilson(5, 10)), 0.2366},
		{"wilson(10, 10) high", second(wilson(10, 10)), 1},
	}
	for _, tt := range tests {
		if math.Abs(tt.got-tt.want) > 1e-4 {
			t.Errorf("%s = %.4f, want %.4f", tt.name, tt.got, tt.want)
		}
	}
	for _, c := range []struct{ n, k, want int }{{100, 0, 5}, {100, 1, 1}, {10, 4, 5}, {0, 0, 1}} {
		if got := smoothWindow(c.n, c.k); got != c.want {
			t.Errorf("smoothWindow(%d, %d) = %d, want %d", c.n, c.k, got, c.want)
		}
	}
}

func first(a, _ float64) float64  { return a }
func second(_, b float64) float64 { return b }
