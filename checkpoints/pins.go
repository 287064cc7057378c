package checkpoints

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"chuzero/checkpoints/atomicfile"
)

// Checkpoints that pruning must not take are pinned by copy: the anchors
// of evaluation (anchors/first.ckpt, the run's first checkpoint, kept
// once; anchors/previous.ckpt, the one evaluated last) and, under gating,
// the best checkpoint (best.ckpt, named by best.json).

// BestRecord is best.json.
type BestRecord struct {
	Name string    `json:"name"`
	Step int64     `json:"step"`
	Time time.Time `json:"time"`
}

// ReadBest returns the run's best checkpoint (its copy best.ckpt, under
// the original's name and step); ok is false before the first.
func (r Run) ReadBest() (e Entry, ok bool, err error) {
	data, err := os.ReadFile(r.Best())
	if errors.Is(err, os.ErrNotExist) {
		return Entry{}, false, nil
	}
	if err != nil {
		return Entry{}, false, fmt.Errorf("checkpoints: %w", err)
	}
	var b BestRecord
	if err := json.Unmarshal(data, &b); err != nil {
		return Entry{}, false, fmt.Errorf("checkpoints: %s: %w", r.Best(), err)
	}
	return Entry{Name: b.Name, Step: b.Step, Path: r.BestCheckpoint()}, true, nil
}

// SetBest makes e the best checkpoint: a copy as best.ckpt, then
// best.json. It returns the entry of the copy.
func (r Run) SetBest(e Entry) (Entry, error) {
	if e.Path != r.BestCheckpoint() {
		if err := copyFile(e.Path, r.BestCheckpoint()); err != nil {
			return Entry{}, err
		}
	}
	data, _ := json.Marshal(BestRecord{Name: e.Name, Step: e.Step, Time: time.Now().UTC()})
	if err := atomicfile.Write(r.Best(), append(data, '\n')); err != nil {
		return Entry{}, fmt.Errorf("checkpoints: %w", err)
	}
	return Entry{Name: e.Name, Step: e.Step, Path: r.BestCheckpoint()}, nil
}

// Pin copies e to anchors/name.ckpt, replacing an earlier pin.
func (r Run) Pin(name string, e Entry) error {
	if err := os.MkdirAll(r.path(AnchorsDir), 0o755); err != nil {
		return fmt.Errorf("checkpoints: %w", err)
	}
	return copyFile(e.Path, r.Anchor(name))
}

// PinFirst pins the store's oldest checkpoint as "first", once: a pin
// that exists stays.
func (r Run) PinFirst(s *Store) error {
	if _, err := os.Stat(r.Anchor("first")); err == nil {
		return nil
	}
	list, err := s.List()
	if err != nil || len(list) == 0 {
		return err
	}
	return r.Pin("first", list[0])
}

// Pinned returns the pinned checkpoint name, with the step it holds.
func (r Run) Pinned(name string) (Entry, error) {
	p := r.Anchor(name)
	c, err := ReadFile(p)
	if err != nil {
		return Entry{}, err
	}
	return Entry{Name: Name(c.Meta.Step), Step: c.Meta.Step, Path: p}, nil
}

// copyFile copies a checkpoint file atomically.
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("checkpoints: %w", err)
	}
	if err := atomicfile.Write(dst, data); err != nil {
		return fmt.Errorf("checkpoints: %w", err)
	}
	return nil
}
