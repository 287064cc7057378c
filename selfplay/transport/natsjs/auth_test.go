package natsjs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"chuzero/checkpoints"
)

// TestEmbeddedServerAuth: off loopback the embedded server will not start
// without keys; with them it refuses a client without a key, lets the
// trainer and a worker do their whole work (config, batches, a network)
// and refuses the worker every write that belongs to the trainer.
func TestEmbeddedServerAuth(t *testing.T) {
	if _, err := StartServer(ServerOptions{Addr: "0.0.0.0:0", StoreDir: t.TempDir()}); !errors.Is(err, errNoAuth) {
		t.Fatalf("an open server off loopback: %v", err)
	}
	keyDir := filepath.Join(t.TempDir(), "keys")
	keys, made, err := EnsureKeys(keyDir)
	if err != nil || !made {
		t.Fatal(made, err)
	}
	for _, p := range []string{keys.Trainer, keys.Worker} {
		if info, err := os.Stat(p); err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, mode %v", p, err, info.Mode())
		}
	}
	if again, made, err := EnsureKeys(keyDir); err != nil || made || again != keys {
		t.Errorf("keys made again: %v %v", made, err)
	}
	srv, err := StartServer(ServerOptions{Addr: "127.0.0.1:0", StoreDir: t.TempDir(), Keys: &keys, Run: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	if nc, err := nats.Connect(srv.URL(), nats.Timeout(2*time.Second)); err == nil {
		nc.Close()
		t.Fatal("a client without a key connected")
	}
	cfg := testConfig(srv.URL())
	tcfg, wcfg := cfg, cfg
	tcfg.NKeySeed, wcfg.NKeySeed = keys.Trainer, keys.Worker
	tdir := t.TempDir()
	tr := newTrainer(t, tcfg, tdir, nil)
	defer tr.Close()
	if err := tr.PublishConfig(ctx, []byte(`{"variant":"sho"}`)); err != nil {
		t.Fatal(err)
	}
	ckpt := filepath.Join(tdir, "step-000000010.ckpt")
	os.WriteFile(ckpt, []byte("network bytes"), 0o644)
	if err := tr.PublishCheckpoint(ctx, checkpoints.Entry{Name: "step-000000010", Step: 10, Path: ckpt}); err != nil {
		t.Fatal(err)
	}
	w := newWorker(t, wcfg, nil)
	defer w.Close()
	if c, err := w.Config(ctx); err != nil || string(c) != `{"variant":"sho"}` {
		t.Fatalf("the worker's Config = %q, %v", c, err)
	}
	store, _ := w.run.Store()
	fctx, cancel := context.WithCancel(ctx)
	got := make(chan checkpoints.Entry, 1)
	done := make(chan struct{})
	go func() { w.Follow(fctx, store, func(e checkpoints.Entry) { got <- e }); close(done) }()
	select {
	case e := <-got:
		if e.Step != 10 {
			t.Errorf("the worker got %+v", e)
		}
	case <-time.After(guard):
		t.Fatal("the worker never got the network")
	}
	cancel()
	<-done
	publishAll(t, w, batches(t, 7, 2))
	stop := receive(tr)
	haveBatches(t, tdir, 2)
	stop()
	refusedWrites(t, srv.URL(), keys.Worker, cfg)
}

// refusedWrites connects as a worker and tries the trainer's writes.
func refusedWrites(t *testing.T, url, seed string, cfg Config, extra ...nats.Option) {
	t.Helper()
	nc, err := nats.Connect(url, append(extra, mustNkey(t, seed))...)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	// a refused request gets no answer: each attempt has its own deadline
	op := func() context.Context {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		t.Cleanup(cancel)
		return ctx
	}
	kv, err := js.KeyValue(op(), cfg.bucket())
	if err != nil {
		t.Fatalf("a worker cannot read the bucket: %v", err)
	}
	if _, err := kv.Put(op(), keyConfig, []byte(`{"evil":true}`)); err == nil {
		t.Error("a worker replaced the run config")
	}
	if _, err := kv.Put(op(), keyResign, []byte(`0.99`)); err == nil {
		t.Error("a worker replaced the resign value")
	}
	if e, err := kv.Get(op(), keyConfig); err != nil || string(e.Value()) != `{"variant":"sho"}` {
		t.Errorf("the config after the attempts: %v", err)
	}
	if err := js.DeleteStream(op(), cfg.stream()); err == nil {
		t.Error("a worker deleted the stream")
	}
	if err := js.DeleteKeyValue(op(), cfg.bucket()); err == nil {
		t.Error("a worker deleted the bucket")
	}
	if s, err := js.Stream(op(), cfg.stream()); err == nil {
		if err := s.Purge(op()); err == nil {
			t.Error("a worker purged the stream")
		}
	}
	if obs, err := js.ObjectStore(op(), cfg.objects()); err == nil {
		if _, err := obs.PutBytes(op(), "step-000000099", []byte("evil network")); err == nil {
			t.Error("a worker put a network")
		}
	} else {
		t.Errorf("a worker cannot read the object store: %v", err)
	}
	if _, err := js.CreateStream(op(), jetstream.StreamConfig{Name: "EVIL", Subjects: []string{"evil.>"}}); err == nil {
		t.Error("a worker created a stream")
	}
}
