package natsjs

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"time"

	"github.com/nats-io/nats.go"
)

// Config configures a connection to NATS and the JetStream objects of one
// run. The zero value of a field means its default (see the field).
type Config struct {
	// URL is the server address, or a comma-separated list of a
	// cluster's ("nats://host1:4222,nats://host2:4222").
	URL string
	// Run names the run in the subjects, stream and buckets: letters,
	// digits, '_' and '-' (see RunName).
	Run string
	// Worker identifies a self-play process in the headers of what it
	// sends and in the trainer's per-worker metrics (default host-pid).
	Worker string

	// Client credentials and TLS, passed through to the client: a
	// credentials file (JWT and NKEY seed), an NKEY seed file, a CA file
	// to verify the server with, a client certificate and key.
	Creds, NKeySeed, CA, Cert, Key string
	// TLS requires TLS even without a CA or certificate ("tls://" URLs do
	// too).
	TLS bool

	// Stream limits, for back-pressure (set by the trainer, which creates
	// the stream): the stream keeps at most MaxBytes (default 8 GiB) of
	// messages, none older than MaxAge (default 7 days); beyond either,
	// the oldest go, acknowledged or not. Replicas is the copies of every
	// stream and bucket (1; 3 on a 3-node cluster).
	MaxBytes int64
	MaxAge   time.Duration
	Replicas int
	// DuplicateWindow is how long the stream remembers message ids to
	// drop a batch sent twice (default 1 h); the trainer also drops a
	// batch whose files it already has, whenever it comes.
	DuplicateWindow time.Duration
	// PartSize is the most file bytes in one message (default 256 KiB,
	// well under the server's default 1 MiB max_payload).
	PartSize int
	// PublishTimeout bounds how long a worker keeps retrying one batch
	// (default 2 min: a server restart or a cluster election); past it the
	// batch waits in the outbox and self-play goes on.
	PublishTimeout time.Duration
	// MaxOutboxBytes bounds the outbox while the stream is away (default
	// 1 GiB): past it, Publish waits for the stream (self-play pauses).
	MaxOutboxBytes int64
	// MaxAckPending is how many messages the trainer may hold
	// unacknowledged (default 1024): it must exceed workers times the parts
	// of a batch.
	MaxAckPending int
	// AckWait is how long the server waits for the trainer's
	// acknowledgement before delivering a message again (default 2 min).
	AckWait time.Duration
	// KeepNetworks is how many networks the object store keeps (default 3).
	KeepNetworks int
}

var runRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// RunName turns a run directory's base name into a run name: every
// character outside [A-Za-z0-9_-] becomes '_'.
func RunName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) > 64 {
		b = b[:64]
	}
	if len(b) == 0 {
		return "run"
	}
	return string(b)
}

func (c Config) withDefaults() Config {
	if c.Worker == "" {
		host, _ := os.Hostname()
		c.Worker = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	def := func(v *int64, d int64) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.MaxBytes, 8<<30)
	def(&c.MaxOutboxBytes, 1<<30)
	for _, p := range []struct {
		v *time.Duration
		d time.Duration
	}{{&c.MaxAge, 7 * 24 * time.Hour}, {&c.DuplicateWindow, time.Hour}, {&c.PublishTimeout, 2 * time.Minute}, {&c.AckWait, 2 * time.Minute}} {
		if *p.v <= 0 {
			*p.v = p.d
		}
	}
	for _, p := range []struct {
		v *int
		d int
	}{{&c.Replicas, 1}, {&c.PartSize, 256 << 10}, {&c.MaxAckPending, 1024}, {&c.KeepNetworks, 3}} {
		if *p.v <= 0 {
			*p.v = p.d
		}
	}
	return c
}

// Validate reports a problem with c.
func (c Config) Validate() error {
	switch {
	case c.URL == "":
		return errors.New("natsjs: no server URL")
	case !runRE.MatchString(c.Run):
		return fmt.Errorf("natsjs: run name %q: want 1 to 64 letters, digits, '_' or '-'", c.Run)
	case (c.Cert == "") != (c.Key == ""):
		return errors.New("natsjs: a client certificate needs its key, and a key its certificate")
	case c.Creds != "" && c.NKeySeed != "":
		return errors.New("natsjs: a credentials file or an NKEY seed, not both")
	case c.PartSize > 0 && c.PartSize < 1024:
		return fmt.Errorf("natsjs: part size %d: at least 1024 bytes", c.PartSize)
	}
	return nil
}

// The names of a run's JetStream objects.
func (c Config) stream() string          { return "CHUZERO_" + c.Run }
func (c Config) subject(k string) string { return "chuzero." + c.Run + "." + k }
func (c Config) bucket() string          { return "chuzero_" + c.Run }
func (c Config) objects() string         { return "chuzero_" + c.Run + "_networks" }

// Subject kinds and KV keys.
const (
	kindSamples = "samples"
	kindGames   = "games"
	keyConfig   = "config"
	keyNetwork  = "network"
	keyResign   = "resign"
	consumer    = "trainer"
)

// options returns the client options: credentials, TLS, and reconnecting
// for ever (a worker rides out a server restart or a cluster election).
func (c Config) options(name string) ([]nats.Option, error) {
	opts := []nats.Option{nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond),
		nats.RetryOnFailedConnect(true)}
	if c.Creds != "" {
		opts = append(opts, nats.UserCredentials(c.Creds))
	}
	if c.NKeySeed != "" {
		o, err := nats.NkeyOptionFromSeed(c.NKeySeed)
		if err != nil {
			return nil, fmt.Errorf("natsjs: %w", err)
		}
		opts = append(opts, o)
	}
	if c.CA != "" {
		opts = append(opts, nats.RootCAs(c.CA))
	}
	if c.Cert != "" {
		opts = append(opts, nats.ClientCert(c.Cert, c.Key))
	}
	if c.TLS {
		opts = append(opts, nats.Secure())
	}
	return opts, nil
}
