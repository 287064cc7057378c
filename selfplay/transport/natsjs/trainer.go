package natsjs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/time/rate"

	"chuzero/checkpoints"
	"chuzero/checkpoints/atomicfile"
	"chuzero/encode"
	"chuzero/rules"
	"chuzero/selfplay"
	"chuzero/selfplay/transport"
)

// Trainer is the training side over JetStream: it
// creates the run's stream and buckets, consumes batches with the durable
// consumer "trainer" into its run directory, and publishes the config and
// checkpoints.
type Trainer struct {
	*client
	run     transport.Dir
	variant rules.VariantID
	spec    *encode.Spec // validates the samples that come in
	kv      jetstream.KeyValue
	obs     jetstream.ObjectStore
	cons    jetstream.Consumer
	// assembling: batches with parts still missing, by hash, holding
	// assemblingBytes of parts
	assembling      map[string]*assembly
	assemblingBytes int
	// AssembleTimeout releases a batch whose parts have not all come in
	// this long (default 10 min): its parts go back to the stream, to be
	// delivered again later with the rest (a worker that restarts hours
	// later completes it), never dropped.
	AssembleTimeout time.Duration
	// MaxAssemblies and MaxAssemblyBytes bound the batches held open
	// (default 256 and 512 MiB): the parts of one more wait in the stream.
	MaxAssemblies, MaxAssemblyBytes int
	// MaxWorkerAssemblies bounds the batches of one worker (its
	// Chuzero-Worker header) held open (default 8; a worker publishes its
	// batches one after another, so an honest one has one or two open):
	// a part that would open one more is refused (terminated, counted as
	// "open_batches"), so one worker's flood of batches that never
	// complete cannot take every slot and stall the others' intake.
	MaxWorkerAssemblies int
	openByWorker        map[string]int // open assemblies by worker
	// RetryDelay is how long the parts of a batch the trainer could not
	// hold or finish wait in the stream before they come again (1 min).
	RetryDelay time.Duration
	// OnRecords, if set before Receive, is called on the receiving
	// goroutine with the game records of every new batch written (not a
	// duplicate's): the trainer process calibrates the run's resignation
	// threshold from them.
	OnRecords func(ctx context.Context, recs []selfplay.Record)
	// rejectLog bounds the warnings of rejected messages and batches: a
	// flood from one bad worker must not flood the log (the metric
	// chuzero_transport_rejected_messages_total counts every one).
	rejectLog rate.Sometimes
}

