package main

import (
	"encoding/json"
	"fmt"

	"chuzero/checkpoints"
	"chuzero/selfplay/transport/natsjs"
)

// startEmbedded starts the trainer's embedded NATS server. Off loopback
// (or with -embedded-nats-auth on) it admits only the run's two NKEY
// roles, their seeds made once in DIR/nats-keys (0600): the trainer
// connects as the trainer, workers with -nats-nkey and a copy of
// worker.nk, under the worker's permissions.
func startEmbedded(j *job, nf *natsFlags) (*natsjs.Server, error) {
	run := checkpoints.Run{Dir: j.dir}
	o := natsjs.ServerOptions{Addr: nf.embedded, StoreDir: run.Nats(), Run: nf.config(j.dir).Run,
		MaxMemory: nf.maxMemory, MaxStore: nf.maxStore}
	auth := nf.embeddedAuth
	switch {
	case auth == "auto" && !natsjs.IsLoopback(nf.embedded), auth == "on":
		keys, made, err := natsjs.EnsureKeys(run.NatsKeys())
		if err != nil {
			return nil, err
		}
		o.Keys = &keys
		if made {
			j.log.Info("made the NATS keys of the run", "trainer", keys.Trainer, "worker", keys.Worker)
		}
	case auth == "off" && !natsjs.IsLoopback(nf.embedded):
		return nil, fmt.Errorf("-embedded-nats %s is off loopback: it needs -embedded-nats-auth on (or auto), not off", nf.embedded)
	case auth != "auto" && auth != "off":
		return nil, fmt.Errorf("-embedded-nats-auth %q: want auto, on or off", auth)
	}
	srv, err := natsjs.StartServer(o)
	if err != nil {
		return nil, err
	}
	if nf.url == "" {
		nf.url = srv.URL()
		if o.Keys != nil && nf.nkey == "" && nf.creds == "" {
			nf.nkey = o.Keys.Trainer
		}
	}
	j.log.Info("embedded NATS JetStream server", "url", srv.URL(), "authenticated", o.Keys != nil)
	if o.Keys != nil {
		fmt.Fprintf(j.stdout, "nats: %s (NKEY authentication; workers: -nats nats://THIS-HOST:PORT -nats-nkey <a copy of %s>)\n", srv.URL(), o.Keys.Worker)
	} else {
		fmt.Fprintf(j.stdout, "nats: %s\n", srv.URL())
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
