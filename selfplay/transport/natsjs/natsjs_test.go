package natsjs

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"chuzero/checkpoints"
	"chuzero/rules"
	"chuzero/selfplay/transport"
)

// TestTwoWorkersOneTrainer: two workers play and publish over a real
// server; every batch lands in the trainer's directory exactly once, with
// the bytes the run directory transport would have written.
func TestTwoWorkersOneTrainer(t *testing.T) {
	s := startServer(t, t.TempDir(), 0)
	defer stopServer(s)
	ctx := context.Background()
	cfg := testConfig(s.ClientURL())
	tdir := t.TempDir()
	tm := NewMetrics(nil)
	tr, err := NewTrainer(ctx, cfg, checkpoints.Run{Dir: tdir}, rules.Sho, tm, testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	stop := receive(tr)
	defer stop()
	const games = 4
	var wg sync.WaitGroup
	dirs := []string{t.TempDir(), t.TempDir()}
	for i, d := range dirs {
		wcfg := cfg
		wcfg.Worker = fmt.Sprintf("w%d", i)
		w, err := NewWorker(wcfg, checkpoints.Run{Dir: d}, nil, testLog(t))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		wg.Add(1)
		go func() { defer wg.Done(); play(t, w, uint64(10+i), games) }()
	}
	wg.Wait()
	haveBatches(t, tdir, 2*games)
	stop() // joins Receive: the batch it was completing is counted
	samples, records := runFiles(t, tdir)
	if len(samples) != 2*games || len(records) != 2*games {
		t.Fatalf("trainer has %d sample and %d record files, want %d each", len(samples), len(records), 2*games)
	}
	// each worker kept its records (moved out of the outbox) and nothing else
	for i, d := range dirs {
		ws, wr := runFiles(t, d)
		if len(ws) != 0 || len(wr) != games {
			t.Errorf("worker %d: %d sample files and %d record files left, want 0 and %d", i, len(ws), len(wr), games)
		}
		for _, name := range wr {
			_, rp := transport.Dir{Run: tr.run.Run}.Paths(name)
			if !bytes.Equal(readFile(t, rp), readFile(t, d+"/games/"+name+".jsonl")) {
				t.Errorf("records of %s differ between worker and trainer", name)
			}
		}
	}
	if got := testutil.ToFloat64(tm.consumedBatches); got != 2*games {
		t.Errorf("consumed batches = %v, want %d", got, 2*games)
	}
	for _, w := range []string{"w0", "w1"} {
		if got := testutil.ToFloat64(tm.workerGames.WithLabelValues(w)); got != games {
			t.Errorf("games of %s = %v, want %d", w, got, games)
		}
	}
}

// TestRepublishDuplicatesNothing: a batch published again (a worker
// retrying, or restarted with the batch still in its outbox) lands once.
func TestRepublishDuplicatesNothing(t *testing.T) {
	s := startServer(t, t.TempDir(), 0)
	defer stopServer(s)
	ctx := context.Background()
	cfg := testConfig(s.ClientURL())
	tdir := t.TempDir()
	tm := NewMetrics(nil)
	tr, err := NewTrainer(ctx, cfg, checkpoints.Run{Dir: tdir}, rules.Sho, tm, testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	bs := batches(t, 1, 2)
	wdir := t.TempDir()
	wm := NewMetrics(nil)
	w, err := NewWorker(cfg, checkpoints.Run{Dir: wdir}, wm, testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, b := range bs {
		if err := w.Publish(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	// a crash after publishing, before the outbox was cleared: the batch
	// is in the outbox at the next start
	if err := w.outbox.Publish(ctx, bs[0]); err != nil {
		t.Fatal(err)
	}
	if n, err := w.Resend(ctx); err != nil || n != 1 {
		t.Fatalf("Resend = %d, %v; want 1", n, err)
	}
	if err := w.Publish(ctx, bs[1]); err != nil { // and a plain retry
		t.Fatal(err)
	}
	parts := 0
	for _, b := range bs {
		parts += len(cfg.withDefaults().messages(b, "x"))
	}
	if got := testutil.ToFloat64(wm.publishDuplicates); int(got) != parts {
		t.Errorf("the stream dropped %v messages as duplicates, want %d", got, parts)
	}
	info, err := tr.js.Stream(ctx, cfg.stream())
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := info.Info(ctx); int(st.State.Msgs) != parts {
		t.Errorf("stream holds %d messages, want %d", st.State.Msgs, parts)
	}
	stop := receive(tr)
	haveBatches(t, tdir, len(bs))
	stop()
	samples, _ := runFiles(t, tdir)
	if len(samples) != len(bs) || testutil.ToFloat64(tm.consumedBatches) != float64(len(bs)) {
		t.Errorf("%d sample files, %v batches consumed; want %d", len(samples), testutil.ToFloat64(tm.consumedBatches), len(bs))
	}
}
