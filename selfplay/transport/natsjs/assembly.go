package natsjs

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// assembly is a batch being put together from its parts, held as they
// arrive (no slot is allocated for a part not yet there).
type assembly struct {
	first   part
	started time.Time
	files   map[string]map[int][]byte // by kind, by part index
	msgs    []jetstream.Msg
	have    int
	bytes   int
}

// join returns the n parts of kind, in order.
func (a *assembly) join(kind string, n int) []byte {
	size := 0
	for _, b := range a.files[kind] {
		size += len(b)
	}
	out := make([]byte, 0, size)
	for i := range n {
		out = append(out, a.files[kind][i]...)
	}
	return out
}

func (t *Trainer) receive(ctx context.Context, m jetstream.Msg) {
	t.m.consumedParts.Inc()
	t.m.consumedBytes.Add(float64(len(m.Data())))
	if md, err := m.Metadata(); err == nil && md.NumDelivered > 1 {
		t.m.redelivered.Inc()
	}
	p, err := t.cfg.parsePart(m.Subject(), m.Headers())
	if err != nil {
		t.reject(m, "headers", err)
		return
	}
	if len(m.Data()) > t.cfg.PartSize {
		t.reject(m, "size", fmt.Errorf("part of %d bytes", len(m.Data())))
		return
	}
	if most := t.maxParts(); p.samples+p.games > most {
		// no batch the trainer could hold has this many parts: it would
		// only ever wait, holding its slot
		t.reject(m, "parts", fmt.Errorf("batch %s claims %d+%d parts, at most %d fit", p.batch, p.samples, p.games, most))
		return
	}
	a := t.assembling[p.hash]
	if a == nil {
		if t.written(p.batch) { // a part of a batch written already, come again
			t.m.duplicates.Inc()
			m.Ack()
			return
		}
		if t.openByWorker[p.worker] >= t.MaxWorkerAssemblies {
			t.reject(m, "open_batches", fmt.Errorf("worker %q has %d batches open", p.worker, t.openByWorker[p.worker]))
			return
		}
		if len(t.assembling) >= t.MaxAssemblies || t.assemblingBytes+len(m.Data()) > t.MaxAssemblyBytes {
			t.m.deferredParts.Inc()
			m.NakWithDelay(t.RetryDelay) // it waits in the stream, not here
			return
		}
		a = &assembly{first: p, started: time.Now(), files: map[string]map[int][]byte{kindSamples: {}, kindGames: {}}}
		t.assembling[p.hash] = a
		t.openByWorker[p.worker]++
	}
	f := a.first
	if p.batch != f.batch || p.samples != f.samples || p.games != f.games || p.count != f.count {
		t.reject(m, "headers", fmt.Errorf("part of batch %s disagrees with its first part", p.batch))
		return
	}
	if a.files[p.kind][p.index] == nil && t.assemblingBytes+len(m.Data()) > t.MaxAssemblyBytes {
		t.m.deferredParts.Inc()
		m.NakWithDelay(t.RetryDelay) // held bytes are bounded: this part comes again
		return
	}
	a.msgs = append(a.msgs, m) // a part delivered again is acknowledged with the rest
	if a.files[p.kind][p.index] == nil {
		a.files[p.kind][p.index] = m.Data()
		a.have++
		a.bytes += len(m.Data())
		t.assemblingBytes += len(m.Data())
	}
	if a.have < f.samples+f.games {
		return
	}
	t.release(p.hash, a)
	t.complete(ctx, a)
}

// written reports whether the run directory has both files of batch.
func (t *Trainer) written(batch string) bool {
	sp, rp := t.run.Paths(batch)
	_, serr := os.Stat(sp)
	_, rerr := os.Stat(rp)
	return serr == nil && rerr == nil
}

// release forgets an assembly.
func (t *Trainer) release(hash string, a *assembly) {
	delete(t.assembling, hash)
	t.assemblingBytes -= a.bytes
	if t.openByWorker[a.first.worker]--; t.openByWorker[a.first.worker] <= 0 {
		delete(t.openByWorker, a.first.worker)
	}
}

// maxParts is the most parts a batch the trainer can hold may have: its
// bytes must fit MaxAssemblyBytes, each part but the last of each file
// full (PartSize), so no real batch has more.
func (t *Trainer) maxParts() int {
	return t.MaxAssemblyBytes/max(t.cfg.PartSize, 1) + 2
}

// expire releases the batches whose parts have not all come within
// AssembleTimeout: their parts go back to the stream (delivered again
// after RetryDelay), so a batch whose worker restarts hours later, past
// the stream's duplicate window, still completes; the stream's limits
// (MaxAge, MaxBytes) are what finally drops the parts of a batch that
// never completes.
func (t *Trainer) expire() {
	for h, a := range t.assembling {
		if time.Since(a.started) < t.AssembleTimeout {
			continue
		}
		t.release(h, a)
		t.m.retriedBatches.Inc()
		t.log.Warn("a batch is incomplete; its parts go back to the stream, to come again", "batch", a.first.batch,
			"worker", a.first.worker, "parts", a.have, "of", a.first.samples+a.first.games)
		for _, m := range a.msgs {
			m.NakWithDelay(t.RetryDelay)
		}
	}
}
