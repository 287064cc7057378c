package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpenRegular reads a regular file and a link to one, and refuses a
// directory and a FIFO at once (a FIFO without a writer would block a
// plain open).
func TestOpenRegular(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := Write(file, []byte("data")); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, link} {
		if b, err := ReadRegular(p); err != nil || string(b) != "data" {
			t.Errorf("ReadRegular(%s) = %q, %v; want \"data\"", p, b, err)
		}
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, p := range []string{dir, fifo} {
		done := make(chan error, 1)
		go func() {
			f, err := OpenRegular(p)
			if err == nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("OpenRegular(%s): %v; want ErrNotRegular", p, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("OpenRegular(%s) blocked", p)
		}
	}
	if _, err := ReadRegular(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadRegular of a missing file: %v; want ErrNotExist", err)
	}
}
