package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/model"
)

// TestNonRegularFiles: a FIFO named like a sample file, a checkpoint and a
// game record (opening one blocks until a writer comes) is skipped and
// counted; training still takes its steps and stops on its bound, and
// verify finishes and names it.
func TestNonRegularFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := writeQuickConfig(t)
	if code, _, errs := runCmd("train", "-run", dir, "-config", cfg, "-max-steps", "1", "-metrics-addr", "off", "-quiet"); code != 0 {
		t.Fatalf("train: %s", errs)
	}
	run := checkpoints.RunAt(dir, "")
	fifos := []string{
		filepath.Join(run.Samples(), "zz-fifo"+encode.SampleFileExt),
		filepath.Join(run.Checkpoints(), checkpoints.Name(999)+checkpoints.Ext),
		filepath.Join(run.Games(), "zz-fifo"+checkpoints.RecordExt),
	}
	for _, f := range fifos {
		if err := syscall.Mkfifo(f, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := runCmd("verify", "-run", dir)
	if code != 1 || !strings.Contains(out, "not a regular file") {
		t.Errorf("verify with FIFOs: exit %d\n%s\n%s", code, out, errs)
	}
	code, _, errs = runCmd("train", "-run", dir, "-max-steps", "3", "-metrics-addr", "off", "-quiet")
	if code != 0 {
		t.Fatalf("train beside FIFOs: exit %d\n%s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(run.Checkpoints(), checkpoints.Name(3)+checkpoints.Ext)); err != nil {
		t.Errorf("training beside FIFOs wrote no step-3 checkpoint: %v\n%s", err, errs)
	}
}

// TestQuarantineAndCopies: training moves a damaged sample file to
// samples/quarantine with its reason and verify counts it there (its
// record file still paired); verify calls a copied sample file a
// duplicate.
func TestQuarantineAndCopies(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := writeQuickConfig(t)
	if code, _, errs := runCmd("train", "-run", dir, "-config", cfg, "-max-steps", "1", "-metrics-addr", "off", "-quiet"); code != 0 {
		t.Fatalf("train: %s", errs)
	}
	run := checkpoints.RunAt(dir, "")
	files, _ := filepath.Glob(filepath.Join(run.Samples(), "*"+encode.SampleFileExt))
	if len(files) < 2 {
		t.Fatalf("%d sample files", len(files))
	}
	data, _ := os.ReadFile(files[0])
	data[len(data)/2] ^= 0xff
	os.WriteFile(files[0], data, 0o644)
	if code, _, errs := runCmd("train", "-run", dir, "-max-steps", "2", "-metrics-addr", "off", "-quiet"); code != 0 {
		t.Fatalf("train beside a damaged file: %s", errs)
	}
	if _, err := os.Stat(model.QuarantinePath(files[0]) + model.ReasonExt); err != nil {
		t.Fatalf("the damaged file is not in quarantine with its reason: %v", err)
	}
	copyOf, _ := os.ReadFile(files[1])
	os.WriteFile(filepath.Join(run.Samples(), "zz-copy"+encode.SampleFileExt), copyOf, 0o644)
	code, out, _ := runCmd("verify", "-run", dir)
	if code != 1 || !strings.Contains(out, "1 duplicate sample files (copies), 1 sample files in quarantine") ||
		!strings.Contains(out, "zz-copy.samples has the same content as") {
		t.Errorf("verify: exit %d\n%s", code, out)
	}
}
