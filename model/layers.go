package model

import (
	"fmt"
	"math"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The layers of the training graph. Each builds one forward node and, in
// SymDiff, one backward node (which computes every gradient of the layer
// and returns a one-element token) plus a node per input gradient that
// depends on the token. Forward buffers the backward pass reads are either
// private to the layer or passed to the backward node as inputs, so
// Gorgonia's register allocation keeps them alive.

// gradSink collects the gradient buffer of every trained tensor.
type gradSink map[string]*[]float32

var tokenShape = tensor.Shape{1}

// buf allocates a zeroed float32 buffer.
func buf(n int) []float32 { return make([]float32, n) }

// backward wires a layer's backward node: deps are its inputs, produce
// computes the gradients. grads lists, per forward input, the buffer
// holding its gradient (nil for none); param marks gradients read by the
// optimizer (copied) as opposed to activations flowing on (wrapped).
func backward(name string, deps G.Nodes, produce func(in []G.Value) error, inputs G.Nodes, grads []*[]float32, param []bool) (G.Nodes, error) {
	in := make([]int, len(deps))
	for i, d := range deps {
		in[i] = dims(d)
	}
	bwd := newFnOp(name+"-bwd", in, tokenShape, make([]bool, len(deps)))
	token := buf(1)
	bwd.do = func(v []G.Value) (G.Value, error) {
		if err := produce(v); err != nil {
			return nil, err
		}
		return wrap(token, tokenShape), nil
	}
	t, err := G.ApplyOp(bwd, deps...)
	if err != nil {
		return nil, err
	}
	out := make(G.Nodes, len(inputs))
	for i, g := range grads {
		if g == nil {
			continue
		}
		var op *fnOp
		if param[i] {
			op = gradOp(fmt.Sprintf("%s-grad%d", name, i), g, shapeOf(inputs[i]), 1)
		} else {
			op = passThroughOp(fmt.Sprintf("%s-grad%d", name, i), g, shapeOf(inputs[i]), 1)
		}
		if out[i], err = G.ApplyOp(op, t); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// bnParams are the tensors of one batch normalisation.
type bnParams struct {
	gamma, beta, mean, vari *Tensor
	dgamma, dbeta           []float32
}

func newBNParams(w *Weights, prefix string, sink gradSink) *bnParams {
	p := &bnParams{gamma: w.Get(prefix + "/gamma"), beta: w.Get(prefix + "/beta"),
		mean: w.Get(prefix + "/mean"), vari: w.Get(prefix + "/var")}
	p.dgamma, p.dbeta = buf(len(p.gamma.Data)), buf(len(p.beta.Data))
	sink[p.gamma.Name], sink[p.beta.Name] = &p.dgamma, &p.dbeta
	return p
}

// stem: conv3x3 -> batch norm -> ReLU on the input planes.
type stem struct {
	n, rows int
	conv    *conv
	bn      *batchNorm
	p       *bnParams
	w       *Tensor
	c, out  []float32
	dc, dw  []float32
}

func newStem(w *Weights, n, h, wd int, momentum float32, sink gradSink) *stem {
	s := w.Spec
	f := w.Config.Filters
	l := &stem{n: n, rows: n * h * wd, conv: newConv(h, wd, s.Planes, f, 3), bn: newBatchNorm(f, momentum),
		p: newBNParams(w, "stem/bn", sink), w: w.Get("stem/conv/w")}
	l.c, l.out, l.dc, l.dw = buf(l.rows*f), buf(l.rows*f), buf(l.rows*f), buf(len(l.w.Data))
	sink[l.w.Name] = &l.dw
	return l
}

func (l *stem) node(x, wt, gamma, beta *G.Node) (*G.Node, error) {
	f := l.conv.cout
	shape := tensor.Shape{l.rows, f}
	op := newFnOp("stem", []int{2, 4, 1, 1}, shape, []bool{false, true, true, true})
	op.do = func(in []G.Value) (G.Value, error) {
		l.conv.forward(data(in[0]), data(in[1]), nil, l.c, l.n)
		l.bn.forwardTrain(l.c, data(in[2]), data(in[3]), nil, l.out, l.p.mean.Data, l.p.vari.Data, true)
		return wrap(l.out, shape), nil
	}
	op.sym = func(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
		return backward("stem", G.Nodes{inputs[0], inputs[1], inputs[2], output, grad}, func(v []G.Value) error {
			l.bn.backward(l.c, data(v[2]), data(v[3]), data(v[4]), l.dc, l.p.dgamma, l.p.dbeta, nil, true)
			l.conv.backward(data(v[0]), data(v[1]), l.dc, nil, l.dw, l.n)
			return nil
		}, inputs, []*[]float32{nil, &l.dw, &l.p.dgamma, &l.p.dbeta}, []bool{false, true, true, true})
	}
	return G.ApplyOp(op, x, wt, gamma, beta)
}

// block: a residual block, x -> conv3x3 -> BN -> ReLU [-> global-pool bias]
// -> conv3x3 -> BN -> + x -> ReLU.
type block struct {
	n, rows, f       int
	conv1, conv2     *conv
	bn1, bn2         *batchNorm
	p1, p2           *bnParams
	w1, w2, wg       *Tensor
	gp               *globalBias
	c1, a1, g1, c2   []float32
	out              []float32
	dc, da, dg, dres []float32
	dx               []float32
	dw1, dw2, dwg    []float32
}

func newBlock(w *Weights, i, n, h, wd int, momentum float32, sink gradSink) *block {
	f := w.Config.Filters
	p := fmt.Sprintf("block%d", i)
	rows := n * h * wd
	l := &block{n: n, rows: rows, f: f, conv1: newConv(h, wd, f, f, 3), conv2: newConv(h, wd, f, f, 3),
		bn1: newBatchNorm(f, momentum), bn2: newBatchNorm(f, momentum),
		p1: newBNParams(w, p+"/bn1", sink), p2: newBNParams(w, p+"/bn2", sink),
		w1: w.Get(p + "/conv1/w"), w2: w.Get(p + "/conv2/w"), wg: w.Get(p + "/gpool/w")}
	for _, b := range []*[]float32{&l.c1, &l.a1, &l.c2, &l.out, &l.dc, &l.da, &l.dg, &l.dres, &l.dx} {
		*b = buf(rows * f)
	}
	l.dw1, l.dw2 = buf(len(l.w1.Data)), buf(len(l.w2.Data))
	sink[l.w1.Name], sink[l.w2.Name] = &l.dw1, &l.dw2
	if l.wg != nil {
		l.gp = &globalBias{hw: h * wd, c: f, threads: DefaultThreads()}
		l.g1 = buf(rows * f)
		l.dwg = buf(len(l.wg.Data))
		sink[l.wg.Name] = &l.dwg
	}
	return l
}

// params returns the block's trained tensors in node order.
func (l *block) params() []*Tensor {
	ts := []*Tensor{l.w1, l.p1.gamma, l.p1.beta}
	if l.wg != nil {
		ts = append(ts, l.wg)
	}
	return append(ts, l.w2, l.p2.gamma, l.p2.beta)
}

func (l *block) node(x *G.Node, params []*G.Node) (*G.Node, error) {
	shape := tensor.Shape{l.rows, l.f}
	in := []int{2}
	diff := []bool{true}
	for _, p := range params {
		in = append(in, dims(p))
		diff = append(diff, true)
	}
	op := newFnOp("block", in, shape, diff)
	// input positions: x, w1, gamma1, beta1, [wg], w2, gamma2, beta2
	gi, w2i := 0, 4
	if l.wg != nil {
		gi, w2i = 4, 5
	}
	op.do = func(v []G.Value) (G.Value, error) {
		x := data(v[0])
		l.conv1.forward(x, data(v[1]), nil, l.c1, l.n)
		l.bn1.forwardTrain(l.c1, data(v[2]), data(v[3]), nil, l.a1, l.p1.mean.Data, l.p1.vari.Data, true)
		in2 := l.a1
		if l.gp != nil {
			l.gp.forward(l.a1, data(v[gi]), l.g1, l.n)
			in2 = l.g1
		}
		l.conv2.forward(in2, data(v[w2i]), nil, l.c2, l.n)
		l.bn2.forwardTrain(l.c2, data(v[w2i+1]), data(v[w2i+2]), x, l.out, l.p2.mean.Data, l.p2.vari.Data, true)
		return wrap(l.out, shape), nil
	}
	op.sym = func(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
		deps := append(append(G.Nodes{}, inputs...), output, grad)
		grads := []*[]float32{&l.dx, &l.dw1, &l.p1.dgamma, &l.p1.dbeta}
		isParam := []bool{false, true, true, true}
		if l.wg != nil {
			grads = append(grads, &l.dwg)
			isParam = append(isParam, true)
		}
		grads = append(grads, &l.dw2, &l.p2.dgamma, &l.p2.dbeta)
		isParam = append(isParam, true, true, true)
		return backward("block", deps, func(v []G.Value) error {
			nIn := len(inputs)
			x, out, dy := data(v[0]), data(v[nIn]), data(v[nIn+1])
			l.bn2.backward(l.c2, data(v[w2i+1]), out, dy, l.dc, l.p2.dgamma, l.p2.dbeta, l.dres, true)
			in2 := l.a1
			if l.gp != nil {
				in2 = l.g1
			}
			l.conv2.backward(in2, data(v[w2i]), l.dc, l.dg, l.dw2, l.n)
			da := l.dg
			if l.gp != nil {
				l.gp.backward(data(v[gi]), l.dg, l.da, l.dwg, l.n)
				da = l.da
			}
			l.bn1.backward(l.c1, data(v[2]), l.a1, da, l.dc, l.p1.dgamma, l.p1.dbeta, nil, true)
			l.conv1.backward(x, data(v[1]), l.dc, l.dx, l.dw1, l.n)
			for i, g := range l.dres {
				l.dx[i] += g
			}
			return nil
		}, inputs, grads, isParam)
	}
	return G.ApplyOp(op, append(G.Nodes{x}, params...)...)
}

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

// lossLayer computes the training loss of a batch:
//
//	policy: cross-entropy between the search's target distribution and the
//	        softmax of the logits restricted to the legal moves, averaged
//	        over the samples that have a policy target;
//	value:  cross-entropy between the game outcome (win/draw/loss) and the
//	        softmax of the value logits, averaged over the batch.
//
// Targets are set before each step (they are constants, not graph
// values). With auxiliary heads, aux adds their weighted losses; their
// tensors are further inputs of the loss op.
type lossLayer struct {
	n, hw, planes int
	head          *policyHead
	policyWeight  float32
	legal         [][]int32   // per sample: policy indices of the legal moves
	target        [][]float32 // per sample: target probability of each legal move (nil: no policy target)
	wdlTarget     [][3]float32
	policyLoss    float64
	valueLoss     float64
	dlogits, dwdl []float32
	scratch       []float64
	aux           *auxLayer // nil without auxiliary heads
}

func newLossLayer(head *policyHead, n, hw, planes int, policyWeight float32) *lossLayer {
	return &lossLayer{n: n, hw: hw, planes: planes, head: head, policyWeight: policyWeight,
		dlogits: buf(n * hw * planes), dwdl: buf(n * 3)}
}

// offset maps a policy index of sample b to its logit's position in the
// head's NHWC output; -1 for the pass.
func (l *lossLayer) offset(b int, idx int32) int {
	sq, plane := int(idx)%l.hw, int(idx)/l.hw
	if plane >= l.planes {
		return -1
	}
	return (b*l.hw+sq)*l.planes + plane
}

// node builds the loss op; aux are the auxiliary heads' tensor nodes
// (empty without them).
func (l *lossLayer) node(logits, wdl *G.Node, aux G.Nodes) (*G.Node, error) {
	in, diff := []int{2, 2}, []bool{true, true}
	grads, isParam := []*[]float32{&l.dlogits, &l.dwdl}, []bool{false, false}
	if l.aux != nil {
		for i, g := range l.aux.grads() {
			in, diff = append(in, dims(aux[i])), append(diff, true)
			grads, isParam = append(grads, g), append(isParam, true)
		}
	}
	op := newFnOp("loss", in, nil, diff)
	op.do = func(v []G.Value) (G.Value, error) {
		lg, wd := data(v[0]), data(v[1])
		if err := l.forward(lg, wd); err != nil {
			return nil, err
		}
		cost := float64(l.policyWeight)*l.policyLoss + l.valueLoss
		if l.aux != nil {
			a, err := l.aux.forward()
			if err != nil {
				return nil, err
			}
			cost += a
		}
		return G.NewF32(float32(cost)), nil
	}
	op.sym = func(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
		deps := append(append(G.Nodes{}, inputs...), grad)
		return backward("loss", deps, func(v []G.Value) error {
			scale := float32(1)
			if s, ok := v[len(inputs)].(*G.F32); ok {
				scale = float32(*s)
			}
			l.backward(data(v[0]), data(v[1]), scale)
			if l.aux != nil {
				l.aux.backward(scale)
			}
			return nil
		}, inputs, grads, isParam)
	}
	return G.ApplyOp(op, append(G.Nodes{logits, wdl}, aux...)...)
}

// logit returns the logit of policy index idx for sample b.
func (l *lossLayer) logit(lg []float32, b int, idx int32) float32 {
	if o := l.offset(b, idx); o >= 0 {
		return lg[o]
	}
	return l.head.pass[b]
}

func (l *lossLayer) forward(lg, wd []float32) error {
	var pl float64
	counted := 0
	for b := 0; b < l.n; b++ {
		if l.target[b] == nil {
			continue
		}
		lse, dot := l.sampleLSE(lg, b)
		pl += lse - dot
		counted++
	}
	if counted > 0 {
		pl /= float64(counted)
	}
	var vl float64
	for b := 0; b < l.n; b++ {
		z := wd[b*3 : b*3+3]
		m := max(z[0], z[1], z[2])
		lse := math.Log(math.Exp(float64(z[0]-m))+math.Exp(float64(z[1]-m))+math.Exp(float64(z[2]-m))) + float64(m)
		for j := 0; j < 3; j++ {
			vl -= float64(l.wdlTarget[b][j]) * (float64(z[j]) - lse)
		}
	}
	vl /= float64(l.n)
	if math.IsNaN(pl) || math.IsNaN(vl) || math.IsInf(pl, 0) || math.IsInf(vl, 0) {
		return fmt.Errorf("%w (policy %v, value %v)", ErrNonFinite, pl, vl)
	}
	l.policyLoss, l.valueLoss = pl, vl
	return nil
}

// sampleLSE returns log-sum-exp of sample b's legal logits and the target
// expectation of its logits.
func (l *lossLayer) sampleLSE(lg []float32, b int) (lse, dot float64) {
	m := float32(math.Inf(-1))
	for _, idx := range l.legal[b] {
		m = max(m, l.logit(lg, b, idx))
	}
	var s float64
	for i, idx := range l.legal[b] {
		z := l.logit(lg, b, idx)
		s += math.Exp(float64(z - m))
		dot += float64(l.target[b][i]) * float64(z)
	}
	return math.Log(s) + float64(m), dot
}

func (l *lossLayer) backward(lg, wd []float32, scale float32) {
	clear(l.dlogits)
	if l.head.dpass != nil {
		clear(l.head.dpass)
	}
	counted := 0
	for b := 0; b < l.n; b++ {
		if l.target[b] != nil {
			counted++
		}
	}
	ps := scale * l.policyWeight / float32(max(counted, 1))
	for b := 0; b < l.n; b++ {
		if l.target[b] == nil {
			continue
		}
		lse, _ := l.sampleLSE(lg, b)
		for i, idx := range l.legal[b] {
			g := (float32(math.Exp(float64(l.logit(lg, b, idx))-lse)) - l.target[b][i]) * ps
			if o := l.offset(b, idx); o >= 0 {
				l.dlogits[o] = g
			} else {
				l.head.dpass[b] = g
			}
		}
	}
	vs := scale / float32(l.n)
	for b := 0; b < l.n; b++ {
		z := wd[b*3 : b*3+3]
		m := max(z[0], z[1], z[2])
		e := [3]float64{math.Exp(float64(z[0] - m)), math.Exp(float64(z[1] - m)), math.Exp(float64(z[2] - m))}
		sum := e[0] + e[1] + e[2]
		for j := 0; j < 3; j++ {
			l.dwdl[b*3+j] = (float32(e[j]/sum) - l.wdlTarget[b][j]) * vs
		}
	}
}
