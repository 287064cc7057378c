package report

import (
	"chuzero/checkpoints"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The strength benchmark's gauntlet (RUN/strength/results.json) becomes a
// table and a plot; a damaged results file is a warning, not a failure.
func TestReportStrength(t *testing.T) {
	tests := []struct {
		name, results string
		want          []string
		warnings      int
	}{
		{"gauntlet", `{"players":["step-000000800","first","greedy","ab-d2"],"games":120,"pairs":[
{"player":"step-000000800","opponent":"first","wins":38,"draws":1,"losses":1,"elo":550,"elo_low":380,"elo_high":1000000000},
{"player":"step-000000800","opponent":"greedy","wins":30,"draws":4,"losses":6,"elo":220,"elo_low":120,"elo_high":330},
{"player":"step-000000800","opponent":"ab-d2","wins":10,"draws":5,"losses":25,"elo":-135,"elo_low":-250,"elo_high":-30}]}`,
			[]string{"Strength benchmark", "ab-d2", "greedy", "220", "330]", "inf]"}, 0},
		{"damaged", `{"pairs":[{"player":`, []string{"strength/results.json"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			sd := checkpoints.Run{Dir: dir}.Strength()
			if err := os.MkdirAll(sd, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(sd, "results.json"), []byte(tt.results), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "report")
			s, err := Generate(checkpoints.Run{Dir: dir}, out, Options{Width: 480, Height: 320})
			if err != nil {
				t.Fatal(err)
			}
			page, err := os.ReadFile(filepath.Join(out, IndexPage))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(page), w) {
					t.Errorf("index.html lacks %q", w)
				}
			}
			if len(s.Warnings) != tt.warnings {
				t.Errorf("warnings %q, want %d", s.Warnings, tt.warnings)
			}
			checkPNGs(t, out, 480, 320)
		})
	}
}

// The learning probe's table (RUN/learning.txt) is shown as it is, HTML
// escaped; an oversized one is a warning.
func TestReportLearning(t *testing.T) {
	for _, tt := range []struct {
		name, table string
		want        string
		warnings    int
	}{
		{"table", "learning probe: 400 held-out positions\nraw policy <1 playout>  0  50.0%\n", "raw policy &lt;1 playout&gt;", 0},
		{"oversized", strings.Repeat("x", maxLearning+1), "learning.txt: over", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			run := checkpoints.RunAt(dir, "")
			if err := os.WriteFile(run.Learning(), []byte(tt.table), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "report")
			s, err := Generate(run, out, Options{Width: 480, Height: 320})
			if err != nil {
				t.Fatal(err)
			}
			page, _ := os.ReadFile(filepath.Join(out, IndexPage))
			text := string(page) + strings.Join(s.Warnings, "\n")
			if !strings.Contains(text, tt.want) || len(s.Warnings) != tt.warnings {
				t.Errorf("page and warnings lack %q or warnings %q, want %d", tt.want, s.Warnings, tt.warnings)
			}
		})
	}
}
