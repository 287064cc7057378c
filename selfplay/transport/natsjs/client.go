package natsjs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// client is a connection and the run's JetStream objects.
type client struct {
	cfg Config
	log *slog.Logger
	m   *Metrics
	nc  *nats.Conn
	js  jetstream.JetStream
}

func dial(cfg Config, name string, m *Metrics, log *slog.Logger, extra ...nats.Option) (*client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if m == nil {
		m = NewMetrics(nil)
	}
	opts, err := cfg.options(name)
	if err != nil {
		return nil, err
	}
	opts = append(append(opts, extra...),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				log.Warn("nats: disconnected", "err", err)
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			m.reconnects.Inc()
			log.Info("nats: reconnected", "server", nc.ConnectedUrlRedacted())
		}))
	nc, err := nats.Connect(cfg.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("natsjs: connecting to %s: %w", Redact(cfg.URL), err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("natsjs: %w", err)
	}
	return &client{cfg: cfg, log: log, m: m, nc: nc, js: js}, nil
}

// Close closes the connection.
func (c *client) Close() { c.nc.Close() }

// streamConfig is the run's stream: both subjects, file storage, the
// limits of Config, old messages dropped when full.
func (c *client) streamConfig() jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:        c.cfg.stream(),
		Description: "chuzero self-play batches of run " + c.cfg.Run,
		Subjects:    []string{c.cfg.subject(kindSamples), c.cfg.subject(kindGames)},
		Storage:     jetstream.FileStorage,
		Retention:   jetstream.LimitsPolicy,
		Discard:     jetstream.DiscardOld,
		MaxBytes:    c.cfg.MaxBytes,
		MaxAge:      c.cfg.MaxAge,
		MaxMsgSize:  int32(c.cfg.PartSize + 4096),
		Duplicates:  c.cfg.DuplicateWindow,
		Replicas:    c.cfg.Replicas,
	}
}

// create makes (or updates) the stream and the buckets: the trainer's part.
func (c *client) create(ctx context.Context) error {
	if _, err := c.js.CreateOrUpdateStream(ctx, c.streamConfig()); err != nil {
		return fmt.Errorf("natsjs: stream %s: %w", c.cfg.stream(), err)
	}
	if _, err := c.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: c.cfg.bucket(),
		Description: "chuzero run " + c.cfg.Run + ": config and current network", History: 1,
		Storage: jetstream.FileStorage, Replicas: c.cfg.Replicas}); err != nil {
		return fmt.Errorf("natsjs: bucket %s: %w", c.cfg.bucket(), err)
	}
	if _, err := c.js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: c.cfg.objects(),
		Description: "chuzero run " + c.cfg.Run + ": networks", Storage: jetstream.FileStorage,
		Replicas: c.cfg.Replicas}); err != nil {
		return fmt.Errorf("natsjs: object store %s: %w", c.cfg.objects(), err)
	}
	return nil
}

// wait returns once the trainer has created the run's stream and
// buckets (a worker may start first), or ctx ends.
func (c *client) wait(ctx context.Context) (jetstream.KeyValue, jetstream.ObjectStore, error) {
	logged := false
	for {
		kv, err := c.js.KeyValue(ctx, c.cfg.bucket())
		if err == nil {
			var obs jetstream.ObjectStore
			if obs, err = c.js.ObjectStore(ctx, c.cfg.objects()); err == nil {
				if _, err = c.js.Stream(ctx, c.cfg.stream()); err == nil {
					return kv, obs, nil
				}
			}
		}
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		if !logged && (errors.Is(err, jetstream.ErrBucketNotFound) || errors.Is(err, jetstream.ErrStreamNotFound)) {
			c.log.Info("waiting for the trainer to create the run's stream", "run", c.cfg.Run)
			logged = true
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}
