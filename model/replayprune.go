package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"chuzero/checkpoints/atomicfile"
)

// PruneLedgerName is the file, in the samples directory, that keeps the
// counts of the sample files pruning deleted, so that the window's
// schedule (which depends on every sample ever loaded) survives them.
const PruneLedgerName = "pruned.json"

// pruneLedger is PruneLedgerName: the totals of the deleted files, and the
// files of a deletion in progress (counted once they are gone; a file of
// Pending still present after a crash is loaded and counted as any other).
type pruneLedger struct {
	Files   int64         `json:"files"`
	Samples int64         `json:"samples"`      // training samples
	Held    int64         `json:"held_samples"` // held-out samples
	Games   int64         `json:"games"`        // training games
	Through string        `json:"through"`      // the newest file name deleted
	Pending []prunedEntry `json:"pending,omitempty"`
}

// prunedEntry is one file of a deletion in progress.
type prunedEntry struct {
	Name                string `json:"name"`
	Samples, Held, Game int64
}

// LedgerPath returns the ledger's path in a samples directory.
func LedgerPath(samplesDir string) string { return filepath.Join(samplesDir, PruneLedgerName) }

// readLedger reads a samples directory's ledger, folding in the pending
// entries whose files are gone. A missing ledger is an empty one; a
// damaged one is reported and counts nothing (the window's schedule then
// counts only the files present).
func readLedger(dir string) (pruneLedger, error) {
	var l pruneLedger
	data, err := os.ReadFile(LedgerPath(dir))
	if errors.Is(err, os.ErrNotExist) {
		return l, nil
	}
	if err == nil {
		err = json.Unmarshal(data, &l)
	}
	if err != nil || l.Files < 0 || l.Samples < 0 || l.Held < 0 || l.Games < 0 {
		return pruneLedger{}, fmt.Errorf("model: the prune ledger %s is unreadable, counting only the files present: %v", LedgerPath(dir), err)
	}
	for _, p := range l.Pending {
		if _, err := os.Stat(filepath.Join(dir, p.Name)); errors.Is(err, os.ErrNotExist) {
			l.fold(p)
		}
	}
	l.Pending = nil
	return l, nil
}

func (l *pruneLedger) fold(p prunedEntry) {
	l.Files++
	l.Samples += p.Samples
	l.Held += p.Held
	l.Games += p.Game
	l.Through = max(l.Through, p.Name)
}

func (l *pruneLedger) write(dir string) error {
	data, _ := json.MarshalIndent(l, "", "  ")
	return atomicfile.Write(LedgerPath(dir), append(data, '\n'))
}

// Prune deletes the loaded sample files whose samples all lie older than
// the window and its margin (PruneMargin of it), and than the newest
// HoldOutMax held-out samples, unless KeepFiles is set. Their counts go to
// the ledger first, so a crash at any point neither loses nor doubles a
// count. It returns the first error; the files it could not delete stay.
func (r *Replay) Prune() error {
	if r.cfg.KeepFiles || r.ledger == nil {
		return nil
	}
	keep := int64(float64(r.cfg.windowAt(r.total)) * (1 + r.cfg.PruneMargin))
	var victims []string
	for name, st := range r.files {
		if st.TrainEnd <= r.total-keep && (st.Held == 0 || st.HeldEnd <= r.heldN-int64(r.cfg.HoldOutMax)) {
			victims = append(victims, name)
		}
	}
	if len(victims) == 0 {
		return nil
	}
	sort.Strings(victims)
	l := *r.ledger
	for _, name := range victims {
		st := r.files[name]
		l.Pending = append(l.Pending, prunedEntry{Name: filepath.Base(name), Samples: st.Train, Held: st.Held, Game: st.Games})
	}
	if err := l.write(r.dir); err != nil {
		return err
	}
	var errs []error
	for i, name := range victims {
		err := os.Remove(name)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		l.fold(l.Pending[i])
		delete(r.files, name)
	}
	l.Pending = nil
	if err := l.write(r.dir); err != nil {
		errs = append(errs, err)
	}
	if err := atomicfile.SyncDir(r.dir); err != nil {
		errs = append(errs, err)
	}
	*r.ledger = l
	return errors.Join(errs...)
}

// Pruned returns how many sample files pruning has deleted over the run.
func (r *Replay) Pruned() int64 {
	if r.ledger == nil {
		return 0
	}
	return r.ledger.Files
}
