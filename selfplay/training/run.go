// Package training is a training run as a library: the run's config (the
// embedded defaults, the run directory's config.json, a config file; its
// schema is package runconfig's with the trainer's section typed), the
// run's decisions (the judge: evaluation against anchors, SPRT gating and
// promotion, in judge.go; the run-wide resignation threshold over NATS,
// in resign.go), and
// the three processes a run is made of, each built from that config and
// run until a context ends:
//
//   - Train: self-play and training side by side in one process (the
//     "chuzero train" command);
//   - Worker: self-play alone, into a run directory shared with a trainer
//     or over NATS JetStream ("chuzero selfplay");
//   - Trainer: training alone, on the samples the workers write or
//     publish ("chuzero trainer").
//
// Each wires the pieces of the packages below it: the checkpoint store
// (checkpoints), the training loop and the batching network evaluator
// (model), the game runner (selfplay), the matches (arena), the transport of batches (transport, natsjs), the logs
// (report) and the Prometheus metrics (Metrics). A command parses flags
// into Options and calls New*, Run and Close; so can a test or a service.
package training

import (
	"fmt"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"chuzero/checkpoints"
	"chuzero/model"
)

// Options are what a process of a run needs: the run's directory and
// config, and where it reports.
type Options struct {
	// Run is the run directory.
	Run checkpoints.Run
	// Config is the run's effective config (Load, then Validate; Write
	// stores it in the run's config.json, which a NATS trainer publishes).
	Config Config
	// Log gets the run's log lines (nil: none).
	Log *slog.Logger
	// Registry, if set, gets the run's Prometheus metrics: one registry
	// for each process (nil: a registry of the process's own).
	Registry prometheus.Registerer
	// Observer, if set, is shown the games, steps and checkpoints.
	Observer Observer
	// NATS, if set, carries the batches, the config and the networks over
	// NATS JetStream (a Worker or a Trainer; Train ignores it).
	NATS *NATS
}

// proc is the setup every process shares: Options with their defaults
// filled in, and the metrics registered.
type proc struct {
	cfg Config
	run checkpoints.Run
	log *slog.Logger
	reg prometheus.Registerer
	m   *Metrics
	obs Observer
}

func newProc(o Options) *proc {
	p := &proc{cfg: o.Config, run: o.Run, log: o.Log, reg: o.Registry, obs: o.Observer}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	if p.reg == nil {
		p.reg = prometheus.NewRegistry()
	}
	if p.obs == nil {
		p.obs = noObserver{}
	}
	p.m = NewMetrics(p.reg)
	return p
}

// LoadNet loads a checkpoint into an inference network, refusing one of
// another variant (checkpoints.ErrMismatch).
func LoadNet(e checkpoints.Entry, variant string) (*model.Net, error) {
	c, err := checkpoints.ReadFile(e.Path)
	if err != nil {
		return nil, err
	}
	if c.Meta.Variant != variant {
		return nil, fmt.Errorf("%s: a %s network in a %s run: %w", e.Path, c.Meta.Variant, variant, checkpoints.ErrMismatch)
	}
	w, err := model.WeightsFromCheckpoint(c)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.Path, err)
	}
	return model.NewNet(w), nil
}
