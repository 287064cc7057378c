package model

import (
	"math"
	"testing"

	"chuzero/rules"
)

// TestDecoupledWeightDecay checks AdamW's decay: with a zero gradient the
// adaptive update is zero, so a decayed tensor shrinks by exactly
// 1 - lr*WeightDecay per step and the others stay put, for both
// optimizers; the coupled L2 term of Adam, by contrast, is normalised away.
func TestDecoupledWeightDecay(t *testing.T) {
	_, spec := testBatch(t, rules.Sho, 1, 1)
	for _, kind := range []OptimizerKind{Adam, Momentum} {
		w := tinyWeights(t, spec, 3)
		before := w.Clone()
		o := newOptimizer(kind, w, 0.9, 0.9, 0.999, 1e-8)
		o.weightDecay = 0.5
		grads := gradSink{}
		for _, tt := range w.Tensors {
			z := make([]float32, len(tt.Data))
			grads[tt.Name] = &z
		}
		const lr, steps = 0.01, 3
		for range steps {
			o.apply(w, grads, lr, 0, 1)
		}
		want := math.Pow(1-lr*0.5, steps)
		for i, tt := range w.Tensors {
			if !tt.Role.Trained() {
				continue
			}
			for j, v := range tt.Data {
				b := float64(before.Tensors[i].Data[j])
				exp := b
				if tt.Role.Decayed() {
					exp = b * want
				}
				if math.Abs(float64(v)-exp) > 1e-6*max(1, math.Abs(b)) {
					t.Fatalf("%s: %s[%d] = %v, want %v", kind, tt.Name, j, v, exp)
				}
			}
		}
	}
}

// TestAdamL2IsScaleFree shows why AdamW is the default: under Adam an L2
// term alone moves every weight by about lr per step whatever its size
// (the update is normalised), so it decays a large weight no faster than
// a small one, unlike decoupled decay.
func TestAdamL2IsScaleFree(t *testing.T) {
	_, spec := testBatch(t, rules.Sho, 1, 1)
	w := tinyWeights(t, spec, 3)
	before := w.Clone()
	o := newOptimizer(Adam, w, 0.9, 0.9, 0.999, 1e-8)
	grads := gradSink{}
	for _, tt := range w.Tensors {
		z := make([]float32, len(tt.Data))
		grads[tt.Name] = &z
	}
	o.apply(w, grads, 0.01, 1e-4, 1)
	for i, tt := range w.Tensors {
		if !tt.Role.Decayed() {
			continue
		}
		for j, v := range tt.Data {
			b := before.Tensors[i].Data[j]
			if math.Abs(float64(b)) < 0.01 { // below, Adam's epsilon matters
				continue
			}
			if d := math.Abs(float64(b - v)); math.Abs(d-0.01) > 5e-4 {
				t.Fatalf("%s[%d]: Adam with L2 moved %v by %v, want about lr (0.01)", tt.Name, j, b, d)
			}
		}
	}
}
