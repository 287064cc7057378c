package natsjs

import (
	"bytes"
	"context"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestLateWorkerCompletesBatch: a worker that sent part of a batch comes
// back after the trainer's assembly timeout and sends it all again, within
// the stream's duplicate window (its first parts are dropped as copies:
// only the trainer's own, released to the stream and not dropped, can
// complete the batch) and past it (all are stored again). Either way the
// batch is written exactly once and every part is acknowledged.
func TestLateWorkerCompletesBatch(t *testing.T) {
	for _, window := range []time.Duration{time.Hour, time.Second} {
		t.Run(window.String(), func(t *testing.T) { lateWorker(t, window) })
	}
}

func lateWorker(t *testing.T, window time.Duration) {
	s := startServer(t, t.TempDir(), 0)
	defer stopServer(s)
	ctx := context.Background()
	cfg := testConfig(s.ClientURL())
	cfg.DuplicateWindow = window
	tdir := t.TempDir()
	m := NewMetrics(nil)
	tr := newTrainer(t, cfg, tdir, m)
	defer tr.Close()
	tr.AssembleTimeout, tr.RetryDelay = 200*time.Millisecond, 300*time.Millisecond
	b := batches(t, 21, 3)[0]
	msgs := cfg.withDefaults().messages(b, "late")
	if len(msgs) < 3 {
		t.Fatalf("a batch of %d parts; the test wants several", len(msgs))
	}
	for _, msg := range msgs[:len(msgs)/2] { // the worker dies mid-batch
		if _, err := tr.js.PublishMsg(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	stop := receive(tr)
	waitFor(t, "the incomplete batch released", func() bool { return testutil.ToFloat64(m.retriedBatches) >= 1 })
	late := cfg.withDefaults().messages(b, "late")
	if window < time.Minute {
		// past the duplicate window the copies are stored again: the
		// server drops the first part as a duplicate until then
		waitFor(t, "the duplicate window to pass", func() bool {
			ack, err := tr.js.PublishMsg(ctx, late[0])
			return err == nil && !ack.Duplicate
		})
		late = late[1:]
	}
	for _, msg := range late {
		if _, err := tr.js.PublishMsg(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	haveBatches(t, tdir, 1)
	waitFor(t, "every part acknowledged, the old ones too", func() bool {
		ictx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		info, err := tr.cons.Info(ictx)
		return err == nil && info.NumAckPending == 0 && info.NumPending == 0
	})
	stop()
	if len(tr.assembling) != 0 || tr.assemblingBytes != 0 {
		t.Errorf("%d batches (%d bytes) still open", len(tr.assembling), tr.assemblingBytes)
	}
	samples, records := runFiles(t, tdir)
	if len(samples) != 1 || len(records) != 1 || samples[0] != b.Name {
		t.Errorf("run directory has %v and %v, want batch %s once", samples, records, b.Name)
	}
	if got := readFile(t, filepath.Join(tdir, "samples", b.Name+".samples")); !bytes.Equal(got, b.Samples) {
		t.Error("the batch's samples differ")
	}
}

// TestWorkerRidesOutOutage: with the server down, Publish returns and the
// batches wait in the outbox (self-play goes on) until the outbox is
// full, when Publish waits; the server back, the next Publish sends the
// outbox, oldest first, and every batch reaches the trainer once.
func TestWorkerRidesOutOutage(t *testing.T) {
	store := t.TempDir()
	s := startServer(t, store, 0)
	port := s.Addr().(*net.TCPAddr).Port
	cfg := testConfig(s.ClientURL())
	cfg.PublishTimeout = time.Second
	tdir := t.TempDir()
	bs := batches(t, 31, 5)
	wm := NewMetrics(nil)
	w := newWorker(t, cfg, wm)
	defer w.Close()
	tr := newTrainer(t, cfg, tdir, nil)
	defer tr.Close()
	stopServer(s)
	for _, b := range bs[:3] {
		if err := w.Publish(context.Background(), b); err != nil {
			t.Fatalf("a publish with the server away: %v", err)
		}
	}
	if size := w.outboxSize(); size == 0 || testutil.ToFloat64(wm.outboxBytes) != float64(size) {
		t.Fatalf("outbox %d bytes, gauge %v", size, testutil.ToFloat64(wm.outboxBytes))
	}
	w.cfg.MaxOutboxBytes = 1 // full: Publish waits for the stream
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	if err := w.Publish(ctx, bs[3]); err == nil {
		t.Error("a publish into a full outbox returned while the server was away")
	}
	cancel()
	s = startServer(t, store, port)
	defer stopServer(s)
	if err := w.Publish(context.Background(), bs[4]); err != nil {
		t.Fatal(err)
	}
	if size := w.outboxSize(); size != 0 {
		t.Errorf("the outbox holds %d bytes after the server came back", size)
	}
	stop := receive(tr)
	haveBatches(t, tdir, 5)
	stop()
	if samples, _ := runFiles(t, tdir); len(samples) != 5 {
		t.Errorf("%d sample files, want 5", len(samples))
	}
}
