package model

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"chuzero/checkpoints/atomicfile"
)

// QuarantineDir is the folder, inside a run's samples/, where the trainer
// moves the sample files it cannot read (damaged, of another variant, not
// a regular file), each with NAME.reason beside it saying why, so that no
// restart parses them again and the operator sees them in one place.
const QuarantineDir = "quarantine"

// ReasonExt ends the name of the text file that says why a file was
// quarantined.
const ReasonExt = ".reason"

// QuarantinePath returns where the sample file path goes in quarantine.
func QuarantinePath(path string) string {
	return filepath.Join(filepath.Dir(path), QuarantineDir, filepath.Base(path))
}

// quarantine moves a sample file the window cannot read out of the
// samples folder, with the reason beside it (written first: a file in
// quarantine always has its reason). Nothing is deleted; a file of the
// same name already there is kept and the new one gets a suffix. With
// KeepFiles the window changes no file, and nothing moves.
func (r *Replay) quarantine(path string, reason error) error {
	if r.cfg.KeepFiles {
		return nil
	}
	dst := QuarantinePath(path)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("model: quarantine: %w", err)
	}
	for i := 1; ; i++ {
		if _, err := os.Lstat(dst); errors.Is(err, os.ErrNotExist) {
			break
		}
		dst = fmt.Sprintf("%s.%d", QuarantinePath(path), i)
	}
	if err := atomicfile.Write(dst+ReasonExt, []byte(reason.Error()+"\n")); err != nil {
		return fmt.Errorf("model: quarantine: %w", err)
	}
	if err := os.Rename(path, dst); err != nil {
		os.Remove(dst + ReasonExt)
		return fmt.Errorf("model: quarantine: %w", err)
	}
	r.quarantined++
	return atomicfile.SyncDir(filepath.Dir(path))
}

// Quarantined returns how many sample files this window moved to
// quarantine.
func (r *Replay) Quarantined() int64 { return r.quarantined }
