package transport

import (
	"context"
	"fmt"
	"os"
	"time"

	"chuzero/checkpoints"
	"chuzero/checkpoints/atomicfile"
)

// Dir is the run directory as a Publisher, the default: batches are
// written straight into its samples/ and games/ (the sample file first,
// each atomically); the config is its config.json and the networks its
// checkpoint store, which self-play polls, so nothing else needs sending.
// Several processes may share a directory (on a shared filesystem, across
// machines).
type Dir struct {
	Run checkpoints.Run
}

// NewDir returns the transport of run directory run, creating samples/
// and games/ and removing from them the temporary files of writes a crash
// cut off more than a minute ago.
func NewDir(run checkpoints.Run) (Dir, error) {
	d := Dir{Run: run}
	for _, p := range []string{d.Run.Samples(), d.Run.Games()} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			return d, fmt.Errorf("transport: %w", err)
		}
		if _, err := atomicfile.RemoveTemps(p, time.Minute); err != nil {
			return d, fmt.Errorf("transport: %w", err)
		}
	}
	return d, nil
}

// Paths returns where the files of batch name go.
func (d Dir) Paths(name string) (samples, records string) {
	return d.Run.Batch(name)
}

// Publish writes b's sample file, then its record file, atomically.
func (d Dir) Publish(_ context.Context, b Batch) error {
	if !ValidName(b.Name) {
		return fmt.Errorf("transport: bad batch name %q", b.Name)
	}
	sp, rp := d.Paths(b.Name)
	if err := atomicfile.Write(sp, b.Samples); err != nil {
		return err
	}
	return atomicfile.Write(rp, b.Records)
}

var _ Publisher = Dir{}
