package training

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"

	"chuzero/checkpoints"
	"chuzero/checkpoints/atomicfile"
	"chuzero/selfplay/transport/natsjs"
)

// NATS carries a run's batches, config and networks over NATS JetStream
// instead of the run directory alone: a worker publishes its batches and
// follows the trainer's network; the trainer receives the batches and
// publishes the config and each network.
type NATS struct {
	// Client is the connection; an empty Run takes the run directory's
	// base name (ClientConfig), and with Embedded set an empty URL is the
	// embedded server's.
	Client natsjs.Config
	// Embedded, for a trainer, serves JetStream from this process on this
	// address, with storage in the run's nats/.
	Embedded string
	// EmbeddedAuth is the embedded server's NKEY authentication: "auto"
	// (on unless Embedded is loopback; ""), "on" or "off" (loopback only).
	EmbeddedAuth string
	// MaxMemory and MaxStore are the embedded server's JetStream limits in
	// bytes (0: natsjs's defaults).
	MaxMemory, MaxStore int64
	// Stdout, if set, is told the embedded server's address.
	Stdout io.Writer
}

// ClientConfig returns the client config for the run in dir: Client, its
// run name defaulting to the directory's base name.
func (n *NATS) ClientConfig(run checkpoints.Run) natsjs.Config {
	c := n.Client
	if c.Run == "" {
		abs, _ := filepath.Abs(run.Dir)
		c.Run = natsjs.RunName(filepath.Base(abs))
	}
	return c
}

// FetchConfig writes the run config the trainer published into the
// worker's run directory dir, where Load reads it; it waits for the
// trainer until ctx ends.
func FetchConfig(ctx context.Context, c natsjs.Config, run checkpoints.Run) error {
	w, err := natsjs.NewWorker(c, run, nil, nil)
	if err != nil {
		return err
	}
	defer w.Close()
	data, err := w.Config(ctx)
	if err != nil {
		return fmt.Errorf("the run config from NATS: %w", err)
	}
	return atomicfile.Write(run.Config(), data)
}

// WorkerSeed gives each NATS worker its own seed: the run seed mixed with
// the worker's name.
func WorkerSeed(seed uint64, worker string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(worker))
	return seed ^ h.Sum64()
}

// workerName is the default name of a NATS worker: host-pid.
func workerName() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s-%d", host, os.Getpid())
}
