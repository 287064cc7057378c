package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProbe: a run that trained two steps is probed at its checkpoints,
// in one table; bad arguments are refused with a message.
func TestProbe(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, errs := runCmd("train", "-run", dir, "-config", writeQuickConfig(t), "-max-steps", "2", "-metrics-addr", "off", "-quiet"); code != 0 {
		t.Fatalf("train: %s", errs)
	}
	out := filepath.Join(t.TempDir(), "probe.txt")
	code, stdout, errs := runCmd("probe", "-run", dir, "-positions", "30", "-every", "2", "-out", out)
	if code != 0 {
		t.Fatalf("probe: exit %d, %s", code, errs)
	}
	for _, want := range []string{"positions (every 2 plies)", "step-000000000", "effective moves", "value corr. capture value"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("probe output lacks %q:\n%s", want, stdout)
		}
	}
	if data, err := os.ReadFile(out); err != nil || string(data) != stdout {
		t.Errorf("-out wrote %q, the command printed %q", data, stdout)
	}
	if code, stdout, errs := runCmd("probe", "-run", dir, "-json", "latest"); code != 0 || !strings.Contains(stdout, `"CaptureAgree"`) {
		t.Errorf("probe -json latest: exit %d, %s %s", code, stdout, errs)
	}
	for _, args := range [][]string{{}, {"-run", dir, "step-99"}, {"-run", filepath.Join(dir, "none")}, {"-run", dir, "-every", "0"}} {
		if code, _, errs := runCmd(append([]string{"probe"}, args...)...); code == 0 || errs == "" {
			t.Errorf("probe %v: exit %d, message %q", args, code, errs)
		}
	}
}
