package model

import (
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// policyHead: 1x1 conv -> BN -> ReLU -> h; logits = 1x1 conv of h with
// bias (rows x policy planes); pass logit = dense(mean over the board of
// h). The pass logit is not a graph value: the loss reads it and writes
// its gradient back through the head (they are wired together).
type policyHead struct {
	n, hw, rows, pf, planes int
	conv, out               *conv
	bn                      *batchNorm
	p                       *bnParams
	wc, wo, bo, wp, bp      *Tensor
	c, h, logits            []float32
	pooled, pass            []float32 // n x pf, n
	dpass, dpooled          []float32
	dc, dh, dx              []float32
	dwc, dwo, dbo, dwp, dbp []float32
	auxDh                   []float32 // gradient of h from the auxiliary heads (nil: none this step)
}

func newPolicyHead(w *Weights, n, h, wd int, momentum float32, sink gradSink) *policyHead {
	c := w.Config
	hw := h * wd
	rows := n * hw
	planes := w.Spec.PolicyPlanes()
	l := &policyHead{n: n, hw: hw, rows: rows, pf: c.PolicyFilters, planes: planes,
		conv: newConv(h, wd, c.Filters, c.PolicyFilters, 1), out: newConv(h, wd, c.PolicyFilters, planes, 1),
		bn: newBatchNorm(c.PolicyFilters, momentum), p: newBNParams(w, "policy/bn", sink),
		wc: w.Get("policy/conv/w"), wo: w.Get("policy/out/w"), bo: w.Get("policy/out/b"),
		wp: w.Get("policy/pass/w"), bp: w.Get("policy/pass/b")}
	l.c, l.h, l.dc, l.dh = buf(rows*l.pf), buf(rows*l.pf), buf(rows*l.pf), buf(rows*l.pf)
	l.logits, l.dx = buf(rows*planes), buf(rows*c.Filters)
	l.dwc, l.dwo, l.dbo = buf(len(l.wc.Data)), buf(len(l.wo.Data)), buf(len(l.bo.Data))
	sink[l.wc.Name], sink[l.wo.Name], sink[l.bo.Name] = &l.dwc, &l.dwo, &l.dbo
	if l.wp != nil {
		l.pooled, l.pass, l.dpass, l.dpooled = buf(n*l.pf), buf(n), buf(n), buf(n*l.pf)
		l.dwp, l.dbp = buf(len(l.wp.Data)), buf(1)
		sink[l.wp.Name], sink[l.bp.Name] = &l.dwp, &l.dbp
	}
	return l
}

func (l *policyHead) params() []*Tensor {
	ts := []*Tensor{l.wc, l.p.gamma, l.p.beta, l.wo, l.bo}
	if l.wp != nil {
		ts = append(ts, l.wp, l.bp)
	}
	return ts
}

func (l *policyHead) node(trunk *G.Node, params []*G.Node) (*G.Node, error) {
	shape := tensor.Shape{l.rows, l.planes}
	in := []int{2}
	diff := []bool{true}
	for _, p := range params {
		in, diff = append(in, dims(p)), append(diff, true)
	}
	op := newFnOp("policy", in, shape, diff)
	op.do = func(v []G.Value) (G.Value, error) {
		l.conv.forward(data(v[0]), data(v[1]), nil, l.c, l.n)
		l.bn.forwardTrain(l.c, data(v[2]), data(v[3]), nil, l.h, l.p.mean.Data, l.p.vari.Data, true)
		l.out.forward(l.h, data(v[4]), data(v[5]), l.logits, l.n)
		if l.wp != nil {
			meanPool(l.h, l.pooled, l.n, l.hw, l.pf)
			dense(l.pooled, data(v[6]), data(v[7]), l.pass, l.n, l.pf, 1, false)
		}
		return wrap(l.logits, shape), nil
	}
	op.sym = func(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
		deps := append(append(G.Nodes{}, inputs...), grad)
		grads := []*[]float32{&l.dx, &l.dwc, &l.p.dgamma, &l.p.dbeta, &l.dwo, &l.dbo}
		isParam := []bool{false, true, true, true, true, true}
		if l.wp != nil {
			grads = append(grads, &l.dwp, &l.dbp)
			isParam = append(isParam, true, true)
		}
		return backward("policy", deps, func(v []G.Value) error {
			dy := data(v[len(inputs)])
			l.out.backward(l.h, data(v[4]), dy, l.dh, l.dwo, l.n)
			columnSums(dy, l.dbo, l.planes)
			if l.wp != nil {
				denseBackward(l.pooled, data(v[6]), l.pass, l.dpass, l.dpooled, l.dwp, l.dbp, l.n, l.pf, 1, false)
				inv := 1 / float32(l.hw)
				for b := 0; b < l.n; b++ {
					dp := l.dpooled[b*l.pf : (b+1)*l.pf]
					for s := 0; s < l.hw; s++ {
						row := l.dh[(b*l.hw+s)*l.pf:][:l.pf]
						for i, g := range dp {
							row[i] += g * inv
						}
					}
				}
			}
			if l.auxDh != nil {
				addInto(l.dh, l.auxDh)
			}
			l.bn.backward(l.c, data(v[2]), l.h, l.dh, l.dc, l.p.dgamma, l.p.dbeta, nil, true)
			l.conv.backward(data(v[0]), data(v[1]), l.dc, l.dx, l.dwc, l.n)
			return nil
		}, inputs, grads, isParam)
	}
	return G.ApplyOp(op, append(G.Nodes{trunk}, params...)...)
}

// columnSums writes the sum of every column of a rows x c matrix into out.
func columnSums(m, out []float32, c int) {
	clear(out)
	for r := 0; r+c <= len(m); r += c {
		for i, v := range m[r : r+c] {
			out[i] += v
		}
	}
}

// valueHead: 1x1 conv -> BN -> ReLU -> [mean, max] over the board ->
// dense -> ReLU -> dense -> win/draw/loss logits.
type valueHead struct {
	n, hw, rows, vf, vh int
	conv                *conv
	bn                  *batchNorm
	p                   *bnParams
	wc, w1, b1, w2, b2  *Tensor
	c, a, pooled, hid   []float32
	argmax              []int32
	wdl                 []float32
	dc, da, dpooled, dh []float32
	dx                  []float32
	dwc, dw1, db1, dw2  []float32
	db2                 []float32
	auxDa, auxDhid      []float32 // gradients of a and hid from the auxiliary heads (nil: none this step)
}

func newValueHead(w *Weights, n, h, wd int, momentum float32, sink gradSink) *valueHead {
	c := w.Config
	hw := h * wd
	rows := n * hw
	l := &valueHead{n: n, hw: hw, rows: rows, vf: c.ValueFilters, vh: c.ValueHidden,
		conv: newConv(h, wd, c.Filters, c.ValueFilters, 1), bn: newBatchNorm(c.ValueFilters, momentum),
		p: newBNParams(w, "value/bn", sink), wc: w.Get("value/conv/w"),
		w1: w.Get("value/fc1/w"), b1: w.Get("value/fc1/b"), w2: w.Get("value/fc2/w"), b2: w.Get("value/fc2/b")}
	l.c, l.a, l.dc, l.da = buf(rows*l.vf), buf(rows*l.vf), buf(rows*l.vf), buf(rows*l.vf)
	l.pooled, l.dpooled, l.argmax = buf(n*2*l.vf), buf(n*2*l.vf), make([]int32, n*l.vf)
	l.hid, l.dh, l.wdl = buf(n*l.vh), buf(n*l.vh), buf(n*3)
	l.dx = buf(rows * c.Filters)
	for _, p := range []struct {
		t *Tensor
		g *[]float32
	}{{l.wc, &l.dwc}, {l.w1, &l.dw1}, {l.b1, &l.db1}, {l.w2, &l.dw2}, {l.b2, &l.db2}} {
		*p.g = buf(len(p.t.Data))
		sink[p.t.Name] = p.g
	}
	return l
}

func (l *valueHead) params() []*Tensor {
	return []*Tensor{l.wc, l.p.gamma, l.p.beta, l.w1, l.b1, l.w2, l.b2}
}

func (l *valueHead) node(trunk *G.Node, params []*G.Node) (*G.Node, error) {
	shape := tensor.Shape{l.n, 3}
	in := []int{2}
	diff := []bool{true}
	for _, p := range params {
		in, diff = append(in, dims(p)), append(diff, true)
	}
	op := newFnOp("value", in, shape, diff)
	op.do = func(v []G.Value) (G.Value, error) {
		l.conv.forward(data(v[0]), data(v[1]), nil, l.c, l.n)
		l.bn.forwardTrain(l.c, data(v[2]), data(v[3]), nil, l.a, l.p.mean.Data, l.p.vari.Data, true)
		meanMaxPool(l.a, l.pooled, l.argmax, l.n, l.hw, l.vf)
		dense(l.pooled, data(v[4]), data(v[5]), l.hid, l.n, 2*l.vf, l.vh, true)
		dense(l.hid, data(v[6]), data(v[7]), l.wdl, l.n, l.vh, 3, false)
		return wrap(l.wdl, shape), nil
	}
	op.sym = func(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
		deps := append(append(G.Nodes{}, inputs...), grad)
		return backward("value", deps, func(v []G.Value) error {
			dy := data(v[len(inputs)]) // not modified: the last layer has no ReLU
			denseBackward(l.hid, data(v[6]), l.wdl, dy, l.dh, l.dw2, l.db2, l.n, l.vh, 3, false)
			if l.auxDhid != nil {
				addInto(l.dh, l.auxDhid)
			}
			denseBackward(l.pooled, data(v[4]), l.hid, l.dh, l.dpooled, l.dw1, l.db1, l.n, 2*l.vf, l.vh, true)
			meanMaxPoolBackward(l.dpooled, l.da, l.argmax, l.n, l.hw, l.vf)
			if l.auxDa != nil {
				addInto(l.da, l.auxDa)
			}
			l.bn.backward(l.c, data(v[2]), l.a, l.da, l.dc, l.p.dgamma, l.p.dbeta, nil, true)
			l.conv.backward(data(v[0]), data(v[1]), l.dc, l.dx, l.dwc, l.n)
			return nil
		}, inputs, []*[]float32{&l.dx, &l.dwc, &l.p.dgamma, &l.p.dbeta, &l.dw1, &l.db1, &l.dw2, &l.db2},
			[]bool{false, true, true, true, true, true, true, true})
	}
	return G.ApplyOp(op, append(G.Nodes{trunk}, params...)...)
}
