package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrainDiskFull runs "chuzero train" on a run directory in a small
// tmpfs until it is full: the run must stop by itself with a non-zero exit
// and an error naming what could not be written, and leave every file it
// did write whole.
func TestTrainDiskFull(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped with -short")
	}
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	disk := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", disk).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", disk).Run() })
	dir := filepath.Join(disk, "run")
	code, out, errs := runCmd("train", "-run", dir, "-config", writeQuickConfig(t), "-metrics-addr", "off", "-quiet")
	if code == 0 {
		t.Fatalf("train on a full disk exited 0\n%s\n%s", out, errs)
	}
	if !strings.Contains(errs, "no space left") || !strings.Contains(errs, dir) {
		t.Errorf("the error does not say what could not be written:\n%s", errs)
	}
	step, samples, games := checkRun(t, dir)
	t.Logf("stopped at step %d with %d games and %d samples on disk: %s", step, games, samples, lastLine(errs))
}
