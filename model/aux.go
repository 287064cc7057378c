package model

import (
	"fmt"
	"math"

	"chuzero/encode"
)

// The auxiliary training heads (KataGo, Wu 2019, "Accelerating
// Self-Play Learning in Go", section 4: auxiliary targets). They exist
// when Config.AuxHeads is set, are trained with the loss weights of
// TrainConfig, and are not computed in play but for the material head,
// which the search may add to the value (Net computes it, and skips the
// others; Reference computes them all, as the definition). Tensors, with PF = PolicyFilters,
// P = the spec's policy planes, VF = ValueFilters, VH = ValueHidden:
//
//	policy/reply/w     (1,1,PF,P)  opponent's reply logits: a second 1x1
//	policy/reply/b     (P)         output convolution of the policy head's
//	                               hidden features h
//	policy/replypass/w (PF,1)      its pass logit from the board mean of h
//	policy/replypass/b (1)         (variants with a pass)
//	value/own/w        (1,1,VF,1)  ownership: tanh of a 1x1 convolution of
//	value/own/b        (1)         the value head's features, per square
//	value/material/w   (VH,2)      material at the end and AuxAheadPlies
//	value/material/b   (2)         ahead: tanh of a dense layer on the value
//	                               head's hidden layer
//	value/short/w      (VH,3)      short-term values: the same, 3 outputs
//	value/short/b      (3)
//
// Losses, each averaged over the samples that have the target
// (Batch.HasAux and the target's slice set): reply, the policy's masked
// softmax cross-entropy over ReplyLegal; material, short-term values and
// ownership, the mean squared error per output (per square for
// ownership).

// auxTensorNames are the tensors of the auxiliary heads, in layout order.
var auxTensorNames = []string{"policy/reply/w", "policy/reply/b", "policy/replypass/w", "policy/replypass/b",
	"value/own/w", "value/own/b", "value/material/w", "value/material/b", "value/short/w", "value/short/b"}

// addAuxLayout adds the auxiliary heads' tensors to a layout.
func addAuxLayout(add func(string, Role, ...int), c Config, s *encode.Spec) {
	add("policy/reply/w", RoleWeight, 1, 1, c.PolicyFilters, s.PolicyPlanes())
	add("policy/reply/b", RoleBias, s.PolicyPlanes())
	if s.HasPass() {
		add("policy/replypass/w", RoleWeight, c.PolicyFilters, 1)
		add("policy/replypass/b", RoleBias, 1)
	}
	add("value/own/w", RoleWeight, 1, 1, c.ValueFilters, 1)
	add("value/own/b", RoleBias, 1)
	add("value/material/w", RoleWeight, c.ValueHidden, 2)
	add("value/material/b", RoleBias, 2)
	add("value/short/w", RoleWeight, c.ValueHidden, 3)
	add("value/short/b", RoleBias, 3)
}

// isAuxTensor reports whether name is a tensor of the auxiliary heads.
func isAuxTensor(name string) bool {
	for _, n := range auxTensorNames {
		if n == name {
			return true
		}
	}
	return false
}

// auxSeed seeds the initialisation of auxiliary tensors that a checkpoint
// lacks, so that loading it twice gives the same network.
const auxSeed = 0x617578

// auxLayer computes the auxiliary heads and their losses inside the
// training graph's loss op: it reads the features the policy and value
// heads keep in their own buffers (h and its board mean; the value
// features a and hidden layer hid) and hands the heads the gradients of
// those features (policyHead.auxDh, valueHead.auxDa and auxDhid), which
// their backward passes add. The reply logits are computed only at the
// target's indices: the full reply output would cost as much as the
// policy's (36864 logits a position in Chu).
type auxLayer struct {
	n, hw, planes, pf, vf, vh int
	threads                   int
	weight                    auxWeights
	policy                    *policyHead
	value                     *valueHead
	b                         *Batch // the step's targets

	rw, rb, rpw, rpb, ow, ob, mw, mb, sw, sb           *Tensor
	drw, drb, drpw, drpb, dow, dob, dmw, dmb, dsw, dsb []float32

	rwT      []float32   // reply weights transposed: P x PF
	replyZ   [][]float32 // per sample: reply logits at ReplyLegal
	replyL   []float64   // per sample: reply cross-entropy
	own      []float32   // rows: tanh outputs
	mat, sv  []float32   // n x 2, n x 3: tanh outputs
	matT     []float32   // n x 2: the material targets, flat
	svT      []float32   // n x 3: the short-term value targets, flat
	dh, da   []float32   // feature gradients handed to the heads
	dhid     []float32
	dhidS    []float32
	downZ    []float32 // rows: ownership pre-activation gradient
	dmatZ    []float32
	dsvZ     []float32
	partials [][]float32 // per worker: P x PF reply weight gradient, then P bias, PF pass weight, 1 pass bias

	losses             auxLosses
	nReply, nAux, nOwn int // samples with each target in the step
}

// auxWeights are the loss weights of the auxiliary heads.
type auxWeights struct{ reply, material, own, short float32 }

