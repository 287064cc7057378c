package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"chuzero/checkpoints"
)

// TestVerify: a run that self-play wrote verifies; a damaged sample file,
// a duplicated record file and a missing directory do not.
func TestVerify(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, errs := runCmd("selfplay", "-run", dir, "-config", writeQuickConfig(t), "-max-games", "3", "-metrics-addr", "off", "-quiet"); code != 0 {
		t.Fatalf("selfplay: %s", errs)
	}
	code, out, _ := runCmd("verify", "-run", dir)
	if code != 0 || !strings.Contains(out, "3 games in 3 record files, 0 duplicate game ids, 0 unpaired files") {
		t.Fatalf("verify of a sound run: exit %d, %q", code, out)
	}
	run := checkpoints.Run{Dir: dir}
	recs, _ := filepath.Glob(filepath.Join(run.Games(), "*.jsonl"))
	data, _ := os.ReadFile(recs[0])
	os.WriteFile(filepath.Join(run.Games(), "copy.jsonl"), data, 0o644)
	samples, _ := filepath.Glob(filepath.Join(run.Samples(), "*.samples"))
	data, _ = os.ReadFile(samples[0])
	data[len(data)/2] ^= 0xff
	os.WriteFile(samples[0], data, 0o644)
	code, out, _ = runCmd("verify", "-run", dir)
	if code != 1 || !strings.Contains(out, "1 duplicate game ids, 1 unpaired files") || !strings.Contains(out, "problem: encode:") {
		t.Errorf("verify of a damaged run: exit %d, %q", code, out)
	}
	// damaged pins are problems too, and verify changes nothing in the run
	os.MkdirAll(run.Anchors(), 0o755)
	os.WriteFile(run.Anchor("first"), []byte("not a checkpoint"), 0o644)
	os.WriteFile(run.Best(), []byte(`{"name":"step-000000007","step":7}`), 0o644)
	before := snapshot(t, dir)
	code, out, _ = runCmd("verify", "-run", dir)
	if code != 1 || !strings.Contains(out, "0 anchors, best checkpoint none") || !strings.Contains(out, "anchors/first.ckpt") ||
		!strings.Contains(out, "best.json names step-000000007") {
		t.Errorf("verify of damaged pins: exit %d, %q", code, out)
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("verify changed the run:\n%s\n%s", before, after)
	}
	if code, _, errs := runCmd("verify", "-run", filepath.Join(dir, "nothing")); code != 1 || errs == "" {
		t.Errorf("a missing run: exit %d, %q", code, errs)
	}
}

// snapshot lists every file and directory under dir with its size and
// modification time.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %d\n", p, info.Size(), info.ModTime().UnixNano())
		return nil
	})
	return b.String()
}
