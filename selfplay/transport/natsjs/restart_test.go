package natsjs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/model"
	"chuzero/rules"
	"chuzero/selfplay/transport"
)

func newTrainer(t *testing.T, cfg Config, dir string, m *Metrics) *Trainer {
	t.Helper()
	tr, err := NewTrainer(context.Background(), cfg, checkpoints.Run{Dir: dir}, rules.Sho, m, testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func newWorker(t *testing.T, cfg Config, m *Metrics) *Worker {
	t.Helper()
	w, err := NewWorker(cfg, checkpoints.Run{Dir: t.TempDir()}, m, testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func publishAll(t *testing.T, w *Worker, bs []transport.Batch) {
	t.Helper()
	for _, b := range bs {
		if err := w.Publish(context.Background(), b); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTrainerRestartResumes: a trainer stopped and started again takes up
// after the batches it acknowledged: the directory ends with every batch
// once, the second trainer saw none of the first's again, and its replay
// window is that of a trainer of the same batches that never stopped
// (run "ref" on the same server).
func TestTrainerRestartResumes(t *testing.T) {
	s := startServer(t, t.TempDir(), 0)
	defer stopServer(s)
	cfg := testConfig(s.ClientURL())
	refCfg := cfg
	refCfg.Run = "ref"
	tdir, refDir := t.TempDir(), t.TempDir()
	bs := batches(t, 3, 5)
	w, refW := newWorker(t, cfg, nil), newWorker(t, refCfg, nil)
	defer w.Close()
	defer refW.Close()
	ref := newTrainer(t, refCfg, refDir, nil)
	defer ref.Close()
	stopRef := receive(ref)
	defer stopRef()

	tr := newTrainer(t, cfg, tdir, nil)
	publishAll(t, w, bs[:3])
	publishAll(t, refW, bs[:3])
	stop := receive(tr)
	haveBatches(t, tdir, 3)
	stop()
	tr.Close()

	publishAll(t, w, bs[3:])
	publishAll(t, refW, bs[3:])
	m := NewMetrics(nil)
	tr = newTrainer(t, cfg, tdir, m)
	defer tr.Close()
	stop = receive(tr)
	haveBatches(t, tdir, 5)
	haveBatches(t, refDir, 5)
	stop()
	if samples, _ := runFiles(t, tdir); len(samples) != 5 {
		t.Errorf("%d sample files after the restart, want 5", len(samples))
	}
	if got, dup := testutil.ToFloat64(m.consumedBatches), testutil.ToFloat64(m.duplicates); got != 2 || dup != 0 {
		t.Errorf("the restarted trainer consumed %v batches and %v duplicates, want 2 and 0", got, dup)
	}
	sameWindow(t, tdir, refDir)
}

// sameWindow checks that the replay windows over the sample files of run
// directories a and b are the same: files, sample and game counts, and
// the minibatches drawn with the same generator.
func sameWindow(t *testing.T, a, b string) {
	t.Helper()
	spec := encode.MustSpec(rules.Sho, encode.DefaultOptions())
	rcfg := model.DefaultReplayConfig()
	rcfg.WindowMin = 64
	var rs [2]*model.Replay
	var draws [2][]model.Batch
	for i, dir := range []string{a, b} {
		r, err := model.NewReplay(checkpoints.Run{Dir: dir}.Samples(), spec, rcfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Refresh(); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(5, 5))
		for range 3 {
			var mb model.Batch
			if err := r.FillBatch(rng, &mb, 32); err != nil {
				t.Fatal(err)
			}
			draws[i] = append(draws[i], mb)
		}
		rs[i] = r
	}
	ra, rb := rs[0], rs[1]
	t.Logf("window: %d files, %d samples, %d games, %d held out, window %d", ra.Files(), ra.Total(), ra.Games(), ra.HeldOut(), ra.Window())
	if ra.Files() != rb.Files() || ra.Total() != rb.Total() || ra.Games() != rb.Games() || ra.HeldOut() != rb.HeldOut() || ra.Window() != rb.Window() {
		t.Errorf("windows differ: %d/%d files, %d/%d samples, %d/%d games, %d/%d held out, %d/%d window",
			ra.Files(), rb.Files(), ra.Total(), rb.Total(), ra.Games(), rb.Games(), ra.HeldOut(), rb.HeldOut(), ra.Window(), rb.Window())
	}
	if !reflect.DeepEqual(draws[0], draws[1]) {
		t.Error("minibatches drawn from the two windows with the same generator differ")
	}
}

// TestServerRestartLosesNothing: the server (file storage) goes down and
// comes back on the same port; a worker publishing meanwhile reconnects by
// itself and retries; every acknowledged batch is there.
func TestServerRestartLosesNothing(t *testing.T) {
	store := t.TempDir()
	s := startServer(t, store, 0)
	port := s.Addr().(*net.TCPAddr).Port
	cfg := testConfig(s.ClientURL())
	tdir := t.TempDir()
	bs := batches(t, 4, 4)
	wm := NewMetrics(nil)
	w := newWorker(t, cfg, wm)
	defer w.Close()
	tr := newTrainer(t, cfg, tdir, nil)
	defer tr.Close()
	publishAll(t, w, bs[:2]) // acknowledged by the stream, not yet consumed

	stopServer(s)
	done := make(chan error, 1)
	go func() { done <- w.Publish(context.Background(), bs[2]) }() // retries until the server is back
	waitFor(t, "a failed publish", func() bool { return testutil.ToFloat64(wm.publishRetries) > 0 })
	s = startServer(t, store, port)
	defer stopServer(s)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	publishAll(t, w, bs[3:])
	stop := receive(tr)
	haveBatches(t, tdir, 4)
	stop()
	if samples, _ := runFiles(t, tdir); len(samples) != 4 {
		t.Errorf("%d sample files, want 4", len(samples))
	}
}

// TestBadInputRejected: messages that are not parts of a valid batch of
// this run are logged, counted and dropped; none reaches the run
// directory, and a good batch after them still does.
func TestBadInputRejected(t *testing.T) {
	s := startServer(t, t.TempDir(), 0)
	defer stopServer(s)
	ctx := context.Background()
	cfg := testConfig(s.ClientURL())
	tdir := t.TempDir()
	m := NewMetrics(nil)
	tr := newTrainer(t, cfg, tdir, m)
	defer tr.Close()
	good := batches(t, 5, 2)
	n := 0
	pub := func(msgs ...*nats.Msg) {
		for _, msg := range msgs {
			// their own ids: the good batches' ids must stay theirs
			n++
			msg.Header.Set(nats.MsgIdHdr, fmt.Sprintf("bad-%d", n))
			if _, err := tr.js.PublishMsg(ctx, msg); err != nil {
				t.Fatal(err)
			}
		}
	}
	c := cfg.withDefaults()
	// no headers at all
	pub(&nats.Msg{Subject: c.subject(kindSamples), Data: []byte("hello"), Header: nats.Header{}})
	// a valid batch whose content was changed after hashing
	bad := c.messages(good[0], "evil")
	bad[0].Data = append([]byte{}, bad[0].Data...)
	bad[0].Data[len(bad[0].Data)-1] ^= 1
	pub(bad...)
	// garbage files with a correct hash
	junk := transport.Batch{Name: "junk-g1", Samples: []byte("not a sample file"), Records: []byte("{}\n"), Games: 1}
	pub(c.messages(junk, "evil")...)
	// samples of another variant
	other, err := encode.EncodeSampleFile(rules.Chu, nil)
	if err != nil {
		t.Fatal(err)
	}
	pub(c.messages(transport.Batch{Name: "chu-g1", Samples: other, Records: []byte("{}\n"), Games: 1}, "evil")...)
	// records that disagree with the count
	pub(c.messages(transport.Batch{Name: "count-g1", Samples: good[1].Samples, Records: good[1].Records, Games: 7}, "evil")...)
	// a sound sample file, one of whose samples is hostile
	pub(c.messages(transport.Batch{Name: "hostile-g1", Samples: hostile(t, good[1].Samples), Records: good[1].Records, Games: good[1].Games}, "evil")...)
	// a name that climbs out of the directory
	esc := c.messages(good[1], "evil")
	for _, msg := range esc {
		msg.Header.Set(hdrBatch, "../../escape")
	}
	pub(esc...)
	w := newWorker(t, cfg, nil)
	defer w.Close()
	publishAll(t, w, good)
	stop := receive(tr)
	haveBatches(t, tdir, 2)
	waitFor(t, "the rejections", func() bool { return testutil.CollectAndCount(m.rejected) >= 6 })
	stop()
	for _, reason := range []string{"headers", "hash", "samples", "variant", "records", "invalid_sample"} {
		if testutil.ToFloat64(m.rejected.WithLabelValues(reason)) == 0 {
			t.Errorf("no rejection counted for %s", reason)
		}
	}
	samples, records := runFiles(t, tdir)
	if len(samples) != 2 || len(records) != 2 {
		t.Errorf("run directory has %v and %v, want the 2 good batches", samples, records)
	}
	if _, err := os.Stat(filepath.Join(tdir, "..", "..", "escape.jsonl")); err == nil {
		t.Error("a batch was written outside the run directory")
	}
}

// hostile returns a sample file with the samples of file, the middle one's
// position replaced by garbage: every checksum right, one sample invalid.
func hostile(t *testing.T, file []byte) []byte {
	t.Helper()
	sr, err := encode.NewSampleReader(bytes.NewReader(file), "good")
	if err != nil {
		t.Fatal(err)
	}
	var all []encode.Sample
	for {
		var s encode.Sample
		if err := sr.Next(&s); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		all = append(all, s)
	}
	all[len(all)/2].SFEN = "9/9/9 x 1"
	out, err := encode.EncodeSampleFile(sr.Variant, [][]encode.Sample{all})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestNetworkReachesWorkers: a checkpoint the trainer publishes lands in
// every worker's store, byte for byte; announced again, it is not
// downloaded again.
func TestNetworkReachesWorkers(t *testing.T) {
	s := startServer(t, t.TempDir(), 0)
	defer stopServer(s)
	ctx := context.Background()
	cfg := testConfig(s.ClientURL())
	tdir := t.TempDir()
	tr := newTrainer(t, cfg, tdir, nil)
	defer tr.Close()
	if err := tr.PublishConfig(ctx, []byte(`{"variant":"sho"}`)); err != nil {
		t.Fatal(err)
	}
	ckpt := filepath.Join(tdir, "step-000000010.ckpt")
	if err := os.WriteFile(ckpt, []byte("network bytes, any content will do"), 0o644); err != nil {
		t.Fatal(err)
	}
	type follower struct {
		w     *Worker
		m     *Metrics
		store *checkpoints.Store
		got   chan checkpoints.Entry
		stop  func()
	}
	var fs []*follower
	for range 2 {
		m := NewMetrics(nil)
		w := newWorker(t, cfg, m)
		defer w.Close()
		store, err := w.run.Store()
		if err != nil {
			t.Fatal(err)
		}
		f := &follower{w: w, m: m, store: store, got: make(chan checkpoints.Entry, 4)}
		fctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { w.Follow(fctx, store, func(e checkpoints.Entry) { f.got <- e }); close(done) }()
		f.stop = func() { cancel(); <-done }
		defer f.stop()
		fs = append(fs, f)
		if c, err := w.Config(ctx); err != nil || string(c) != `{"variant":"sho"}` {
			t.Fatalf("Config = %q, %v", c, err)
		}
	}
	for round := range 2 {
		if err := tr.PublishCheckpoint(ctx, checkpoints.Entry{Name: "step-000000010", Step: 10, Path: ckpt}); err != nil {
			t.Fatal(err)
		}
		for i, f := range fs {
			e := <-f.got
			if e.Step != 10 || string(readFile(t, e.Path)) != string(readFile(t, ckpt)) {
				t.Errorf("round %d, worker %d: got %+v", round, i, e)
			}
			if hits := testutil.ToFloat64(f.m.networkCacheHits); hits != float64(round) {
				t.Errorf("round %d, worker %d: %v cache hits", round, i, hits)
			}
		}
	}
}
