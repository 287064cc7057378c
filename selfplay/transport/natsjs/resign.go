package natsjs

import (
	"context"
	"encoding/json"
	"time"
)

// The run-wide resignation threshold travels under the KV key "resign":
// the trainer process decides it (package selfplay/training calibrates it
// from the records OnRecords hands over) and publishes it with
// PublishResign; workers follow it with FollowResign.

// resignValue is the value of the KV key "resign".
type resignValue struct {
	Threshold float64   `json:"threshold"`
	Time      time.Time `json:"time"` // when the trainer published it
}

// PublishResign publishes threshold as the run's resignation threshold.
func (t *Trainer) PublishResign(ctx context.Context, threshold float64) error {
	v, _ := json.Marshal(resignValue{Threshold: threshold, Time: time.Now().UTC()})
	if _, err := t.kv.Put(ctx, keyResign, v); err != nil {
		return err
	}
	t.m.resignThreshold.Set(threshold)
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
