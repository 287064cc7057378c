package natsjs

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"chuzero/checkpoints"
	"chuzero/selfplay"
)

// The run-wide resignation threshold. Alone, every self-play process
// calibrates its own threshold from its own games without resignation;
// over NATS the trainer, which receives the games of every worker, does
// it once for the run (Trainer.Resign, the run config's calibration
// settings) and publishes each new value under the KV key "resign";
// workers (FollowResign) use the run's value for the games they start
// from then on. Until the run has resign_min_games games without
// resignation, there is no run value and each worker uses its own, as
// without NATS. A restarted trainer first reads the newest games of its
// run directory (SeedResign), so the threshold goes on from where it was.

// resignValue is the value of the KV key "resign".
type resignValue struct {
	Threshold float64   `json:"threshold"`
	Time      time.Time `json:"time"` // when the trainer published it
}

// calibrate adds the records of a batch just written to t.Resign and
// publishes the threshold if it changed.
func (t *Trainer) calibrate(ctx context.Context, recs []selfplay.Record) {
	if t.Resign == nil {
		return
	}
	th, ok := 0.0, false
	for i := range recs {
		if v, calibrated := t.Resign.Add(&recs[i]); calibrated {
			th, ok = v, true
		}
	}
	if !ok || th == t.resignPublish {
		return
	}
	v, _ := json.Marshal(resignValue{Threshold: th, Time: time.Now().UTC()})
	if _, err := t.kv.Put(ctx, keyResign, v); err != nil {
		t.log.Warn("publishing the resignation threshold failed", "threshold", th, "err", err)
		return // the next batch tries again
	}
	t.resignPublish = th
	t.m.resignThreshold.Set(th)
	t.log.Info("published the run's resignation threshold", "threshold", th)
}

// SeedResign feeds t.Resign the newest games without resignation of the
// run directory (as many as its window), oldest first, and publishes the
// threshold: a restarted trainer goes on with the run's threshold. Record
// file names begin with their UTC time, so name order is time order.
func (t *Trainer) SeedResign(ctx context.Context) error {
	if t.Resign == nil {
		return nil
	}
	names, err := filepath.Glob(filepath.Join(t.run.Run.Games(), "*"+checkpoints.RecordExt))
	if err != nil {
		return err
	}
	sort.Sort(sort.Reverse(sort.StringSlice(names)))
	var files [][]selfplay.Record // newest first
	n := 0
	for _, name := range names {
		if n >= t.Resign.Window() {
			break
		}
		recs, err := selfplay.ReadRecords(name)
		if err != nil {
			t.log.Warn("resignation threshold: a record file does not read", "file", name, "err", err)
			continue
		}
		recs = slices.DeleteFunc(recs, func(r selfplay.Record) bool { return r.ResignLow == nil })
		files = append(files, recs)
		n += len(recs)
	}
	slices.Reverse(files)
	t.calibrate(ctx, slices.Concat(files...))
	return nil
}

// FollowResign watches the KV key "resign" and calls set with each
// run-wide threshold the trainer publishes (the current one first), until
// ctx ends.
func (w *Worker) FollowResign(ctx context.Context, set func(threshold float64)) error {
	kv, _, err := w.wait(ctx)
	if err != nil {
		return nil
	}
	return watchKey(ctx, kv, keyResign, func(value []byte) {
		var v resignValue
		if err := json.Unmarshal(value, &v); err != nil || v.Threshold < -1 || v.Threshold > 1 {
			w.log.Error("the run's resign key holds no threshold", "value", string(value), "err", err)
			return
		}
		set(v.Threshold)
	})
}
