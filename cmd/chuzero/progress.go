package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"chuzero/model"
	"chuzero/selfplay"
)

// progress shows what a run is doing: a status line rewritten every second
// on a terminal, a log line every 30 s otherwise.
type progress struct {
	out      io.Writer
	tty      bool
	log      *slog.Logger
	start    time.Time
	deadline time.Time // zero: no time bound
	maxSteps int64     // 0: no step bound

	mu        sync.Mutex
	games     int64
	plies     int64
	sims      int64
	step      int64
	firstStep int64
	stats     model.StepStats
	heldOut   model.StepStats // the last held-out measurement
	waiting   bool
	window    int
	reuse     float64
	ckpt      string
	lastLine  int
	prev      struct {
		at                time.Time
		plies, sims, step int64
	}
}

// isTerminal reports whether f is a terminal (a character device).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func newProgress(out *os.File, log *slog.Logger, duration time.Duration, maxSteps int64) *progress {
	p := &progress{out: out, tty: isTerminal(out), log: log, start: time.Now(), maxSteps: maxSteps, firstStep: -1}
	if duration > 0 {
		p.deadline = p.start.Add(duration)
	}
	p.prev.at = p.start
	return p
}

// Game implements training.Observer.
func (p *progress) Game(rec *selfplay.Record) {
	p.mu.Lock()
	p.games++
	p.mu.Unlock()
}

// Move implements training.Observer.
func (p *progress) Move(sims int) {
	p.mu.Lock()
	p.plies++
	p.sims += int64(sims)
	p.mu.Unlock()
}

// TrainStep implements training.Observer.
func (p *progress) TrainStep(i model.StepInfo) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.firstStep < 0 {
		p.firstStep = i.Step
	}
	p.step, p.waiting, p.window, p.reuse = i.Step, i.Waiting, i.Window, i.Reuse
	if !i.Waiting && !i.Skipped {
		p.stats = i.Stats
	}
	if i.HeldOut != nil {
		p.heldOut = *i.HeldOut
	}
}

// Checkpoint implements training.Observer.
func (p *progress) Checkpoint(name string) {
	p.mu.Lock()
	p.ckpt = name
	p.mu.Unlock()
}

// run prints until ctx is done, then prints a final line.
func (p *progress) run(ctx context.Context) {
	every := 30 * time.Second
	if p.tty {
		every = time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			p.print(true)
			return
		case <-t.C:
			p.print(false)
		}
	}
}

func (p *progress) print(final bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	dt := now.Sub(p.prev.at).Seconds()
	rate := func(cur, prev int64) float64 {
		if dt <= 0 {
			return 0
		}
		return float64(cur-prev) / dt
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] games %d | %.1f moves/s %.0f sims/s", now.Sub(p.start).Round(time.Second),
		p.games, rate(p.plies, p.prev.plies), rate(p.sims, p.prev.sims))
	if p.firstStep >= 0 {
		fmt.Fprintf(&b, " | step %d (%.2f/s)", p.step, rate(p.step, p.prev.step))
		if p.stats.Loss != 0 {
			fmt.Fprintf(&b, " loss p %.3f v %.3f", p.stats.PolicyLoss, p.stats.ValueLoss)
		}
		if p.heldOut.Loss != 0 {
			fmt.Fprintf(&b, " (held-out p %.3f v %.3f)", p.heldOut.PolicyLoss, p.heldOut.ValueLoss)
		}
		fmt.Fprintf(&b, " | window %d reuse %.1fx", p.window, p.reuse)
		if p.waiting {
			b.WriteString(" (waiting for games)")
		}
	}
	if p.ckpt != "" {
		fmt.Fprintf(&b, " | ckpt %s", p.ckpt)
	}
	if eta := p.eta(now); eta > 0 {
		fmt.Fprintf(&b, " | ETA %s", eta.Round(time.Second))
	}
	p.prev.at, p.prev.plies, p.prev.sims, p.prev.step = now, p.plies, p.sims, p.step
	line := b.String()
	switch {
	case p.tty:
		pad := max(0, p.lastLine-len(line))
		fmt.Fprintf(p.out, "\r%s%s", line, strings.Repeat(" ", pad))
		p.lastLine = len(line)
		if final {
			fmt.Fprintln(p.out)
		}
	default:
		p.log.Info("progress", "status", line)
	}
}

// eta estimates the time left of a bounded run.
func (p *progress) eta(now time.Time) time.Duration {
	var left time.Duration
	if !p.deadline.IsZero() {
		left = p.deadline.Sub(now)
	}
	if p.maxSteps > 0 && p.firstStep >= 0 && p.step > p.firstStep {
		per := now.Sub(p.start) / time.Duration(p.step-p.firstStep)
		byStep := per * time.Duration(max(p.maxSteps-p.step, 0))
		if left == 0 || byStep < left {
			left = byStep
		}
	}
	return max(left, 0)
}
