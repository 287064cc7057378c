package model

import (
	"fmt"
	"hash"
	"hash/fnv"
	"sync/atomic"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// fnOp is a Gorgonia op defined by functions: the training graph is built
// from a handful of these (stem, residual block, heads, loss), each doing
// its arithmetic with the kernels of kernels.go, while Gorgonia provides
// the expression graph, symbolic differentiation (SymDiff builds the
// backward nodes) and the TapeMachine that runs it.
//
// Every instance hashes uniquely, so Gorgonia never merges two layers.
// Outputs are the layer's own buffers, wrapped in a fresh tensor header on
// every run: no allocation of activations in steady state.
type fnOp struct {
	name string
	id   uint64
	in   []int        // number of dimensions of each input
	out  tensor.Shape // output shape; nil for a scalar
	diff []bool       // which inputs are differentiable
	do   func(in []G.Value) (G.Value, error)
	sym  func(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error)
}

var opIDs atomic.Uint64

func newFnOp(name string, in []int, out tensor.Shape, diff []bool) *fnOp {
	return &fnOp{name: name, id: opIDs.Add(1), in: in, out: out, diff: diff}
}

func (o *fnOp) Arity() int { return len(o.in) }

func (o *fnOp) Type() hm.Type {
	ts := make([]hm.Type, 0, len(o.in)+1)
	for _, d := range o.in {
		if d == 0 {
			ts = append(ts, G.Float32) // a scalar
		} else {
			ts = append(ts, G.TensorType{Dims: d, Of: G.Float32})
		}
	}
	if o.out == nil {
		ts = append(ts, G.Float32)
	} else {
		ts = append(ts, G.TensorType{Dims: len(o.out), Of: G.Float32})
	}
	return hm.NewFnType(ts...)
}

func (o *fnOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	if o.out == nil {
		return tensor.ScalarShape(), nil
	}
	return o.out.Clone(), nil
}

func (o *fnOp) Do(in ...G.Value) (G.Value, error) {
	if len(in) != len(o.in) {
		return nil, fmt.Errorf("model: op %s got %d inputs, want %d", o.name, len(in), len(o.in))
	}
	return o.do(in)
}

func (o *fnOp) ReturnsPtr() bool      { return false }
func (o *fnOp) CallsExtern() bool     { return false }
func (o *fnOp) OverwritesInput() int  { return -1 }
func (o *fnOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "%s#%d", o.name, o.id) }
func (o *fnOp) String() string        { return o.name }
func (o *fnOp) DiffWRT(int) []bool    { return o.diff }

func (o *fnOp) Hashcode() uint32 {
	h := fnv.New32a()
	o.WriteHash(h)
	return h.Sum32()
}

func (o *fnOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	if o.sym == nil {
		return nil, fmt.Errorf("model: op %s is not differentiable", o.name)
	}
	return o.sym(inputs, output, grad)
}

// wrap returns a tensor header over buf with the given shape.
func wrap(buf []float32, shape tensor.Shape) *tensor.Dense {
	return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(buf))
}

// data returns a value's float32 backing.
func data(v G.Value) []float32 {
	if t, ok := v.(tensor.Tensor); ok {
		return t.Data().([]float32)
	}
	panic(fmt.Sprintf("model: value %T is not a float32 tensor", v))
}

// gradOp returns an op whose node stands for the gradient of one input of
// a layer: it depends on the layer's backward node (so it runs after it)
// and returns a copy of the gradient the backward pass stored in src, in a
// buffer of its own (the optimizer reads src, never this value, so
// Gorgonia may reuse the value's memory).
func gradOp(name string, src *[]float32, shape tensor.Shape, bwdDims int) *fnOp {
	o := newFnOp(name, []int{bwdDims}, shape, []bool{false})
	out := make([]float32, shape.TotalSize())
	o.do = func([]G.Value) (G.Value, error) {
		copy(out, *src)
		return wrap(out, shape), nil
	}
	return o
}

// passThroughOp returns a node for a large gradient that flows on inside
// the graph (not read by the optimizer): it wraps the buffer without
// copying.
func passThroughOp(name string, src *[]float32, shape tensor.Shape, bwdDims int) *fnOp {
	o := newFnOp(name, []int{bwdDims}, shape, []bool{false})
	o.do = func([]G.Value) (G.Value, error) { return wrap(*src, shape), nil }
	return o
}

func dims(n *G.Node) int { return n.Shape().Dims() }

func shapeOf(n *G.Node) tensor.Shape { return n.Shape().Clone() }
