package model

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/rules"
)

// TestSaveLoadBitIdentical: weights saved and loaded give bit-identical
// outputs, and training resumed from a checkpoint (optimizer state
// included) continues exactly as without the interruption.
func TestSaveLoadBitIdentical(t *testing.T) {
	b, spec := testBatch(t, rules.Chu, 4, 5)
	w := tinyWeights(t, spec, 5)
	cfg := DefaultTrainConfig()
	cfg.Batch = 4
	tr, err := NewTrainer(w, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if _, err := tr.Step(b, 1e-3); err != nil {
			t.Fatal(err)
		}
	}
	c, err := w.Checkpoint(checkpoints.Meta{Step: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.SaveOptimizer(c); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "a.ckpt")
	if err := checkpoints.WriteFile(path, c); err != nil {
		t.Fatal(err)
	}
	w2, c2, err := LoadWeights(path, rules.Chu)
	if err != nil {
		t.Fatal(err)
	}
	out := func(w *Weights) []float32 {
		n := NewNet(w)
		ws := n.NewWorkspace(4)
		if err := n.Forward(ws, b.Planes, 4); err != nil {
			t.Fatal(err)
		}
		return append(append(append([]float32{}, ws.Logits...), ws.Pass...), ws.Value...)
	}
	if !reflect.DeepEqual(out(w), out(w2)) {
		t.Fatalf("outputs differ after save and load")
	}
	// resume: a second trainer from the checkpoint takes the same next step
	tr2, err := NewTrainer(w2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := tr2.LoadOptimizer(c2); !ok || err != nil {
		t.Fatalf("LoadOptimizer = %v, %v", ok, err)
	}
	s1, _ := tr.Step(b, 1e-3)
	s2, _ := tr2.Step(b, 1e-3)
	if s1 != s2 || !reflect.DeepEqual(out(w), out(w2)) {
		t.Fatalf("resumed training diverged: %+v vs %+v", s1, s2)
	}
}

func TestCheckpointMismatches(t *testing.T) {
	spec := encode.MustSpec(rules.Sho, encode.DefaultOptions())
	w := tinyWeights(t, spec, 1)
	dir := t.TempDir()
	save := func(name string, c *checkpoints.Checkpoint) string {
		p := filepath.Join(dir, name)
		if err := checkpoints.WriteFile(p, c); err != nil {
			t.Fatal(err)
		}
		return p
	}
	c, _ := w.Checkpoint(checkpoints.Meta{})
	good := save("good.ckpt", c)
	if _, _, err := LoadWeights(good, rules.Chu); !errors.Is(err, checkpoints.ErrMismatch) {
		t.Errorf("loading a Sho network as Chu: %v", err)
	}
	c, _ = w.Checkpoint(checkpoints.Meta{})
	c.Tensors[0].Shape = []int{3, 3, 1, 1}
	c.Tensors[0].Data = c.Tensors[0].Data[:9]
	if _, _, err := LoadWeights(save("shape.ckpt", c), rules.Sho); !errors.Is(err, checkpoints.ErrMismatch) {
		t.Errorf("misshapen tensor: %v", err)
	}
	c, _ = w.Checkpoint(checkpoints.Meta{})
	c.Tensors = c.Tensors[1:]
	if _, _, err := LoadWeights(save("missing.ckpt", c), rules.Sho); !errors.Is(err, checkpoints.ErrMismatch) {
		t.Errorf("missing tensor: %v", err)
	}
	c, _ = w.Checkpoint(checkpoints.Meta{})
	c.Meta.Encode = []byte(`{"version":99,"variant":"sho","history_plies":4}`)
	if _, _, err := LoadWeights(save("version.ckpt", c), rules.Sho); !errors.Is(err, checkpoints.ErrMismatch) {
		t.Errorf("other encode version: %v", err)
	}
	data, _ := os.ReadFile(good)
	os.WriteFile(filepath.Join(dir, "cut.ckpt"), data[:len(data)/2], 0o644)
	if _, _, err := LoadWeights(filepath.Join(dir, "cut.ckpt"), rules.Sho); err == nil {
		t.Errorf("a truncated checkpoint loaded")
	}
	data[len(data)/2] ^= 1
	os.WriteFile(filepath.Join(dir, "flip.ckpt"), data, 0o644)
	if _, _, err := LoadWeights(filepath.Join(dir, "flip.ckpt"), rules.Sho); err == nil {
		t.Errorf("a corrupted checkpoint loaded")
	}
}
