package natsjs

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"chuzero/selfplay/transport"
)

// awayRetry is how long a worker whose stream is away tries each batch,
// and how often it tries again once the outbox is full.
const awayRetry = 5 * time.Second

// Publish writes b into the outbox, durably, then publishes the outbox,
// oldest batch first, each retried for up to Config.PublishTimeout (5 s
// while the stream is known to be away). A stream that stays away is
// ridden out: the batches wait in the outbox and Publish returns so that
// self-play goes on, until the outbox holds Config.MaxOutboxBytes; then
// Publish waits for the stream (self-play pauses) until ctx ends.
func (w *Worker) Publish(ctx context.Context, b transport.Batch) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.outbox.Publish(ctx, b); err != nil {
		return err
	}
	for {
		timeout := w.cfg.PublishTimeout
		if w.away {
			timeout = awayRetry
		}
		_, err := w.resend(ctx, timeout)
		if err == nil {
			if w.away {
				w.log.Info("the stream is back: the outbox is sent")
				w.away = false
			}
			w.m.outboxBytes.Set(0)
			return nil
		}
		if ctx.Err() != nil {
			return err
		}
		size := w.outboxSize()
		w.m.outboxBytes.Set(float64(size))
		if !w.away {
			w.log.Warn("the stream is unreachable: batches wait in the outbox, self-play goes on", "err", err,
				"outbox_bytes", size, "max", w.cfg.MaxOutboxBytes)
			w.away = true
		}
		if size <= w.cfg.MaxOutboxBytes {
			return nil
		}
		w.log.Warn("the outbox is full: self-play waits for the stream", "outbox_bytes", size)
		select {
		case <-ctx.Done():
			return err
		case <-time.After(awayRetry):
		}
	}
}

// outboxSize returns the bytes of the batches in the outbox.
func (w *Worker) outboxSize() int64 {
	var n int64
	for _, d := range []string{w.outbox.Run.Samples(), w.outbox.Run.Games()} {
		des, _ := os.ReadDir(d)
		for _, e := range des {
			if info, err := e.Info(); err == nil && !e.IsDir() && filepath.Ext(e.Name()) != "" {
				n += info.Size()
			}
		}
	}
	return n
}
