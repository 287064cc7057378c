package model

import (
	"encoding/json"
	"fmt"
	"strings"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/rules"
)

// optimizerMeta is the optimizer part of a checkpoint's metadata.
type optimizerMeta struct {
	Kind     OptimizerKind `json:"kind"`
	Step     int64         `json:"step"`
	Momentum float64       `json:"momentum,omitempty"`
	Beta1    float64       `json:"beta1,omitempty"`
	Beta2    float64       `json:"beta2,omitempty"`
	Epsilon  float64       `json:"epsilon,omitempty"`
}

const optPrefix = "opt/"

// Checkpoint returns the weights as a checkpoint: every tensor (batch-norm
// running statistics included) and the metadata that identifies them
// (variant, encode spec, architecture); meta supplies the rest.
func (w *Weights) Checkpoint(meta checkpoints.Meta) (*checkpoints.Checkpoint, error) {
	var err error
	meta.Variant = w.Spec.Variant.String()
	if meta.Encode, err = json.Marshal(w.Spec.Info()); err != nil {
		return nil, err
	}
	if meta.Model, err = json.Marshal(w.Config); err != nil {
		return nil, err
	}
	c := &checkpoints.Checkpoint{Meta: meta}
	for _, t := range w.Tensors {
		c.Tensors = append(c.Tensors, checkpoints.Tensor{Name: t.Name, Shape: append([]int(nil), t.Shape...),
			Data: append([]float32(nil), t.Data...)})
	}
	return c, nil
}