// auxLosses are the unweighted auxiliary losses of one batch.
type auxLosses struct{ reply, material, own, short float64 }

func newAuxLayer(w *Weights, policy *policyHead, value *valueHead, n int, cfg TrainConfig, sink gradSink) *auxLayer {
	c, s := w.Config, w.Spec
	hw := s.Height * s.Width
	a := &auxLayer{n: n, hw: hw, planes: s.PolicyPlanes(), pf: c.PolicyFilters, vf: c.ValueFilters, vh: c.ValueHidden,
		threads: DefaultThreads(), policy: policy, value: value,
		weight: auxWeights{cfg.ReplyWeight, cfg.MaterialWeight, cfg.OwnershipWeight, cfg.ShortValueWeight}}
	for _, p := range []struct {
		t    **Tensor
		g    *[]float32
		name string
	}{{&a.rw, &a.drw, "policy/reply/w"}, {&a.rb, &a.drb, "policy/reply/b"},
		{&a.rpw, &a.drpw, "policy/replypass/w"}, {&a.rpb, &a.drpb, "policy/replypass/b"},
		{&a.ow, &a.dow, "value/own/w"}, {&a.ob, &a.dob, "value/own/b"},
		{&a.mw, &a.dmw, "value/material/w"}, {&a.mb, &a.dmb, "value/material/b"},
		{&a.sw, &a.dsw, "value/short/w"}, {&a.sb, &a.dsb, "value/short/b"}} {
		if *p.t = w.Get(p.name); *p.t != nil {
			*p.g = buf(len((*p.t).Data))
			sink[p.name] = p.g
		}
	}
	rows := n * hw
	a.rwT, a.replyZ, a.replyL = buf(a.planes*a.pf), make([][]float32, n), make([]float64, n)
	a.own, a.mat, a.sv, a.matT, a.svT = buf(rows), buf(n*2), buf(n*3), buf(n*2), buf(n*3)
	a.dh, a.da, a.dhid, a.dhidS = buf(rows*a.pf), buf(rows*a.vf), buf(n*a.vh), buf(n*a.vh)
	a.downZ, a.dmatZ, a.dsvZ = buf(rows), buf(n*2), buf(n*3)
	return a
}

// params returns the trained tensors in the loss op's input order.
func (a *auxLayer) params() []*Tensor {
	ts := []*Tensor{a.rw, a.rb}
	if a.rpw != nil {
		ts = append(ts, a.rpw, a.rpb)
	}
	return append(ts, a.ow, a.ob, a.mw, a.mb, a.sw, a.sb)
}

// grads returns the gradient buffers of params, in the same order.
func (a *auxLayer) grads() []*[]float32 {
	gs := []*[]float32{&a.drw, &a.drb}
	if a.rpw != nil {
		gs = append(gs, &a.drpw, &a.drpb)
	}
	return append(gs, &a.dow, &a.dob, &a.dmw, &a.dmb, &a.dsw, &a.dsb)
}

// hasAux reports whether sample i has auxiliary targets.
func (a *auxLayer) hasAux(i int) bool { return a.b.HasAux != nil && a.b.HasAux[i] }

// hasReply reports whether sample i has a reply target.
func (a *auxLayer) hasReply(i int) bool {
	return a.hasAux(i) && a.b.ReplyPolicy != nil && len(a.b.ReplyPolicy[i]) > 0
}

// setBatch checks b's auxiliary targets against the spec and makes them
// the targets of the next run.
func (a *auxLayer) setBatch(b *Batch, policySize int) error {
	n := b.N
	switch {
	case b.HasAux != nil && len(b.HasAux) != n,
		b.Material != nil && len(b.Material) != n,
		b.ShortValue != nil && len(b.ShortValue) != n,
		b.ReplyPolicy != nil && (len(b.ReplyPolicy) != n || len(b.ReplyLegal) != n),
		b.Ownership != nil && len(b.Ownership) != n*a.hw:
		return fmt.Errorf("model: auxiliary batch fields do not match its size")
	}
	for i := range b.ReplyPolicy {
		if b.ReplyPolicy[i] == nil {
			continue
		}
		if len(b.ReplyPolicy[i]) != len(b.ReplyLegal[i]) {
			return fmt.Errorf("model: sample %d has %d reply indices and %d reply probabilities", i, len(b.ReplyLegal[i]), len(b.ReplyPolicy[i]))
		}
		for _, idx := range b.ReplyLegal[i] {
			if idx < 0 || int(idx) >= policySize {
				return fmt.Errorf("model: sample %d: reply policy index %d out of range", i, idx)
			}
		}
	}
	a.b = b
	a.nReply, a.nAux, a.nOwn = 0, 0, 0
	for i := 0; i < n; i++ {
		if b.Material != nil {
			copy(a.matT[i*2:], b.Material[i][:])
		}
		if b.ShortValue != nil {
			copy(a.svT[i*3:], b.ShortValue[i][:])
		}
		if a.hasReply(i) {
			a.nReply++
		}
		if a.hasAux(i) {
			a.nAux++
			if b.Ownership != nil {
				a.nOwn++
			}
		}
	}
	return nil
}

