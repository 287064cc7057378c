package natsjs

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"chuzero/mcts"
	"chuzero/selfplay"
)

// TestResignTransport: the trainer hands the records of every batch it
// writes to OnRecords, and a threshold it publishes reaches a worker
// following the key; the calibration itself is selfplay/training's.
func TestResignTransport(t *testing.T) {
	s := startServer(t, t.TempDir(), 0)
	defer stopServer(s)
	ctx := context.Background()
	cfg := testConfig(s.ClientURL())
	spc := selfPlayConfig(t, 7)
	var c capture
	r, err := selfplay.New(spc, mcts.Random{Seed: 7}, "random")
	if err != nil {
		t.Fatal(err)
	}
	r.Publisher = &c
	if err := r.Run(ctx, 4); err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, b := range c.batches {
		recs, err := selfplay.DecodeRecords(bytes.NewReader(b.Records), b.Name)
		if err != nil {
			t.Fatal(err)
		}
		want += len(recs)
	}
	tdir := t.TempDir()
	tr := newTrainer(t, cfg, tdir, nil)
	defer tr.Close()
	var mu sync.Mutex
	handed := 0
	tr.OnRecords = func(_ context.Context, recs []selfplay.Record) { mu.Lock(); handed += len(recs); mu.Unlock() }
	stop := receive(tr)
	w := newWorker(t, cfg, nil)
	defer w.Close()
	got := make(chan float64, 16)
	fctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { w.FollowResign(fctx, func(th float64) { got <- th }); close(done) }()
	defer func() { cancel(); <-done }()
	publishAll(t, w, c.batches)
	haveBatches(t, tdir, len(c.batches))
	stop()
	if mu.Lock(); handed != want {
		t.Errorf("OnRecords got %d records, want the batches' %d", handed, want)
	}
	mu.Unlock()
	if err := tr.PublishResign(ctx, -0.42); err != nil {
		t.Fatal(err)
	}
	select {
	case th := <-got:
		if th != -0.42 {
			t.Errorf("the worker got %v, want -0.42", th)
		}
	case <-time.After(guard):
		t.Fatal("the worker never got the published threshold")
	}
}
