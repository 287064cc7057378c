package web

import (
	"os"
	"strings"
	"testing"

	"chuzero/checkpoints"
	"chuzero/rules"
)

// TestLearningTable: the learning probe's table (RUN/learning.txt) shows
// on the run page and in /api/run once it exists, HTML-escaped.
func TestLearningTable(t *testing.T) {
	dir := testRun(t, rules.Sho)
	s := newTestServer(t, dir)
	if _, _, body := get(t, s, "/"); strings.Contains(body, "Learning probe") {
		t.Fatal("a run without learning.txt shows a learning probe")
	}
	table := "learning probe: 400 held-out positions\nraw policy <1>   0  50.0%\n"
	if err := os.WriteFile(checkpoints.RunAt(dir, "").Learning(), []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, body := get(t, s, "/"); code != 200 || !strings.Contains(body, "raw policy &lt;1&gt;   0  50.0%") {
		t.Errorf("run page: %d\n%.300s", code, body)
	}
	if _, _, body := get(t, s, "/api/run"); !strings.Contains(body, `"learning":"learning probe: 400 held-out positions\nraw policy \u003c1\u003e`) {
		t.Errorf("/api/run lacks the table:\n%.500s", body)
	}
}
