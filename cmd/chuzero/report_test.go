package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chuzero/checkpoints"
	"chuzero/selfplay"
	"chuzero/selfplay/report"
)

// writeReportRun writes a small run directory: config.json, a training
// log and one games file.
func writeReportRun(t *testing.T, dir string) {
	t.Helper()
	start := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"variant": "sho"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	a := checkpoints.Run{Dir: dir}.Appender(checkpoints.TrainLog)
	for i := 0; i < 20; i++ {
		if err := a.Append(checkpoints.TrainEntry{Time: start.Add(time.Duration(i) * time.Minute), Step: int64(i), PolicyLoss: 4 - 0.1*float64(i), ValueLoss: 0.8, L2Loss: 0.01, Loss: 4.81 - 0.1*float64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	for i := 0; i < 12; i++ {
		rec := selfplay.Record{ID: "00", Index: uint64(i), Variant: "sho", Result: "1-0", Winner: "sente", Reason: "checkmate",
			Plies: 60 + i, ResignAllowed: i%4 != 0, Started: start.Add(time.Duration(i) * time.Minute), Seconds: 30}
		if !rec.ResignAllowed {
			rec.WouldResign = &selfplay.WouldResign{Side: "gote", Ply: 40}
		}
		b, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(append(b, '\n'))
	}
	games := filepath.Join(dir, checkpoints.GamesDir)
	if err := os.MkdirAll(games, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(games, "games-000.jsonl"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReportCommand(t *testing.T) {
	dir := t.TempDir()
	writeReportRun(t, dir)
	other := filepath.Join(t.TempDir(), "pictures")
	tests := []struct {
		name       string
		args       []string
		code       int
		out        string // directory that must hold the report ("": none)
		width      int
		stdout     string
		stderrHead string
	}{
		{"default output", []string{"-run", dir}, 0, filepath.Join(dir, "report"), 960, "12 games in 1 files", ""},
		{"options", []string{"-run", dir, "-out", other, "-width", "400", "-height", "300", "-time-unit", "1m", "-bins", "8"}, 0, other, 400, "(sho)", ""},
		{"missing run directory", []string{"-run", filepath.Join(dir, "nope")}, 1, "", 0, "", "chuzero report: run directory "},
		{"no -run", nil, 2, "", 0, "", "chuzero report: -run DIR is required"},
		{"bad size", []string{"-run", dir, "-out", filepath.Join(dir, "bad"), "-width", "10"}, 1, "", 0, "", "chuzero report: report: image size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"report"}, tt.args...), &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("chuzero report %q: exit %d, want %d (stderr %q)", tt.args, code, tt.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.stdout) {
				t.Errorf("stdout %q lacks %q", stdout.String(), tt.stdout)
			}
			if !strings.HasPrefix(stderr.String(), tt.stderrHead) {
				t.Errorf("stderr %q, want it to start with %q", stderr.String(), tt.stderrHead)
			}
			if tt.out == "" {
				return
			}
			for _, name := range []string{report.IndexPage, report.LossPlot, report.EloPlot, report.GamesPerHourPlot, report.GameLengthPlot, report.ResignFPPlot, report.StrengthPlot} {
				path := filepath.Join(tt.out, name)
				if !strings.Contains(stdout.String(), path) {
					t.Errorf("stdout does not list %s", path)
				}
				if _, err := os.Stat(path); err != nil {
					t.Error(err)
				}
			}
			f, err := os.Open(filepath.Join(tt.out, report.LossPlot))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cfg, err := png.DecodeConfig(f)
			if err != nil || cfg.Width != tt.width {
				t.Errorf("loss.png: width %d, %v; want %d", cfg.Width, err, tt.width)
			}
		})
	}
}