// NewTrainer connects for the trainer of run directory run, whose samples
// are of variant v, and creates (or updates to cfg) the run's stream,
// bucket, object store and consumer.
func NewTrainer(ctx context.Context, cfg Config, run checkpoints.Run, v rules.VariantID, m *Metrics, log *slog.Logger) (*Trainer, error) {
	spec, err := encode.NewSpec(v, encode.Options{})
	if err != nil {
		return nil, err
	}
	c, err := dial(cfg, "chuzero trainer "+cfg.Run, m, log, nats.CustomInboxPrefix(trainerInbox))
	if err != nil {
		return nil, err
	}
	t := &Trainer{client: c, variant: v, spec: spec, assembling: map[string]*assembly{}, AssembleTimeout: 10 * time.Minute,
		MaxAssemblies: 256, MaxAssemblyBytes: 512 << 20, MaxWorkerAssemblies: 8, openByWorker: map[string]int{}, RetryDelay: time.Minute,
		rejectLog: rate.Sometimes{First: 20, Interval: 10 * time.Second}}
	if t.run, err = transport.NewDir(run); err == nil {
		err = t.setup(ctx)
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	return t, nil
}

func (t *Trainer) setup(ctx context.Context) error {
	if err := t.create(ctx); err != nil {
		return err
	}
	var err error
	if t.kv, t.obs, err = t.wait(ctx); err != nil {
		return err
	}
	t.cons, err = t.js.CreateOrUpdateConsumer(ctx, t.cfg.stream(), jetstream.ConsumerConfig{
		Durable: consumer, Description: "the trainer of run " + t.cfg.Run, AckPolicy: jetstream.AckExplicitPolicy,
		AckWait: t.cfg.AckWait, MaxAckPending: t.cfg.MaxAckPending, DeliverPolicy: jetstream.DeliverAllPolicy,
		Replicas: t.cfg.Replicas,
	})
	if err != nil {
		return fmt.Errorf("natsjs: consumer: %w", err)
	}
	return nil
}

// Receive consumes batches into the run directory until ctx ends (the
// run directory stays the run's one source of truth): a batch is acknowledged once both its files are
// durably written, so a restarted trainer resumes after the last batch it
// has; a message that is not a valid part of a valid batch is logged,
// counted (chuzero_transport_rejected_messages_total) and dropped.
func (t *Trainer) Receive(ctx context.Context) error {
	lastInfo := time.Time{}
	for ctx.Err() == nil {
		batch, err := t.cons.Fetch(64, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			t.log.Warn("fetching batches", "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
			continue
		}
		for m := range batch.Messages() {
			t.receive(ctx, m)
		}
		t.expire()
		if time.Since(lastInfo) > 5*time.Second {
			t.updateLag(ctx)
			lastInfo = time.Now()
		}
	}
	return nil
}

// updateLag sets the pending and redelivered gauges from the consumer.
func (t *Trainer) updateLag(ctx context.Context) {
	ictx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if info, err := t.cons.Info(ictx); err == nil {
		t.m.pending.Set(float64(info.NumPending))
		t.m.ackPending.Set(float64(info.NumAckPending))
		t.m.redeliveredNow.Set(float64(info.NumRedelivered))
	}
}

// rejectLogNote says, in every rejection warning, that some are not logged.
const rejectLogNote = "the first 20 rejections are logged, then one every 10 s; chuzero_transport_rejected_messages_total counts them all"

// reject drops message m (and nothing else) for reason.
func (t *Trainer) reject(m jetstream.Msg, reason string, err error) {
	t.m.rejected.WithLabelValues(reason).Inc()
	t.rejectLog.Do(func() {
		t.log.Warn("rejected a message", "subject", m.Subject(), "reason", reason, "err", err, "bytes", len(m.Data()), "note", rejectLogNote)
	})
	m.Term()
}

// complete checks an assembled batch, writes its two files and
// acknowledges its parts.
func (t *Trainer) complete(ctx context.Context, a *assembly) {
	b := transport.Batch{Name: a.first.batch, Samples: a.join(kindSamples, a.first.samples),
		Records: a.join(kindGames, a.first.games), Games: a.first.count}
	recs, reason, err := t.check(b, a.first.hash)
	var dup bool
	if err == nil {
		if dup, err = t.write(b); errors.Is(err, errConflict) {
			reason = "conflict"
		} else if err != nil {
			// our own disk: leave the parts unacknowledged, to come again
			t.log.Error("writing a batch failed; it will come again", "batch", b.Name, "err", err)
			t.m.writeErrors.Inc()
			return
		}
	}
	if err == nil {
		if dup {
			t.m.duplicates.Inc()
		} else {
			t.m.consumedBatches.Inc()
			t.m.workerGames.WithLabelValues(a.first.worker).Add(float64(b.Games))
			if t.OnRecords != nil {
				t.OnRecords(ctx, recs)
			}
		}
		t.m.workerSeen.WithLabelValues(a.first.worker).SetToCurrentTime()
		for _, m := range a.msgs {
			actx, cancel := context.WithTimeout(ctx, 5*time.Second)
			if err := m.DoubleAck(actx); err != nil {
				t.log.Warn("acknowledging a part", "batch", b.Name, "err", err) // it comes again, and is a duplicate then
			}
			cancel()
		}
		return
	}
	t.m.rejected.WithLabelValues(reason).Inc()
	t.rejectLog.Do(func() {
		t.log.Warn("rejected a batch", "batch", b.Name, "worker", a.first.worker, "reason", reason, "err", err, "note", rejectLogNote)
	})
	for _, m := range a.msgs {
		m.Term()
	}
}

// check returns why b, said to hash to hash, is not a batch of this run,
// or its records.
func (t *Trainer) check(b transport.Batch, hash string) (recs []selfplay.Record, reason string, err error) {
	if b.Hash() != hash {
		return nil, "hash", errors.New("content does not match its hash")
	}
	sr, err := encode.NewSampleReader(bytes.NewReader(b.Samples), b.Name)
	if err != nil {
		return nil, "samples", err
	}
	if sr.Variant != t.variant {
		return nil, "variant", fmt.Errorf("%s samples, this run trains %s", sr.Variant, t.variant)
	}
	for {
		var s encode.Sample
		if err := sr.Next(&s); err == io.EOF {
			break
		} else if err != nil {
			return nil, "samples", err
		}
		if err := s.Validate(t.spec); err != nil { // the batch goes as one: its samples and records pair
			return nil, "invalid_sample", fmt.Errorf("game %x ply %d: %w", s.GameID, s.Ply, err)
		}
	}
	recs, err = selfplay.DecodeRecords(bytes.NewReader(b.Records), b.Name)
	if err != nil {
		return nil, "records", err
	}
	if len(recs) != b.Games {
		return nil, "records", fmt.Errorf("%d records, the headers say %d games", len(recs), b.Games)
	}
	return recs, "", nil
}

// errConflict is a batch whose name the run directory holds with other
// contents.
var errConflict = errors.New("natsjs: other files of that name are in the run directory")

// write puts b's files into the run directory; dup reports that they were
// there already (the same bytes).
func (t *Trainer) write(b transport.Batch) (dup bool, err error) {
	sp, rp := t.run.Paths(b.Name)
	old, serr := os.ReadFile(sp)
	oldRec, rerr := os.ReadFile(rp)
	if serr == nil && rerr == nil {
		if bytes.Equal(old, b.Samples) && bytes.Equal(oldRec, b.Records) {
			return true, nil
		}
		return false, fmt.Errorf("%w: %s", errConflict, b.Name)
	}
	return false, t.run.Publish(context.Background(), b)
}

// PublishConfig puts the run's config file under the KV key "config".
func (t *Trainer) PublishConfig(ctx context.Context, config []byte) error {
	if _, err := t.kv.Put(ctx, keyConfig, config); err != nil {
		return fmt.Errorf("natsjs: %w", err)
	}
	return nil
}

// PublishCheckpoint puts checkpoint e into the object store, points the
// KV key "network" at it (every worker's Follow sees it within moments),
// and removes all but the newest KeepNetworks networks.
func (t *Trainer) PublishCheckpoint(ctx context.Context, e checkpoints.Entry) error {
	f, err := atomicfile.OpenRegular(e.Path)
	if err != nil {
		return fmt.Errorf("natsjs: %w", err)
	}
	defer f.Close()
	start := time.Now()
	info, err := t.obs.Put(ctx, jetstream.ObjectMeta{Name: e.Name}, f)
	if err != nil {
		return fmt.Errorf("natsjs: %w", err)
	}
	v, _ := json.Marshal(network{Name: e.Name, Step: e.Step, Digest: info.Digest, Size: info.Size, Time: time.Now().UTC()})
	if _, err := t.kv.Put(ctx, keyNetwork, v); err != nil {
		return fmt.Errorf("natsjs: %w", err)
	}
	t.m.networksPublished.Inc()
	t.log.Info("published the network", "checkpoint", e.Name, "bytes", info.Size, "seconds", time.Since(start).Seconds())
	objs, err := t.obs.List(ctx)
	if err != nil {
		return nil // nothing listed: nothing to prune now
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].ModTime.Before(objs[j].ModTime) })
	for i := 0; i < len(objs)-t.cfg.KeepNetworks; i++ {
		if objs[i].Name != e.Name {
			t.obs.Delete(ctx, objs[i].Name)
		}
	}
	return nil
}
