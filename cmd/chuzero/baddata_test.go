package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/rules"
)

// TestCorruptCheckpoint: a damaged newest checkpoint is moved aside with a
// warning and the run resumes from the previous one; when no checkpoint
// reads, the run stops with an error that names the file, never a panic
// or a silent partial load.
func TestCorruptCheckpoint(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := writeQuickConfig(t)
	if code, out, errs := runCmd("train", "-run", dir, "-config", cfg, "-max-steps", "1", "-metrics-addr", "off", "-quiet"); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	store := &checkpoints.Store{Dir: filepath.Join(dir, "checkpoints")}
	e, err := store.Latest() // step 1; step 0 stays sound
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(e.Path)
	data[len(data)/3] ^= 0xff
	os.WriteFile(e.Path, data, 0o644)
	code, _, errs := runCmd("train", "-run", dir, "-max-steps", "1", "-metrics-addr", "off", "-quiet")
	if code != 0 || !strings.Contains(errs, "the newest checkpoint is damaged") || !strings.Contains(errs, e.Name) {
		t.Errorf("a damaged newest checkpoint: exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(e.Path + checkpoints.DamagedExt); err != nil {
		t.Errorf("the damaged checkpoint was not moved aside: %v", err)
	}
	list, _ := store.List()
	for _, e := range list { // every checkpoint damaged: nothing to resume from
		data, _ := os.ReadFile(e.Path)
		data[len(data)/3] ^= 0xff
		os.WriteFile(e.Path, data, 0o644)
	}
	code, _, errs = runCmd("train", "-run", dir, "-duration", "2s", "-metrics-addr", "off", "-quiet")
	if code == 0 || !strings.Contains(errs, "SHA-256") {
		t.Errorf("no sound checkpoint: exit %d, stderr %q", code, errs)
	}
}

// hostileSamples is how many invalid samples writeHostileSamples writes.
const hostileSamples = 5

// writeHostileSamples writes a sound Sho sample file of samples that fail
// validation in every way a hostile or buggy writer could manage, and one
// good sample.
func writeHostileSamples(t *testing.T, path string) {
	t.Helper()
	g := rules.NewGame(rules.MustNew(rules.DefaultConfig(rules.Sho)).StartPosition())
	good := encode.NewSample(g, 77)
	bad := make([]encode.Sample, hostileSamples)
	for i := range bad {
		bad[i] = good
		bad[i].GameID = uint64(1000 + i)
	}
	bad[0].SFEN = "not a position"
	bad[1].RootValue = float32(math.NaN())
	bad[2].EndValue = float32(math.Inf(-1))
	bad[3].Policy = []encode.PolicyEntry{{Index: 1 << 30, Prob: 1}}
	bad[4].Policy = []encode.PolicyEntry{{Index: 0, Prob: 1e30}}
	w, err := encode.CreateSampleFile(path, rules.Sho)
	if err == nil {
		err = w.WriteChunk(append(bad, good))
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
}
