package natsjs

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"chuzero/checkpoints"
	"chuzero/checkpoints/atomicfile"
	"chuzero/encode"
	"chuzero/selfplay/transport"
)

// Worker is the self-play side over JetStream (a transport.Publisher). A
// batch is first written into the worker's outbox (DIR/outbox, atomically,
// as the run directory would hold it), then published; once the stream
// has acknowledged every part, its sample file is removed and its record
// file moved to DIR/games (where the next start finds the game index to
// continue from). Resend publishes what a crash left in the outbox: the
// message ids come from the content, so nothing lands twice.
type Worker struct {
	*client
	run    checkpoints.Run
	outbox transport.Dir
	mu     sync.Mutex // one Publish at a time: they drain the same outbox
	away   bool       // the last publish failed: the stream is away (under mu)
}

// NewWorker connects to the server for the worker whose local run
// directory is run.
func NewWorker(cfg Config, run checkpoints.Run, m *Metrics, log *slog.Logger) (*Worker, error) {
	c, err := dial(cfg, "chuzero selfplay "+cfg.Worker, m, log)
	if err != nil {
		return nil, err
	}
	ob, err := transport.NewDir(run.Outbox())
	if err == nil {
		err = os.MkdirAll(run.Games(), 0o755)
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	return &Worker{client: c, run: run, outbox: ob}, nil
}

// send publishes the parts of b, each until the stream acknowledges it,
// then clears b from the outbox.
func (w *Worker) send(ctx context.Context, b transport.Batch, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	msgs := w.cfg.messages(b, w.cfg.Worker)
	for _, m := range msgs {
		for attempt := 0; ; attempt++ {
			actx, acancel := context.WithTimeout(ctx, 5*time.Second)
			ack, err := w.js.PublishMsg(actx, m)
			acancel()
			if err == nil {
				if ack.Duplicate {
					w.m.publishDuplicates.Inc()
				}
				break
			}
			if ctx.Err() != nil {
				return fmt.Errorf("natsjs: batch %s not acknowledged (left in the outbox): %w", b.Name, err)
			}
			w.m.publishRetries.Inc()
			if attempt == 0 {
				w.log.Warn("publishing a batch failed; retrying", "batch", b.Name, "err", err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(min(time.Duration(attempt+1)*200*time.Millisecond, 2*time.Second)):
			}
		}
		w.m.publishedParts.Inc()
		w.m.publishedBytes.Add(float64(len(m.Data)))
	}
	w.m.publishedBatches.Inc()
	sp, rp := w.outbox.Paths(b.Name)
	_, dst := w.run.Batch(b.Name)
	if err := os.Rename(rp, dst); err != nil {
		return fmt.Errorf("natsjs: %w", err)
	}
	if err := atomicfile.SyncDir(filepath.Dir(dst)); err != nil { // the move is durable before the samples go
		return err
	}
	if err := os.Remove(sp); err != nil {
		return fmt.Errorf("natsjs: %w", err)
	}
	return atomicfile.SyncDir(filepath.Dir(sp))
}

// Resend publishes every batch left in the outbox (by a crash, or a server
// that stayed away longer than PublishTimeout), oldest first; it returns
// how many.
func (w *Worker) Resend(ctx context.Context) (int, error) { return w.resend(ctx, w.cfg.PublishTimeout) }

func (w *Worker) resend(ctx context.Context, timeout time.Duration) (int, error) {
	names, err := filepath.Glob(filepath.Join(w.outbox.Run.Samples(), "*"+encode.SampleFileExt))
	if err != nil {
		return 0, err
	}
	sort.Strings(names)
	n := 0
	for _, sp := range names {
		name := strings.TrimSuffix(filepath.Base(sp), encode.SampleFileExt)
		_, rp := w.outbox.Paths(name)
		samples, err := os.ReadFile(sp)
		if err != nil {
			return n, err
		}
		records, err := os.ReadFile(rp)
		if errors.Is(err, os.ErrNotExist) {
			// the crash came between the two files: its games are lost
			// with the process, as in the run directory
			w.log.Warn("outbox: a sample file without its records, dropped", "batch", name)
			os.Remove(sp)
			continue
		}
		if err != nil {
			return n, err
		}
		b := transport.Batch{Name: name, Samples: samples, Records: records, Games: countLines(records)}
		if err := w.send(ctx, b, timeout); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

// Config returns the run config the trainer published, waiting for it.
func (w *Worker) Config(ctx context.Context) ([]byte, error) {
	kv, _, err := w.wait(ctx)
	if err != nil {
		return nil, err
	}
	for {
		e, err := kv.Get(ctx, keyConfig)
		if err == nil {
			return e.Value(), nil
		}
		if !errors.Is(err, jetstream.ErrKeyNotFound) {
			return nil, fmt.Errorf("natsjs: %w", err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// network is the value of the KV key "network": the run's current
// network, an object of the object store.
type network struct {
	Name   string    `json:"name"` // checkpoint name, also the object's
	Step   int64     `json:"step"`
	Digest string    `json:"digest"` // the object's "SHA-256=<base64url>"
	Size   uint64    `json:"size"`
	Time   time.Time `json:"time"` // when the trainer published it
}

// Follow watches the KV key "network" and downloads each new network into
// store (unless a file with its digest is there: networks are cached by
// content), then calls changed; it keeps the newest KeepNetworks files.
// It returns when ctx ends.
func (w *Worker) Follow(ctx context.Context, store *checkpoints.Store, changed func(checkpoints.Entry)) error {
	kv, obs, err := w.wait(ctx)
	if err != nil {
		return nil
	}
	return watchKey(ctx, kv, keyNetwork, func(value []byte) {
		var n network
		if err := json.Unmarshal(value, &n); err != nil || n.Name != checkpoints.Name(n.Step) {
			w.log.Error("the run's network key holds no network", "value", string(value), "err", err)
			return
		}
		entry, err := w.fetch(ctx, obs, store, n)
		if err != nil {
			if ctx.Err() == nil {
				w.log.Error("downloading the network failed", "checkpoint", n.Name, "err", err)
			}
			return
		}
		if changed != nil {
			changed(entry)
		}
		if _, err := store.Prune(w.cfg.KeepNetworks, 0); err != nil {
			w.log.Warn("pruning the network cache", "err", err)
		}
	})
}

// watchKey calls each with every value put under key of kv (the current
// one first) until ctx ends; deletions and the end of the initial values
// are skipped.
func watchKey(ctx context.Context, kv jetstream.KeyValue, key string, each func(value []byte)) error {
	watcher, err := kv.Watch(ctx, key)
	if err != nil {
		return fmt.Errorf("natsjs: %w", err)
	}
	defer watcher.Stop()
	for {
		var e jetstream.KeyValueEntry
		select {
		case <-ctx.Done():
			return nil
		case e = <-watcher.Updates():
		}
		if e != nil && e.Operation() == jetstream.KeyValuePut {
			each(e.Value())
		}
	}
}

// fetch puts network n into store: from the object store, unless the
// store has it with the same digest.
func (w *Worker) fetch(ctx context.Context, obs jetstream.ObjectStore, store *checkpoints.Store, n network) (checkpoints.Entry, error) {
	path, err := store.Path(n.Name)
	if err != nil {
		return checkpoints.Entry{}, err
	}
	if d, err := fileDigest(path); err == nil && d == n.Digest {
		w.m.networkCacheHits.Inc()
		return store.Find(path)
	}
	start := time.Now()
	r, err := obs.Get(ctx, n.Name)
	if err != nil {
		return checkpoints.Entry{}, err
	}
	defer r.Close()
	var size int64
	if err := atomicfile.WriteFrom(path, func(f io.Writer) error {
		// the object's reader checks its digest at the end
		size, err = io.Copy(f, r)
		return err
	}); err != nil {
		return checkpoints.Entry{}, err
	}
	w.m.networkDownload.Observe(time.Since(start).Seconds())
	w.m.networkBytes.Add(float64(size))
	w.m.networkDelay.Set(time.Since(n.Time).Seconds())
	w.log.Info("downloaded the run's network", "checkpoint", n.Name, "bytes", size, "seconds", time.Since(start).Seconds())
	return store.Find(path)
}

// fileDigest returns the object-store digest of a file's content.
func fileDigest(path string) (string, error) {
	f, err := atomicfile.OpenRegular(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return "SHA-256=" + base64.URLEncoding.EncodeToString(h.Sum(nil)), nil
}

var _ transport.Publisher = (*Worker)(nil)
