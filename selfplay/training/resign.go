package training

import (
	"context"
	"log/slog"
	"math"
	"path/filepath"
	"slices"
	"sort"

	"chuzero/checkpoints"
	"chuzero/selfplay"
)

// The run-wide resignation threshold. Alone, every self-play process
// calibrates its own threshold from its own games without resignation;
// over NATS the trainer, which receives the games of every worker, does
// it once for the run (runResign, the run config's calibration settings)
// and publishes each new value (natsjs.Trainer.PublishResign); workers
// (natsjs.Worker.FollowResign) use the run's value for the games they
// start from then on. Until the run has resign_min_games games without
// resignation, there is no run value and each worker uses its own, as
// without NATS. A restarted trainer first reads the newest games of its
// run directory (seed), so the threshold goes on from where it was.

// runResign calibrates the run's threshold from the records of the
// batches the trainer writes and publishes it when it changes.
type runResign struct {
	cal       *selfplay.ResignCalibrator
	games     string // the run's games directory
	publish   func(ctx context.Context, threshold float64) error
	published float64 // the threshold last published (NaN: none)
	log       *slog.Logger
}

// newRunResign returns the calibration of self-play config spc over the
// run's games, publishing with publish.
func newRunResign(spc selfplay.Config, run checkpoints.Run, publish func(context.Context, float64) error, log *slog.Logger) *runResign {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &runResign{cal: selfplay.NewResignCalibrator(spc), games: run.Games(), publish: publish, published: math.NaN(), log: log}
}

// add adds the records of a batch just written and publishes the
// threshold if it changed.
func (r *runResign) add(ctx context.Context, recs []selfplay.Record) {
	th, ok := 0.0, false
	for i := range recs {
		if v, calibrated := r.cal.Add(&recs[i]); calibrated {
			th, ok = v, true
		}
	}
	if !ok || th == r.published {
		return
	}
	if err := r.publish(ctx, th); err != nil {
		r.log.Warn("publishing the resignation threshold failed", "threshold", th, "err", err)
		return // the next batch tries again
	}
	r.published = th
	r.log.Info("published the run's resignation threshold", "threshold", th)
}

// seed adds the newest games without resignation of the run directory
// (as many as the calibration's window), oldest first, and publishes the
// threshold. Record file names begin with their UTC time, so name order
// is time order; a file that does not read is skipped with a warning.
func (r *runResign) seed(ctx context.Context) error {
	names, err := filepath.Glob(filepath.Join(r.games, "*"+checkpoints.RecordExt))
	if err != nil {
		return err
	}
	sort.Sort(sort.Reverse(sort.StringSlice(names)))
	var files [][]selfplay.Record // newest first
	n := 0
	for _, name := range names {
		if n >= r.cal.Window() {
			break
		}
		recs, err := selfplay.ReadRecords(name)
		if err != nil {
			r.log.Warn("resignation threshold: a record file does not read", "file", name, "err", err)
			continue
		}
		recs = slices.DeleteFunc(recs, func(r selfplay.Record) bool { return r.ResignLow == nil })
		files = append(files, recs)
		n += len(recs)
	}
	slices.Reverse(files)
	r.add(ctx, slices.Concat(files...))
	return nil
}