// WeightsFromCheckpoint rebuilds the weights of a checkpoint. It refuses,
// with an error wrapping checkpoints.ErrMismatch, a checkpoint of another
// encode version, a missing, unexpected or misshapen tensor. A checkpoint
// from before the auxiliary heads (its model config lacks aux_heads)
// loads with them on: their tensors, missing from it, are freshly
// initialised from a fixed seed (the same network on every load).
func WeightsFromCheckpoint(c *checkpoints.Checkpoint) (*Weights, error) {
	var info encode.Info
	if err := json.Unmarshal(c.Meta.Encode, &info); err != nil {
		return nil, fmt.Errorf("model: checkpoint has no readable encode spec: %w", err)
	}
	v, err := rules.ParseVariant(info.Variant)
	if err != nil {
		return nil, err
	}
	if c.Meta.Variant != info.Variant {
		return nil, fmt.Errorf("model: %w: variant %q but encode spec for %q", checkpoints.ErrMismatch, c.Meta.Variant, info.Variant)
	}
	if info.Version != encode.Version {
		return nil, fmt.Errorf("model: %w: encode version %d, this build uses %d", checkpoints.ErrMismatch, info.Version, encode.Version)
	}
	spec, err := encode.NewSpec(v, info.Options())
	if err != nil {
		return nil, err
	}
	if err := spec.Check(info); err != nil {
		return nil, fmt.Errorf("model: %w: %v", checkpoints.ErrMismatch, err)
	}
	cfg := Config{AuxHeads: true} // the default of a config written before the key existed
	if err := json.Unmarshal(c.Meta.Model, &cfg); err != nil {
		return nil, fmt.Errorf("model: checkpoint has no readable model config: %w", err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	w := &Weights{Config: cfg, Spec: spec, Tensors: layout(cfg, spec)}
	w.index()
	found := 0
	for _, t := range c.Tensors {
		if strings.HasPrefix(t.Name, optPrefix) {
			continue
		}
		mine := w.Get(t.Name)
		if mine == nil {
			return nil, fmt.Errorf("model: %w: unexpected tensor %q", checkpoints.ErrMismatch, t.Name)
		}
		if !sameShape(mine.Shape, t.Shape) {
			return nil, fmt.Errorf("model: %w: tensor %q has shape %v, the %s network needs %v",
				checkpoints.ErrMismatch, t.Name, t.Shape, cfg, mine.Shape)
		}
		copy(mine.Data, t.Data)
		found++
	}
	if found != len(w.Tensors) {
		return w, freshAux(w, c)
	}
	return w, nil
}

// freshAux initialises the auxiliary tensors of w that c lacks, as
// NewWeights would from auxSeed, and reports any other missing tensor.
func freshAux(w *Weights, c *checkpoints.Checkpoint) error {
	var fresh *Weights
	for _, t := range w.Tensors {
		if c.Get(t.Name) != nil {
			continue
		}
		if !isAuxTensor(t.Name) {
			return fmt.Errorf("model: %w: tensor %q missing", checkpoints.ErrMismatch, t.Name)
		}
		if fresh == nil {
			var err error
			if fresh, err = NewWeights(w.Config, w.Spec, auxSeed); err != nil {
				return err
			}
		}
		copy(t.Data, fresh.must(t.Name))
	}
	return nil
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// LoadWeights reads a checkpoint file, checking that it belongs to variant
// v (0: any).
func LoadWeights(path string, v rules.VariantID) (*Weights, *checkpoints.Checkpoint, error) {
	c, err := checkpoints.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return checkpointWeights(c, path, v)
}

// checkpointWeights returns the weights of checkpoint c, read from path,
// checking that it belongs to variant v (0: any).
func checkpointWeights(c *checkpoints.Checkpoint, path string, v rules.VariantID) (*Weights, *checkpoints.Checkpoint, error) {
	if v != 0 && c.Meta.Variant != v.String() {
		return nil, nil, fmt.Errorf("model: %s: %w: a %s network, not %s", path, checkpoints.ErrMismatch, c.Meta.Variant, v)
	}
	w, err := WeightsFromCheckpoint(c)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return w, c, nil
}

// SaveOptimizer adds the trainer's optimizer state (moments, step, kind and
// hyperparameters) to a checkpoint of its weights, for an exact resume.
func (t *Trainer) SaveOptimizer(c *checkpoints.Checkpoint) error {
	o := t.opt
	m := optimizerMeta{Kind: o.kind, Step: o.step, Momentum: o.momentum, Beta1: o.beta1, Beta2: o.beta2, Epsilon: o.eps}
	var err error
	if c.Meta.Optimizer, err = json.Marshal(m); err != nil {
		return err
	}
	for _, tt := range t.W.Tensors {
		if !tt.Role.Trained() {
			continue
		}
		c.Tensors = append(c.Tensors, checkpoints.Tensor{Name: optPrefix + "first/" + tt.Name,
			Shape: append([]int(nil), tt.Shape...), Data: append([]float32(nil), o.first[tt.Name]...)})
		if o.kind == Adam {
			c.Tensors = append(c.Tensors, checkpoints.Tensor{Name: optPrefix + "second/" + tt.Name,
				Shape: append([]int(nil), tt.Shape...), Data: append([]float32(nil), o.second[tt.Name]...)})
		}
	}
	return nil
}

// LoadOptimizer restores the optimizer state saved by SaveOptimizer. A
// checkpoint without one (or of another optimizer kind) leaves a fresh
// optimizer and reports false. Tensors the checkpoint lacks (auxiliary
// heads added on load) keep fresh state.
func (t *Trainer) LoadOptimizer(c *checkpoints.Checkpoint) (bool, error) {
	if len(c.Meta.Optimizer) == 0 {
		return false, nil
	}
	var m optimizerMeta
	if err := json.Unmarshal(c.Meta.Optimizer, &m); err != nil {
		return false, fmt.Errorf("model: bad optimizer state: %w", err)
	}
	if m.Kind != t.opt.kind {
		return false, nil
	}
	for _, tt := range t.W.Tensors {
		if !tt.Role.Trained() || c.Get(tt.Name) == nil {
			continue
		}
		parts := []struct {
			prefix string
			dst    []float32
		}{{"first/", t.opt.first[tt.Name]}}
		if t.opt.kind == Adam {
			parts = append(parts, struct {
				prefix string
				dst    []float32
			}{"second/", t.opt.second[tt.Name]})
		}
		for _, p := range parts {
			src := c.Get(optPrefix + p.prefix + tt.Name)
			if src == nil || len(src.Data) != len(p.dst) {
				return false, fmt.Errorf("model: %w: optimizer state for %s missing or misshapen", checkpoints.ErrMismatch, tt.Name)
			}
			copy(p.dst, src.Data)
		}
	}
	t.opt.step = m.Step
	return true, nil
}
