package transport

import (
	"context"
	"fmt"
	"os"
	"time"

	"chuzero/checkpoints"
	"chuzero/encode"
)

// Dir is the run directory as a transport, the default: batches are
// written straight into its samples/ and games/ (the sample file first,
// each atomically), the config is its config.json, and networks are its
// checkpoint store, which self-play polls. Several processes may share a
// directory (on a shared filesystem, across machines).
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
		if _, err := encode.RemoveTemps(p, time.Minute); err != nil {
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
	if err := encode.WriteAtomic(sp, b.Samples); err != nil {
		return err
	}
	return encode.WriteAtomic(rp, b.Records)
}

// Config reads config.json.
func (d Dir) Config(context.Context) ([]byte, error) { return os.ReadFile(d.Run.Config()) }

// Follow does nothing until ctx ends: the trainer writes its checkpoints
// into the very store self-play reads.
func (d Dir) Follow(ctx context.Context, _ *checkpoints.Store, _ func(checkpoints.Entry)) error {
	<-ctx.Done()
	return nil
}

// Receive does nothing until ctx ends: self-play writes into the
// directory itself.
func (d Dir) Receive(ctx context.Context) error {
	<-ctx.Done()
	return nil
}

// PublishConfig does nothing: the command has written config.json.
func (d Dir) PublishConfig(context.Context, []byte) error { return nil }

// PublishCheckpoint does nothing: the checkpoint is in the store already.
func (d Dir) PublishCheckpoint(context.Context, checkpoints.Entry) error { return nil }

var (
	_ Worker  = Dir{}
	_ Trainer = Dir{}
)
