package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Mode is the mode of every file chuzero writes: readable by everyone,
// so that the processes of a run on a shared filesystem (a trainer, its
// self-play workers, a report) can read one another's files.
const Mode os.FileMode = 0o644

// Writer is a file being written atomically: the data go to a temporary
// file beside the final path, and Commit syncs it, gives it Mode,
// renames it into place and syncs the directory, so that a reader sees the
// old file or the new one, never a part, and a crash loses at most the
// file being written. One writer serves checkpoints, sample files, game
// records, logs' companions and reports.
type Writer struct {
	path string
	tmp  *os.File
	err  error
}

// WriteHook, if set, is called by every atomic write at its stages: after
// each Write to the temporary file ("write", the file part written) and
// after the sync, just before the rename ("commit", the whole file
// written, not yet in place). It is for crash tests (a test process that
// kills itself there shows a crash mid-write loses nothing); it must be
// set before any write starts and is nil in production.
var WriteHook func(path, stage string)

// Create starts writing path atomically.
func Create(path string) (*Writer, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return &Writer{path: path, tmp: tmp}, nil
}

// RemoveTemps deletes the temporary files (".NAME.tmp-*") that writes into
// dir left when a crash cut them off, those last modified more than age
// ago: a write at work on a directory shared with other processes is
// younger. It returns how many it removed.
func RemoveTemps(dir string, age time.Duration) (int, error) {
	tmps, err := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
	n := 0
	for _, t := range tmps {
		if info, e := os.Stat(t); e != nil || time.Since(info.ModTime()) <= age {
			continue
		}
		if e := os.Remove(t); e == nil {
			n++
		} else if !errors.Is(e, os.ErrNotExist) {
			err = errors.Join(err, e)
		}
	}
	return n, err
}

// Path returns the final path.
func (a *Writer) Path() string { return a.path }

// Write writes to the temporary file; the first error sticks.
func (a *Writer) Write(b []byte) (int, error) {
	if a.err != nil {
		return 0, a.err
	}
	n, err := a.tmp.Write(b)
	if err != nil {
		a.err = fmt.Errorf("writing %s: %w", a.path, err)
	}
	if WriteHook != nil {
		WriteHook(a.path, "write")
	}
	return n, a.err
}

// Commit moves the file into place (see Writer); on any error the
// temporary file is removed and the error names the path.
func (a *Writer) Commit() error {
	if a.err != nil {
		a.Abort()
		return a.err
	}
	err := a.tmp.Chmod(Mode) // CreateTemp makes 0600
	if err == nil {
		err = a.tmp.Sync()
	}
	if cerr := a.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil && WriteHook != nil {
		WriteHook(a.path, "commit")
	}
	if err == nil {
		err = os.Rename(a.tmp.Name(), a.path)
	}
	if err == nil {
		err = SyncDir(filepath.Dir(a.path))
	}
	if err != nil {
		os.Remove(a.tmp.Name())
		a.tmp = nil
		a.err = fmt.Errorf("writing %s: %w", a.path, err)
		return a.err
	}
	a.tmp = nil
	a.err = fmt.Errorf("writing %s: already committed", a.path)
	return nil
}

// Abort discards the file; after Commit it does nothing.
func (a *Writer) Abort() {
	if a.tmp != nil {
		a.tmp.Close()
		os.Remove(a.tmp.Name())
		a.tmp = nil
	}
	if a.err == nil {
		a.err = fmt.Errorf("writing %s: aborted", a.path)
	}
}

// Write writes data to path atomically (see Writer).
func Write(path string, data []byte) error {
	return WriteFrom(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFrom writes to path atomically what write writes.
func WriteFrom(path string, write func(io.Writer) error) error {
	a, err := Create(path)
	if err != nil {
		return err
	}
	if err := write(a); err != nil {
		werr := a.err // set when the error came from the file itself
		a.Abort()
		if werr != nil {
			return werr
		}
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return a.Commit()
}

// SyncDir fsyncs a directory so that a rename in it is durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
