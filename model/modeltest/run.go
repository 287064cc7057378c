// Package modeltest makes run directories with real checkpoints of the
// tiny network for the tests of the packages above model.
package modeltest

import (
	"testing"
	"time"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/model"
	"chuzero/rules"
)

// FakeRun writes a run directory with tiny-network checkpoints of variant
// v at the given steps (fresh weights, distinct seeds) and returns it.
func FakeRun(t testing.TB, v rules.VariantID, steps ...int64) string {
	t.Helper()
	dir := t.TempDir()
	FillRun(t, dir, v, steps...)
	return dir
}

// FillRun writes tiny-network checkpoints of variant v at the given steps
// into the run directory dir.
func FillRun(t testing.TB, dir string, v rules.VariantID, steps ...int64) {
	t.Helper()
	store, err := checkpoints.RunAt(dir, v.String()).Store()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := encode.NewSpec(v, encode.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	mc, _ := model.Preset("tiny")
	for _, s := range steps {
		w, err := model.NewWeights(mc, spec, uint64(s)+1)
		if err != nil {
			t.Fatal(err)
		}
		c, err := w.Checkpoint(checkpoints.Meta{Step: s, Rules: rules.DefaultConfig(v).String(), Created: time.Now().UTC()})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.Save(c); err != nil {
			t.Fatal(err)
		}
	}
}
