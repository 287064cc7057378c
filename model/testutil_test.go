package model

import (
	"os"
	"testing"

	"chuzero/encode"
	"chuzero/rules"
)

// testBatch returns RandomBatch's positions of variant v.
func testBatch(t testing.TB, v rules.VariantID, n int, seed uint64) (*Batch, *encode.Spec) {
	t.Helper()
	spec := encode.MustSpec(v, encode.DefaultOptions())
	b, err := RandomBatch(spec, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return b, spec
}

func tinyWeights(t testing.TB, spec *encode.Spec, seed uint64) *Weights {
	t.Helper()
	w, err := NewWeights(Presets["tiny"], spec, seed)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func osMkdirAll(dir string) error { return os.MkdirAll(dir, 0o755) }
