package probe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"chuzero/checkpoints"
	"chuzero/encode"
)

// Options are a whole probe's inputs.
type Options struct {
	Samples     string // the run's samples directory
	Config      Config
	Checkpoints []checkpoints.Entry // the networks to probe, in this order
	// Load makes the evaluator of a checkpoint's network and returns the
	// network's encoding spec.
	Load func(e checkpoints.Entry) (Evaluator, *encode.Spec, error)
	// Progress, if set, gets a line as each part of the probe is done.
	Progress io.Writer
}

// Run reads the positions, runs the capture search on them and measures
// every checkpoint's network, stopping early when ctx ends.
func Run(ctx context.Context, o Options) (*Report, error) {
	if len(o.Checkpoints) == 0 {
		return nil, errors.New("probe: no checkpoint to probe")
	}
	if o.Config.Every < 1 || o.Config.Positions < 1 {
		return nil, fmt.Errorf("probe: every %d and positions %d must be positive", o.Config.Every, o.Config.Positions)
	}
	progress := func(format string, args ...any) {
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, format+"\n", args...)
		}
	}
	start := time.Now()
	games, samples, err := Read(o.Samples, o.Config)
	if err != nil {
		return nil, err
	}
	trained := false
	if len(samples) == 0 && o.Config.HeldOut != nil {
		// a young run may hold no game out yet: probe its training games
		cfg := o.Config
		cfg.HeldOut = nil
		if games, samples, err = Read(o.Samples, cfg); err != nil {
			return nil, err
		}
		trained = true
	}
	if len(samples) == 0 {
		return nil, fmt.Errorf("probe: no held-out position in %s (%d games)", o.Samples, games.Games)
	}
	progress("probe: read %d samples of %d games; %d positions drawn (%.1fs)", games.Samples, games.Games, len(samples), time.Since(start).Seconds())
	r := &Report{Games: games, Every: o.Config.Every, TrainedOn: trained}
	var ps []Position
	for i, e := range o.Checkpoints {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ev, spec, err := o.Load(e)
		if err != nil {
			return nil, fmt.Errorf("probe: %s: %w", e.Name, err)
		}
		if i == 0 {
			if ps, err = Prepare(samples, spec, o.Config); err != nil {
				return nil, err
			}
			r.Positions, r.Targets = len(ps), TargetsOf(ps)
			progress("probe: capture search of %d positions and their moves done (%.1fs)", len(ps), time.Since(start).Seconds())
		}
		res, err := Measure(e.Name, ev, ps, o.Config)
		if err != nil {
			return nil, fmt.Errorf("probe: %s: %w", e.Name, err)
		}
		r.Results = append(r.Results, res)
		progress("probe: %s measured (%.1fs)", e.Name, time.Since(start).Seconds())
	}
	return r, nil
}

// Spread picks n checkpoints of l (in step order) spread evenly by step:
// the first, the last and the nearest to evenly spaced steps between,
// each at most once.
func Spread(l []checkpoints.Entry, n int) []checkpoints.Entry {
	if n >= len(l) || len(l) == 0 {
		return l
	}
	if n <= 1 {
		return l[len(l)-1:]
	}
	first, last := l[0].Step, l[len(l)-1].Step
	var out []checkpoints.Entry
	j := 0
	for k := 0; k < n; k++ {
		want := first + (last-first)*int64(k)/int64(n-1)
		for j < len(l)-1 && absDiff(l[j+1].Step, want) <= absDiff(l[j].Step, want) {
			j++
		}
		if len(out) == 0 || out[len(out)-1].Step != l[j].Step {
			out = append(out, l[j])
		}
	}
	return out
}

func absDiff(a, b int64) int64 {
	if a > b {
		return a - b
	}
	return b - a
}
