package model

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"chuzero/rules"
)

// TestQuarantine: a damaged sample file and a FIFO are moved to
// samples/quarantine with their reasons, once; a restarted window does
// not see them again; the good file loads; KeepFiles moves nothing.
func TestQuarantine(t *testing.T) {
	for _, keep := range []bool{false, true} {
		dir := t.TempDir()
		writeNamed(t, dir, "a", gameSamples(t, rules.Sho, 1, 30))
		bad := writeNamed(t, dir, "b", gameSamples(t, rules.Sho, 2, 30))
		data, _ := os.ReadFile(bad)
		data[len(data)/2] ^= 0xff
		os.WriteFile(bad, data, 0o644)
		fifo := filepath.Join(dir, "c.samples")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		cfg := smallWindow()
		cfg.KeepFiles = keep
		r := openReplay(t, dir, cfg)
		if _, err := r.Refresh(); err == nil {
			t.Fatal("a damaged file and a FIFO refreshed without an error")
		}
		if r.Total()+int64(r.HeldOut()) == 0 || len(r.Corrupt()) != 2 {
			t.Fatalf("keep %v: %d samples loaded, %d files corrupt", keep, r.Total(), len(r.Corrupt()))
		}
		want := int64(2)
		if keep {
			want = 0
		}
		if r.Quarantined() != want {
			t.Fatalf("keep %v: %d files quarantined, want %d", keep, r.Quarantined(), want)
		}
		if keep {
			if _, err := os.Stat(bad); err != nil {
				t.Errorf("KeepFiles moved %s: %v", bad, err)
			}
			continue
		}
		for _, p := range []string{bad, fifo} {
			reason, err := os.ReadFile(QuarantinePath(p) + ReasonExt)
			if _, serr := os.Lstat(QuarantinePath(p)); serr != nil || err != nil || len(reason) == 0 {
				t.Errorf("%s not in quarantine with its reason: %v %v", p, serr, err)
			}
			if _, err := os.Lstat(p); err == nil {
				t.Errorf("%s still in samples/", p)
			}
		}
		if reason, _ := os.ReadFile(QuarantinePath(fifo) + ReasonExt); !strings.Contains(string(reason), "not a regular file") {
			t.Errorf("the FIFO's reason: %q", reason)
		}
		r2 := openReplay(t, dir, cfg)
		if _, err := r2.Refresh(); err != nil || len(r2.Corrupt()) != 0 || r2.Total() != r.Total() {
			t.Errorf("a restarted window: err %v, %d corrupt, %d samples (want %d)", err, len(r2.Corrupt()), r2.Total(), r.Total())
		}
	}
}
