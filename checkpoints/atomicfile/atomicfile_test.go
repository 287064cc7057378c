package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	if err := Write(p, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("two")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	st, _ := os.Stat(p)
	if string(b) != "two" || st.Mode().Perm() != Mode {
		t.Errorf("got %q, mode %v; want \"two\", %v", b, st.Mode().Perm(), Mode)
	}
	// a writer that fails leaves the old file and no temporary file
	boom := errors.New("boom")
	err := WriteFrom(p, func(w io.Writer) error { w.Write([]byte("part")); return boom })
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), p) {
		t.Errorf("error %v, want boom naming %s", err, p)
	}
	if b, _ := os.ReadFile(p); string(b) != "two" {
		t.Errorf("a failed write changed the file to %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries left in the directory, want 1", len(entries))
	}
	// a missing directory is an error naming the path
	if err := Write(filepath.Join(dir, "no", "f"), nil); err == nil || !strings.Contains(err.Error(), "no/f") {
		t.Errorf("write into a missing directory: %v", err)
	}
}

// TestRemoveTemps removes what a cut-off write left (".NAME.tmp-*") a
// while ago, and nothing else: not a temporary file a write may still be
// at, nor another file.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for _, n := range []string{".a.samples.tmp-123", ".b.jsonl.tmp-9", ".c.jsonl.tmp-7", "a.samples", "c.tmp-1", ".hidden"} {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if n != ".c.jsonl.tmp-7" { // the write at work
			os.Chtimes(p, old, old)
		}
	}
	n, err := RemoveTemps(dir, time.Minute)
	if err != nil || n != 2 {
		t.Fatalf("RemoveTemps: %d, %v; want 2", n, err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*")) // dot files too
	if len(left) != 4 {
		t.Errorf("left %v; want .c.jsonl.tmp-7, .hidden, a.samples and c.tmp-1", left)
	}
}
