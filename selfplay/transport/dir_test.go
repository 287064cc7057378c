package transport

import (
	"bytes"
	"chuzero/checkpoints"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestDirPublishWritesBothFiles(t *testing.T) {
	d, err := NewDir(checkpoints.Run{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	b := Batch{Name: "20260101T000000Z-host-1-00001-g3", Samples: []byte("samples"), Records: []byte("{}\n"), Games: 1}
	if err := d.Publish(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	sp, rp := d.Paths(b.Name)
	for path, want := range map[string][]byte{sp: b.Samples, rp: b.Records} {
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s = %q, %v; want %q", path, got, err, want)
		}
	}
	if err := d.Publish(context.Background(), Batch{Name: "../escape"}); err == nil {
		t.Error("a batch named ../escape was written")
	}
}

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"20260101T000000Z-host-1-00001-g3": true, "a.b_c-d": true,
		"": false, "../x": false, "a/b": false, ".hidden": false, "-x": false, "a b": false, "x\n": false,
	} {
		if got := ValidName(name); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestBatchHash(t *testing.T) {
	a := Batch{Samples: []byte("ab"), Records: []byte("c")}
	b := Batch{Samples: []byte("a"), Records: []byte("bc")}
	if a.Hash() == b.Hash() {
		t.Error("different splits of the same bytes hash alike")
	}
	if a.Hash() != (Batch{Name: "other", Samples: []byte("ab"), Records: []byte("c")}).Hash() {
		t.Error("the hash depends on the name")
	}
}

// TestNewDirRemovesStaleTemps: a directory opened again loses the
// temporary files a kill cut off a while ago, and keeps one a process
// sharing the directory may still be writing.
func TestNewDirRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	d, err := NewDir(checkpoints.Run{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(d.Run.Samples(), ".x.samples.tmp-1")
	fresh := filepath.Join(d.Run.Games(), ".x.jsonl.tmp-2")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	if _, err := NewDir(checkpoints.Run{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale temporary file is still there: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("the fresh temporary file is gone: %v", err)
	}
}
