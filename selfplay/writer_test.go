package selfplay

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/rules"
)

// runUntilBroken plays games one per file with no limit and calls breakIt
// once the first file is written; the run must then stop by itself with
// ErrWrite, keeping what it wrote. It returns the games written and the
// error.
func runUntilBroken(t *testing.T, cfg Config, breakIt func()) (int, error) {
	t.Helper()
	cfg.GamesPerFile = 1
	cfg.Rules.MaxPlies = 40
	r, err := New(cfg, mcts.Random{Seed: 3}, "random")
	if err != nil {
		t.Fatal(err)
	}
	var written atomic.Int64
	r.OnGame = func(*Record) {
		if written.Add(1) == 1 && breakIt != nil {
			breakIt()
		}
	}
	err = r.Run(context.Background(), 0) // a run that never ends unless the error stops it
	if err == nil || !errors.Is(err, ErrWrite) {
		t.Fatalf("run ended with %v, want a write error", err)
	}
	return int(written.Load()), err
}

// checkKept checks that every file the run left reads in full and holds
// as many games as were reported written.
func checkKept(t *testing.T, dir string, written int) {
	t.Helper()
	_, recs := readRun(t, dir)
	if len(recs) != written {
		t.Errorf("%d games on disk, %d reported written", len(recs), written)
	}
}

func TestWriteErrorStopsTheRun(t *testing.T) {
	cfg := testConfig(t, rules.Sho)
	samples := filepath.Join(cfg.Run.Dir, checkpoints.SamplesDir)
	// root ignores permissions: a directory replaced by a file fails for
	// everyone
	n, err := runUntilBroken(t, cfg, func() {
		if err := os.Rename(samples, samples+".old"); err != nil {
			t.Error(err)
		}
		if err := os.WriteFile(samples, nil, 0o644); err != nil {
			t.Error(err)
		}
	})
	if !strings.Contains(err.Error(), samples) {
		t.Errorf("error %q does not name the file", err)
	}
	os.Remove(samples)
	os.Rename(samples+".old", samples)
	checkKept(t, cfg.Run.Dir, n)
}

func TestReadOnlyDirStopsTheRun(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only directories; TestWriteErrorStopsTheRun covers the case")
	}
	cfg := testConfig(t, rules.Sho)
	samples := filepath.Join(cfg.Run.Dir, checkpoints.SamplesDir)
	runUntilBroken(t, cfg, func() {
		if err := os.Chmod(samples, 0o555); err != nil {
			t.Error(err)
		}
	})
	os.Chmod(samples, 0o755)
}

// TestFullDiskStopsTheRun plays into a 96 KiB tmpfs until it is full.
func TestFullDiskStopsTheRun(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	cfg := testConfig(t, rules.Sho)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=96k", "tmpfs", cfg.Run.Dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", cfg.Run.Dir).Run() })
	n, err := runUntilBroken(t, cfg, nil)
	if !strings.Contains(err.Error(), "no space left") {
		t.Errorf("error %q, want the disk full", err)
	}
	checkKept(t, cfg.Run.Dir, n)
}
