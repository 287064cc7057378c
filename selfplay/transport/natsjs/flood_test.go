package natsjs

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestIntakeFlood: one worker key floods the stream with one-part
// batches that never complete, some claiming more parts than any batch
// the trainer can hold, some a plausible count; an honest worker's batches
// published after the flood still arrive, and the flood is refused at
// once and counted.
func TestIntakeFlood(t *testing.T) {
	s := startServer(t, t.TempDir(), 0)
	defer stopServer(s)
	ctx := context.Background()
	cfg := testConfig(s.ClientURL())
	tdir := t.TempDir()
	m := NewMetrics(nil)
	tr := newTrainer(t, cfg, tdir, m)
	defer tr.Close()
	var warnings atomic.Int64
	tr.log = slog.New(countHandler{&warnings})
	tr.MaxAssemblyBytes = 1024 * cfg.PartSize // 4 MiB: every part count past 1026 is refused
	c := cfg.withDefaults()
	const flood = 400
	plausible := tr.maxParts() - 1
	for i := range 2 * flood {
		parts, worker := 65536, "evil"
		if i >= flood {
			parts, worker = plausible, "evil2"
		}
		msg := nats.NewMsg(c.subject(kindSamples))
		msg.Data = []byte("part")
		msg.Header.Set(nats.MsgIdHdr, fmt.Sprintf("flood-%d", i))
		msg.Header.Set(hdrVersion, version)
		msg.Header.Set(hdrBatch, fmt.Sprintf("flood-%d-g1", i))
		msg.Header.Set(hdrHash, fmt.Sprintf("%064x", i))
		msg.Header.Set(hdrPart, fmt.Sprintf("0/%d", parts))
		msg.Header.Set(hdrParts, fmt.Sprintf("%d 1", parts))
		msg.Header.Set(hdrGames, "1")
		msg.Header.Set(hdrWorker, worker)
		if _, err := tr.js.PublishMsg(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	good := batches(t, 6, 4)
	w := newWorker(t, cfg, nil)
	defer w.Close()
	publishAll(t, w, good)
	stop := receive(tr)
	haveBatches(t, tdir, len(good))
	waitFor(t, "the flood's refusals", func() bool {
		return testutil.ToFloat64(m.rejected.WithLabelValues("open_batches")) >= flood-float64(tr.MaxWorkerAssemblies) &&
			testutil.ToFloat64(m.rejected.WithLabelValues("parts")) >= flood
	})
	stop()
	if got := testutil.ToFloat64(m.rejected.WithLabelValues("parts")); got != flood {
		t.Errorf("refused %v batches claiming 65536 parts, want %d", got, flood)
	}
	if n := warnings.Load(); n > 40 {
		t.Errorf("%d warnings logged for a flood of %d messages, want the first 20 and a few more", n, 2*flood)
	}
	if n := len(tr.assembling); n > tr.MaxWorkerAssemblies {
		t.Errorf("%d batches held open after the flood, want at most %d (one worker's bound)", n, tr.MaxWorkerAssemblies)
	}
}

// countHandler counts the records logged at warning level or above.
type countHandler struct{ n *atomic.Int64 }

func (h countHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h countHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		h.n.Add(1)
	}
	return nil
}
func (h countHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h countHandler) WithGroup(string) slog.Handler      { return h }
