package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chuzero/checkpoints"
	"chuzero/selfplay"
)

// synthRun describes a synthetic run directory and what it should count.
type synthRun struct {
	games, files, plies int
	falsePositives      int
	checked             int
	lastStep            int64
	gatings             int
}

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// writeSynthRun writes a run of the given length into dir: config.json,
// the three logs, and games files of 8 records each whose last file ends
// in a cut line (a crash mid-write).
func writeSynthRun(t *testing.T, dir string, span time.Duration, games int) synthRun {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	var want synthRun
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "config.json"),
		[]byte(`{"variant": "chu", "seed": 1, "selfplay": {"resign_threshold": -0.9, "no_resign_fraction": 0.1}}`+"\n"), 0o644))

	train := checkpoints.Run{Dir: dir}.Appender(checkpoints.TrainLog)
	const reports = 200
	for i := 0; i < reports; i++ {
		f := float64(i) / reports
		e := checkpoints.TrainEntry{
			Time:       t0.Add(time.Duration(f * float64(span))),
			Step:       int64(10 * i),
			PolicyLoss: 6*math.Exp(-2*f) + 0.3*r.Float64(),
			ValueLoss:  0.9 - 0.4*f + 0.1*r.Float64(),
			L2Loss:     0.05 + 0.01*f,
			LR:         0.02,
			GradNorm:   1 + r.Float64(),
			Samples:    int64(1000 * i),
			Window:     250000,
		}
		e.Loss = e.PolicyLoss + e.ValueLoss + e.L2Loss
		e.SamplesSeen = 256 * e.Step
		must(train.Append(e))
		want.lastStep = e.Step
	}

	eval := checkpoints.Run{Dir: dir}.Appender(checkpoints.EvalLog)
	for i := 1; i <= 6; i++ {
		at := t0.Add(time.Duration(i) * span / 6)
		for j, opp := range []string{"first", "greedy", "hachu-d1"} {
			elo := float64(60*i - 150*j)
			e := checkpoints.EvalEntry{Time: at, Step: int64(300 * i), Checkpoint: fmt.Sprintf("step-%06d", 300*i), Opponent: opp,
				Games: 40, Wins: 20 + i, Draws: 5, Losses: 15 - i, Elo: elo, EloLow: elo - 80, EloHigh: elo + 80}
			if opp == "greedy" && i == 6 { // a clean sweep: the logger's stand-in for +inf
				e.Wins, e.Draws, e.Losses = 40, 0, 0
				e.Elo, e.EloLow, e.EloHigh = math.MaxFloat64, 400, math.MaxFloat64
			}
			must(eval.Append(e))
		}
	}

	gating := checkpoints.Run{Dir: dir}.Appender(checkpoints.GatingLog)
	for i := 1; i <= 5; i++ {
		promoted := i%2 == 1
		dec := "reject"
		if promoted {
			dec = "accept"
		}
		must(gating.Append(checkpoints.GatingEntry{Time: t0.Add(time.Duration(i) * span / 5), Candidate: fmt.Sprintf("step-%06d", 400*i),
			Best: "step-000000", Games: 100, Wins: 50 + i, Draws: 10, Losses: 40 - i, LLR: 1.5 * float64(i%3-1), Decision: dec, Promoted: promoted}))
		want.gatings++
	}

	gamesDir := filepath.Join(dir, checkpoints.GamesDir)
	must(os.MkdirAll(gamesDir, 0o755))
	var buf bytes.Buffer
	flush := func() {
		if buf.Len() == 0 {
			return
		}
		must(os.WriteFile(filepath.Join(gamesDir, fmt.Sprintf("games-%05d.jsonl", want.files)), buf.Bytes(), 0o644))
		want.files++
		buf.Reset()
	}
	for i := 0; i < games; i++ {
		plies := 80 + r.IntN(200) + 100*i/games // games get longer as the net learns
		rec := selfplay.Record{
			ID: fmt.Sprintf("%016x", r.Uint64()), Index: uint64(i), Seed: r.Uint64(), Variant: "chu", Rules: "chu",
			Start:     "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1",
			Plies:     plies,
			Evaluator: "step-000300",
			Started:   t0.Add(time.Duration(float64(i) / float64(games) * float64(span))),
			Seconds:   20 + 10*r.Float64(),
		}
		for p := 0; p < plies; p++ {
			rec.Moves = append(rec.Moves, "f3f5")
			rec.Values = append(rec.Values, float32(r.Float64()*2-1))
			rec.Visits = append(rec.Visits, 32)
			rec.Full = append(rec.Full, p%4 == 0)
		}
		rec.Simulations = 32 * plies
		switch r.IntN(10) {
		case 0:
			rec.Result, rec.Reason = "1/2-1/2", "repetition"
		case 1, 2, 3, 4, 5:
			rec.Result, rec.Winner, rec.Reason = "1-0", "sente", "checkmate"
		default:
			rec.Result, rec.Winner, rec.Reason = "0-1", "gote", "checkmate"
		}
		rec.ResignAllowed = i%10 != 0
		if rec.ResignAllowed && r.IntN(3) == 0 {
			rec.Reason = "resignation"
		}
		if !rec.ResignAllowed && i%30 != 0 {
			side := "sente" // mostly the loser: a threshold that works
			if (rec.Winner == "sente") != (r.IntN(8) == 0) {
				side = "gote"
			}
			rec.WouldResign = &selfplay.WouldResign{Side: side, Ply: plies / 2}
			want.checked++
			if rec.FalsePositive() {
				want.falsePositives++
			}
		}
		b, err := json.Marshal(rec)
		must(err)
		buf.Write(append(b, '\n'))
		want.games++
		want.plies += plies
		if buf.Len() > 0 && (i+1)%8 == 0 {
			flush()
		}
	}
	buf.WriteString(`{"id":"00ff","index":99999,"variant":"chu","moves":["f3f5","g1`) // cut by a crash
	flush()
	// an atomic writer's leftover temporary file is not a games file
	must(os.WriteFile(filepath.Join(gamesDir, ".games-99999.jsonl.tmp-123"), []byte("{"), 0o644))
	return want
}

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
			check: func(t *testing.T, s *Summary, want synthRun, page string) {
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
			},
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
			name: "one of each at one instant",
			setup: func(t *testing.T, dir string) synthRun {
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
			},
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
			name: "damaged middle line",
			setup: func(t *testing.T, dir string) synthRun {
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
			},
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
			out := filepath.Join(dir, "report")
			s, err := Generate(checkpoints.Run{Dir: dir}, out, tt.opt)
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
			opt := tt.opt.withDefaults()
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
			tt.check(t, s, want, string(page))
		})
	}
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
