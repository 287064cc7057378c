package checkpoints

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"chuzero/checkpoints/atomicfile"
)

// Store is the checkpoint directory of a run: files named
// step-000000100.ckpt, one per saved training step. Several processes may
// read it while one trainer writes it; every write is atomic.
type Store struct {
	Dir string
}

// Ext is the checkpoint file extension.
const Ext = ".ckpt"

// Entry is one checkpoint file.
type Entry struct {
	Name    string // "step-000000100"
	Step    int64
	Path    string
	ModTime time.Time
	Size    int64
}

// Name returns the checkpoint name of a training step.
func Name(step int64) string { return fmt.Sprintf("step-%09d", step) }

// parseName returns the step of a checkpoint name, or false.
func parseName(name string) (int64, bool) {
	s, ok := strings.CutPrefix(name, "step-")
	if !ok || len(s) < 9 {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n >= 0
}

// Open opens (creating it if needed) the checkpoint directory dir and
// removes temporary files left by an interrupted write.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("checkpoints: %w", err)
	}
	atomicfile.RemoveTemps(dir, time.Minute) // a writer interrupted a while ago, not one at work
	return &Store{Dir: dir}, nil
}

// List returns the checkpoints, oldest step first.
func (s *Store) List() ([]Entry, error) {
	des, err := os.ReadDir(s.Dir)
	if err != nil {
		return nil, fmt.Errorf("checkpoints: %w", err)
	}
	var out []Entry
	for _, d := range des {
		name, ok := strings.CutSuffix(d.Name(), Ext)
		if !ok || d.IsDir() {
			continue
		}
		step, ok := parseName(name)
		if !ok {
			continue
		}
		info, err := d.Info()
		if err != nil {
			continue // removed meanwhile
		}
		out = append(out, Entry{Name: name, Step: step, Path: filepath.Join(s.Dir, d.Name()), ModTime: info.ModTime(), Size: info.Size()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Step < out[j].Step })
	return out, nil
}

// ErrNone is returned when the store holds no checkpoint.
var ErrNone = errors.New("checkpoints: no checkpoint yet")

// Latest returns the newest checkpoint.
func (s *Store) Latest() (Entry, error) {
	l, err := s.List()
	if err != nil {
		return Entry{}, err
	}
	if len(l) == 0 {
		return Entry{}, ErrNone
	}
	return l[len(l)-1], nil
}

// DamagedExt is added to the name of a checkpoint found damaged, which
// moves it out of List's sight and keeps it for inspection.
const DamagedExt = ".damaged"

// Damaged is a checkpoint that did not read, and why.
type Damaged struct {
	Entry
	Err error
}

// LatestSound returns the newest checkpoint that reads in full (every
// checksum), read, and the newer ones that did not (the caller warns and
// moves them aside with Quarantine). ErrNone when the store is empty; the
// oldest one's read error when no checkpoint reads.
func (s *Store) LatestSound() (Entry, *Checkpoint, []Damaged, error) {
	l, err := s.List()
	if err != nil {
		return Entry{}, nil, nil, err
	}
	if len(l) == 0 {
		return Entry{}, nil, nil, ErrNone
	}
	var damaged []Damaged
	for i := len(l) - 1; i >= 0; i-- {
		c, err := ReadFile(l[i].Path)
		if err == nil {
			return l[i], c, damaged, nil
		}
		damaged = append(damaged, Damaged{l[i], err})
	}
	return Entry{}, nil, damaged, damaged[len(damaged)-1].Err
}

// Quarantine renames a damaged checkpoint to its name plus DamagedExt.
func (s *Store) Quarantine(e Entry) error {
	if err := os.Rename(e.Path, e.Path+DamagedExt); err != nil {
		return fmt.Errorf("checkpoints: %w", err)
	}
	return atomicfile.SyncDir(s.Dir)
}

// Find resolves a checkpoint reference: "latest", a name
// ("step-000000100"), a step number ("100") or a file path.
func (s *Store) Find(ref string) (Entry, error) {
	if ref == "latest" {
		return s.Latest()
	}
	if strings.ContainsRune(ref, os.PathSeparator) || strings.HasSuffix(ref, Ext) {
		info, err := os.Stat(ref)
		if err != nil {
			return Entry{}, fmt.Errorf("checkpoints: %w", err)
		}
		name := strings.TrimSuffix(filepath.Base(ref), Ext)
		step, _ := parseName(name)
		return Entry{Name: name, Step: step, Path: ref, ModTime: info.ModTime(), Size: info.Size()}, nil
	}
	want, ok := parseName(ref)
	if !ok {
		n, err := strconv.ParseInt(ref, 10, 64)
		if err != nil {
			return Entry{}, fmt.Errorf("checkpoints: %q is not latest, a checkpoint name, a step or a path", ref)
		}
		want = n
	}
	l, err := s.List()
	if err != nil {
		return Entry{}, err
	}
	for _, e := range l {
		if e.Step == want {
			return e, nil
		}
	}
	return Entry{}, fmt.Errorf("checkpoints: no checkpoint of step %d in %s", want, s.Dir)
}

// Load reads the checkpoint ref refers to (see Find).
func (s *Store) Load(ref string) (*Checkpoint, Entry, error) {
	e, err := s.Find(ref)
	if err != nil {
		return nil, Entry{}, err
	}
	c, err := ReadFile(e.Path)
	return c, e, err
}

// Path returns where the store keeps the checkpoint named name (a
// Name(step)); a name that is not one, such as a path, is an error, so
// a name from elsewhere (a network published over NATS) cannot point
// outside the store.
func (s *Store) Path(name string) (string, error) {
	if _, ok := parseName(name); !ok {
		return "", fmt.Errorf("checkpoints: %q is not a checkpoint name (step-NNNNNNNNN)", name)
	}
	return filepath.Join(s.Dir, name+Ext), nil
}

// Save writes c as the checkpoint of its step (atomically; an existing
// checkpoint of the same step is replaced).
func (s *Store) Save(c *Checkpoint) (Entry, error) {
	name := Name(c.Meta.Step)
	path, _ := s.Path(name)
	if err := WriteFile(path, c); err != nil {
		return Entry{}, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return Entry{}, fmt.Errorf("checkpoints: %w", err)
	}
	return Entry{Name: name, Step: c.Meta.Step, Path: path, ModTime: info.ModTime(), Size: info.Size()}, nil
}

// Prune deletes old checkpoints, keeping the newest keepLast and every
// keepEvery-th of the rest (counted from the oldest, so the first
// checkpoint stays); it returns the deleted entries. keepEvery 0 keeps
// none of the rest.
func (s *Store) Prune(keepLast, keepEvery int) ([]Entry, error) {
	l, err := s.List()
	if err != nil {
		return nil, err
	}
	var gone []Entry
	for i, e := range l {
		if i >= len(l)-keepLast || (keepEvery > 0 && i%keepEvery == 0) {
			continue
		}
		if err := os.Remove(e.Path); err != nil && !os.IsNotExist(err) {
			return gone, fmt.Errorf("checkpoints: %w", err)
		}
		gone = append(gone, e)
	}
	return gone, nil
}
