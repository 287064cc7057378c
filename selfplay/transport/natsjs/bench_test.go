package natsjs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay"
	"chuzero/selfplay/transport"
)

// BenchmarkStream publishes batches from one worker to a trainer through
// a loopback server with file storage, until the trainer has written
// them all; messages/s, batches/s and MB/s of file bytes end to end.
// Batches are made distinct by a line of their own. "1game" are the
// tests' one-game batches of short games (4 playouts, 40 plies); "sho8"
// are batches as a Sho run writes them by default: 8 games each, Sho's
// default self-play settings (playouts, ply cap), random priors.
func BenchmarkStream(b *testing.B) {
	b.Run("1game", func(b *testing.B) { benchStream(b, batches(b, 9, 8)) })
	b.Run("sho8", func(b *testing.B) { benchStream(b, defaultBatches(b, 9, 16)) })
}

// defaultBatches returns batches of games played with Sho's default
// self-play config (8 games a batch) and random priors.
func defaultBatches(b *testing.B, seed uint64, games int) []transport.Batch {
	cfg := selfplay.DefaultConfig(rules.Sho)
	cfg.Run, cfg.Seed = checkpoints.Run{Dir: b.TempDir()}, seed
	r, err := selfplay.New(cfg, mcts.Random{Seed: seed}, "random")
	if err != nil {
		b.Fatal(err)
	}
	var c capture
	r.Publisher = &c
	if err := r.Run(context.Background(), games); err != nil {
		b.Fatal(err)
	}
	return c.batches
}

func benchStream(b *testing.B, base []transport.Batch) {
	s := startServer(b, b.TempDir(), 0)
	defer stopServer(s)
	ctx := context.Background()
	cfg := Config{URL: s.ClientURL(), Run: "bench"}
	m := NewMetrics(nil)
	tr, err := NewTrainer(ctx, cfg, checkpoints.Run{Dir: b.TempDir()}, rules.Sho, m, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	stop := receive(tr)
	defer stop()
	w, err := NewWorker(cfg, checkpoints.Run{Dir: b.TempDir()}, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	var bytes, parts, games int
	n := 0
	start := time.Now()
	for b.Loop() {
		x := base[n%len(base)]
		bt := transport.Batch{Name: fmt.Sprintf("bench-%06d-g%d", n, n), Samples: x.Samples,
			Records: append(append([]byte{}, x.Records...), fmt.Sprintf("{\"index\":%d}\n", n)...), Games: x.Games + 1}
		if err := w.Publish(ctx, bt); err != nil {
			b.Fatal(err)
		}
		bytes += len(bt.Samples) + len(bt.Records)
		parts += len(tr.cfg.messages(bt, ""))
		games += x.Games
		n++
	}
	waitFor(b, "the trainer", func() bool { return testutil.ToFloat64(m.consumedBatches) >= float64(n) })
	secs := time.Since(start).Seconds()
	b.ReportMetric(float64(parts)/secs, "msgs/s")
	b.ReportMetric(float64(n)/secs, "batches/s")
	b.ReportMetric(float64(bytes)/secs/1e6, "MB/s")
	b.ReportMetric(float64(bytes)/float64(n)/1e3, "kB/batch")
	b.ReportMetric(float64(games)/float64(n), "games/batch")
}

// BenchmarkNetworkDelay: from the trainer starting to publish a 4 MB
// checkpoint to both of two workers having it in their stores.
func BenchmarkNetworkDelay(b *testing.B) {
	s := startServer(b, b.TempDir(), 0)
	defer stopServer(s)
	ctx := context.Background()
	cfg := Config{URL: s.ClientURL(), Run: "bench"}
	tr, err := NewTrainer(ctx, cfg, checkpoints.Run{Dir: b.TempDir()}, rules.Sho, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	got := make(chan struct{}, 16)
	for range 2 {
		w, err := NewWorker(cfg, checkpoints.Run{Dir: b.TempDir()}, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer w.Close()
		store, _ := w.run.Store()
		fctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { w.Follow(fctx, store, func(checkpoints.Entry) { got <- struct{}{} }); close(done) }()
		defer func() { cancel(); <-done }()
	}
	data := make([]byte, 4<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	dir := b.TempDir()
	step := int64(0)
	for b.Loop() {
		step++
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		e := checkpoints.Entry{Name: checkpoints.Name(step), Step: step, Path: filepath.Join(dir, checkpoints.Name(step)+checkpoints.Ext)}
		if err := os.WriteFile(e.Path, data, 0o644); err != nil {
			b.Fatal(err)
		}
		if err := tr.PublishCheckpoint(ctx, e); err != nil {
			b.Fatal(err)
		}
		<-got
		<-got
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/network")
}
