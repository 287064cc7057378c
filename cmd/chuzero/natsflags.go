package main

import (
	"flag"
	"io"
	"time"

	"chuzero/selfplay/training"
	"chuzero/selfplay/transport/natsjs"
)

// natsFlags are the NATS JetStream flags of "selfplay" and "trainer".
type natsFlags struct {
	url, embedded, run, worker string
	creds, nkey, ca, cert, key string
	tls                        bool
	embeddedAuth               string
	maxBytes, maxMemory        int64
	maxStore                   int64
	maxAge                     time.Duration
	replicas, maxAckPending    int
}

// register adds the flags; trainer adds -embedded-nats and the stream's
// limits, which the trainer sets when it creates the stream.
func (n *natsFlags) register(fs *flag.FlagSet, trainer bool) {
	fs.StringVar(&n.url, "nats", "", "NATS server `URL`s (comma-separated): batches, config and networks over JetStream instead of the run directory alone")
	fs.StringVar(&n.run, "nats-run", "", "run name in the NATS subjects and buckets (default: the run directory's base name)")
	fs.StringVar(&n.creds, "nats-creds", "", "NATS credentials file")
	fs.StringVar(&n.nkey, "nats-nkey", "", "NATS NKEY seed file")
	fs.StringVar(&n.ca, "nats-ca", "", "CA file to verify the NATS server with")
	fs.StringVar(&n.cert, "nats-cert", "", "client certificate file for NATS (with -nats-key)")
	fs.StringVar(&n.key, "nats-key", "", "client key file for NATS")
	fs.BoolVar(&n.tls, "nats-tls", false, "require TLS to the NATS server")
	if trainer {
		fs.StringVar(&n.embedded, "embedded-nats", "", "serve NATS JetStream from this process on `ADDR` (e.g. 127.0.0.1:4222; storage in DIR/nats)")
		fs.StringVar(&n.embeddedAuth, "embedded-nats-auth", "auto", "NKEY authentication of the embedded server: auto (on unless ADDR is loopback), on, or off (loopback only); the keys are made in DIR/nats-keys")
		fs.Int64Var(&n.maxMemory, "nats-max-memory", 0, "JetStream memory limit of the embedded server in bytes (default 256 MiB)")
		fs.Int64Var(&n.maxStore, "nats-max-store", 0, "JetStream storage limit of the embedded server in bytes (default 16 GiB)")
		fs.Int64Var(&n.maxBytes, "nats-max-bytes", 0, "most bytes the batch stream keeps (default 8 GiB)")
		fs.DurationVar(&n.maxAge, "nats-max-age", 0, "oldest batch the stream keeps (default 168h)")
		fs.IntVar(&n.replicas, "nats-replicas", 0, "copies of the stream and buckets (default 1; 3 on a 3-node cluster)")
		fs.IntVar(&n.maxAckPending, "nats-max-ack-pending", 0, "messages the trainer may hold unacknowledged (default 1024; above workers times the parts of a batch)")
	} else {
		fs.StringVar(&n.worker, "worker-id", "", "this worker's name in the trainer's metrics (default host-pid)")
	}
}

// on reports whether NATS is in use.
func (n *natsFlags) on() bool { return n.url != "" || n.embedded != "" }

// options returns the library's NATS options; stdout, if set, is told
// the embedded server's address.
func (n *natsFlags) options(stdout io.Writer) *training.NATS {
	return &training.NATS{
		Client: natsjs.Config{URL: n.url, Run: n.run, Worker: n.worker, Creds: n.creds, NKeySeed: n.nkey, CA: n.ca,
			Cert: n.cert, Key: n.key, TLS: n.tls, MaxBytes: n.maxBytes, MaxAge: n.maxAge, Replicas: n.replicas,
			MaxAckPending: n.maxAckPending},
		Embedded: n.embedded, EmbeddedAuth: n.embeddedAuth, MaxMemory: n.maxMemory, MaxStore: n.maxStore, Stdout: stdout,
	}
}
