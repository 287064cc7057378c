package training

import (
	"encoding/json"
	"fmt"
	"log/slog"

	"chuzero/checkpoints"
	"chuzero/selfplay/transport/natsjs"
)

// startEmbedded starts the trainer's embedded NATS server. Off loopback
// (or with EmbeddedAuth "on") it admits only the run's two NKEY roles,
// their seeds made once in the run's nats-keys/ (0600): the trainer
// connects as the trainer, workers with a copy of worker.nk, under the
// worker's permissions. Without a URL of its own, n.Client connects to it.
func startEmbedded(n *NATS, run checkpoints.Run, log *slog.Logger) (*natsjs.Server, error) {
	o := natsjs.ServerOptions{Addr: n.Embedded, StoreDir: run.Nats(), Run: n.ClientConfig(run).Run,
		MaxMemory: n.MaxMemory, MaxStore: n.MaxStore}
	auth := n.EmbeddedAuth
	if auth == "" {
		auth = "auto"
	}
	switch {
	case auth == "auto" && !natsjs.IsLoopback(n.Embedded), auth == "on":
		keys, made, err := natsjs.EnsureKeys(run.NatsKeys())
		if err != nil {
			return nil, err
		}
		o.Keys = &keys
		if made {
			log.Info("made the NATS keys of the run", "trainer", keys.Trainer, "worker", keys.Worker)
		}
	case auth == "off" && !natsjs.IsLoopback(n.Embedded):
		return nil, fmt.Errorf("embedded NATS on %s is off loopback: it needs authentication on (or auto), not off", n.Embedded)
	case auth != "auto" && auth != "off":
		return nil, fmt.Errorf("embedded NATS authentication %q: want auto, on or off", auth)
	}
	srv, err := natsjs.StartServer(o)
	if err != nil {
		return nil, err
	}
	if n.Client.URL == "" {
		n.Client.URL = srv.URL()
		if o.Keys != nil && n.Client.NKeySeed == "" && n.Client.Creds == "" {
			n.Client.NKeySeed = o.Keys.Trainer
		}
	}
	log.Info("embedded NATS JetStream server", "url", srv.URL(), "authenticated", o.Keys != nil)
	if n.Stdout != nil {
		if o.Keys != nil {
			fmt.Fprintf(n.Stdout, "nats: %s (NKEY authentication; workers: -nats nats://THIS-HOST:PORT -nats-nkey <a copy of %s>)\n", srv.URL(), o.Keys.Worker)
		} else {
			fmt.Fprintf(n.Stdout, "nats: %s\n", srv.URL())
		}
	}
	return srv, nil
}

// workerConfig returns the run config the trainer publishes to workers:
// config.json without what belongs to the trainer's process alone (its
// metrics address).
func workerConfig(config []byte) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(config, &m); err != nil {
		return nil, fmt.Errorf("the run config: %w", err)
	}
	delete(m, "metrics_addr")
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}
