package model

import (
	"fmt"
	"math"
	"strings"
)

// OptimizerKind selects the update rule.
type OptimizerKind string

// Optimizers. Both are written here rather than taken from Gorgonia:
// Gorgonia's Momentum ignores L2, its AdamW never updates, and none of its
// solvers can save their state for an exact resume.
const (
	Adam     OptimizerKind = "adam"
	Momentum OptimizerKind = "sgd"
)

// ParseOptimizer reads "adam" or "sgd".
// UnmarshalText reads an optimizer's name, as ParseOptimizer does.
func (k *OptimizerKind) UnmarshalText(b []byte) error {
	v, err := ParseOptimizer(string(b))
	*k = v
	return err
}

func ParseOptimizer(s string) (OptimizerKind, error) {
	switch k := OptimizerKind(strings.ToLower(s)); k {
	case Adam, Momentum:
		return k, nil
	}
	return "", fmt.Errorf("model: unknown optimizer %q (want adam or sgd)", s)
}

// optimizer keeps the per-tensor state of Adam (first and second moments)
// or of SGD with momentum (velocity, in first), and the step count, all of
// which checkpoints save.
type optimizer struct {
	kind     OptimizerKind
	momentum float64 // SGD
	beta1    float64 // Adam
	beta2    float64
	eps      float64
	// weightDecay: decoupled decay, decayed tensors *= 1 - lr*weightDecay
	weightDecay float64
	step        int64
	first       map[string][]float32
	second      map[string][]float32
}

func newOptimizer(kind OptimizerKind, w *Weights, momentum, beta1, beta2, eps float64) *optimizer {
	o := &optimizer{kind: kind, momentum: momentum, beta1: beta1, beta2: beta2, eps: eps,
		first: map[string][]float32{}, second: map[string][]float32{}}
	for _, t := range w.Tensors {
		if !t.Role.Trained() {
			continue
		}
		o.first[t.Name] = make([]float32, len(t.Data))
		if kind == Adam {
			o.second[t.Name] = make([]float32, len(t.Data))
		}
	}
	return o
}

// apply updates every trained tensor of w from its gradient in grads,
// scaled by gscale (gradient clipping), with L2 coefficient l2 on decayed
// tensors (the gradient of l2*sum(w^2), 2*l2*w, is added) and then the
// decoupled weight decay (decayed tensors shrink by lr*weightDecay).
func (o *optimizer) apply(w *Weights, grads gradSink, lr, l2 float64, gscale float32) {
	o.step++
	bc1 := 1 - math.Pow(o.beta1, float64(o.step))
	bc2 := 1 - math.Pow(o.beta2, float64(o.step))
	for _, t := range w.Tensors {
		if !t.Role.Trained() {
			continue
		}
		g := *grads[t.Name]
		decay, shrink := float32(0), float32(1)
		if t.Role.Decayed() {
			decay = float32(2 * l2)
			shrink = float32(1 - lr*o.weightDecay)
		}
		m := o.first[t.Name]
		switch o.kind {
		case Adam:
			v := o.second[t.Name]
			b1, b2 := float32(o.beta1), float32(o.beta2)
			step := float32(lr / bc1)
			sq := float32(1 / math.Sqrt(bc2))
			eps := float32(o.eps)
			for i, p := range t.Data {
				gi := g[i]*gscale + decay*p
				m[i] = b1*m[i] + (1-b1)*gi
				v[i] = b2*v[i] + (1-b2)*gi*gi
				t.Data[i] = p*shrink - step*m[i]/(float32(math.Sqrt(float64(v[i])))*sq+eps)
			}
		case Momentum:
			mu := float32(o.momentum)
			rate := float32(lr)
			for i, p := range t.Data {
				gi := g[i]*gscale + decay*p
				m[i] = mu*m[i] + gi
				t.Data[i] = p*shrink - rate*m[i]
			}
		}
	}
}
