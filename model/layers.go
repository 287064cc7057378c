package model

import (
	"fmt"

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