// active reports which heads do work this step: weight above zero and at
// least one sample with the target.
func (a *auxLayer) active() (reply, material, own, short bool) {
	return a.weight.reply > 0 && a.nReply > 0,
		a.weight.material > 0 && a.nAux > 0 && a.b.Material != nil,
		a.weight.own > 0 && a.nOwn > 0,
		a.weight.short > 0 && a.nAux > 0 && a.b.ShortValue != nil
}

// forward computes the active heads' outputs and losses and returns their
// weighted sum.
func (a *auxLayer) forward() (float64, error) {
	a.losses = auxLosses{}
	reply, material, own, short := a.active()
	if reply {
		a.replyForward()
	}
	v := a.value
	if own {
		rows := a.n * a.hw
		dense(v.a, a.ow.Data, a.ob.Data, a.own, rows, a.vf, 1, false)
		tanhInPlace(a.own)
		a.losses.own = a.mse(a.own, a.b.Ownership, a.hw, a.nOwn, 0, nil)
	}
	if material {
		dense(v.hid, a.mw.Data, a.mb.Data, a.mat, a.n, a.vh, 2, false)
		tanhInPlace(a.mat)
		a.losses.material = a.mse(a.mat, a.matT, 2, a.nAux, 0, nil)
	}
	if short {
		dense(v.hid, a.sw.Data, a.sb.Data, a.sv, a.n, a.vh, 3, false)
		tanhInPlace(a.sv)
		a.losses.short = a.mse(a.sv, a.svT, 3, a.nAux, 0, nil)
	}
	l := a.losses
	for _, x := range []float64{l.reply, l.material, l.own, l.short} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%w (auxiliary losses %+v)", ErrNonFinite, l)
		}
	}
	w := a.weight
	return float64(w.reply)*l.reply + float64(w.material)*l.material + float64(w.own)*l.own + float64(w.short)*l.short, nil
}

// mse returns the mean squared error of the samples with auxiliary
// targets between out and target (k values a sample), averaged over the
// counted samples and the k values. With dz set it also writes the
// gradient of scale*loss with respect to the pre-tanh outputs (zero for
// the samples without targets).
func (a *auxLayer) mse(out, target []float32, k, counted int, scale float32, dz []float32) float64 {
	var sum float64
	g := 2 * scale / float32(k*counted)
	for i := 0; i < a.n; i++ {
		o, t := out[i*k:(i+1)*k], target[i*k:(i+1)*k]
		if !a.hasAux(i) {
			if dz != nil {
				clear(dz[i*k : (i+1)*k])
			}
			continue
		}
		for j, y := range o {
			d := y - t[j]
			sum += float64(d) * float64(d)
			if dz != nil {
				dz[i*k+j] = g * d * (1 - y*y)
			}
		}
	}
	return sum / float64(k*counted)
}

// backward computes the parameter gradients of scale times the weighted
// auxiliary loss and hands the heads their feature gradients (nil for the
// heads that did no work).
func (a *auxLayer) backward(scale float32) {
	reply, material, own, short := a.active()
	a.policy.auxDh, a.value.auxDa, a.value.auxDhid = nil, nil, nil
	for _, g := range a.grads() {
		clear(*g)
	}
	if reply {
		a.replyBackward(scale * a.weight.reply / float32(a.nReply))
		a.policy.auxDh = a.dh
	}
	v := a.value
	if own {
		a.mse(a.own, a.b.Ownership, a.hw, a.nOwn, scale*a.weight.own, a.downZ)
		denseBackward(v.a, a.ow.Data, a.own, a.downZ, a.da, a.dow, a.dob, a.n*a.hw, a.vf, 1, false)
		v.auxDa = a.da
	}
	if material {
		a.mse(a.mat, a.matT, 2, a.nAux, scale*a.weight.material, a.dmatZ)
		denseBackward(v.hid, a.mw.Data, a.mat, a.dmatZ, a.dhid, a.dmw, a.dmb, a.n, a.vh, 2, false)
		v.auxDhid = a.dhid
	}
	if short {
		dx := a.dhid
		if material {
			dx = a.dhidS
		}
		a.mse(a.sv, a.svT, 3, a.nAux, scale*a.weight.short, a.dsvZ)
		denseBackward(v.hid, a.sw.Data, a.sv, a.dsvZ, dx, a.dsw, a.dsb, a.n, a.vh, 3, false)
		if material {
			for i, g := range a.dhidS {
				a.dhid[i] += g
			}
		}
		v.auxDhid = a.dhid
	}
}

func tanhInPlace(x []float32) {
	for i, v := range x {
		x[i] = float32(math.Tanh(float64(v)))
	}
}

// addInto adds src to dst element by element.
func addInto(dst, src []float32) {
	for i, v := range src[:len(dst)] {
		dst[i] += v
	}
}
