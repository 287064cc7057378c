package model

import (
	"fmt"
	"math"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Reference is the network's inference function written with Gorgonia's
// own operations (Conv2d in NCHW, broadcasting arithmetic, Rectify, Mean,
// Max, Concat, Mul) and run on a TapeMachine. It is slow; tests use it as
// the definition the fast paths must match: Net (infer.go) and the
// training graph's forward pass.
//
// Traps of Gorgonia v0.9.18 it avoids (../shared/notes/gorgonia.md), each
// with a regression test in reference_test.go: every node has a unique
// name (unnamed nodes of equal shape are merged); no SoftMax/LogSoftMax in
// the graph (they hash alike and overflow), logits come out raw; batch
// normalisation is an explicit scale and shift from the running
// statistics (BatchNorm's statistics are reset by NewTapeMachine);
// global pooling is Mean of a reshape (GlobalAveragePool2D has no
// gradient); weights are initialised in Go (HeN panics for float32).
type Reference struct {
	batch int
	g     *G.ExprGraph
	x     *G.Node
	input *tensor.Dense
	vm    G.VM
	outs  [numRefOutputs]G.Value
}

// Outputs are the reference network's outputs for a batch; the
// auxiliary ones are nil without Config.AuxHeads, the pass logits nil
// in variants without a pass.
type Outputs struct {
	Logits      []float32 // batch x planes*H*W, policy-index layout
	Pass        []float32 // batch
	WDL         []float32 // batch x 3: win/draw/loss logits
	ReplyLogits []float32 // batch x planes*H*W: the opponent's reply, policy-index layout
	ReplyPass   []float32 // batch
	Material    []float32 // batch x 2: tanh, material at the end and AuxAheadPlies ahead
	ShortValue  []float32 // batch x 3: tanh, short-term values
	Ownership   []float32 // batch x H*W: tanh, network frame
}

// The Reference's outputs, in Outputs' field order.
const (
	refLogits = iota
	refPass
	refWDL
	refReply
	refReplyPass
	refMaterial
	refShort
	refOwn
	numRefOutputs
)

// NewReference builds the reference graph of w for batch positions.
func NewReference(w *Weights, batch int) (*Reference, error) {
	r := &Reference{batch: batch, g: G.NewGraph()}
	if err := r.build(w); err != nil {
		return nil, fmt.Errorf("model: reference graph: %w", err)
	}
	r.vm = G.NewTapeMachine(r.g)
	return r, nil
}

// refBuilder threads errors through graph construction.
type refBuilder struct {
	g   *G.ExprGraph
	w   *Weights
	err error
}

func (b *refBuilder) ok(n *G.Node, err error) *G.Node {
	if b.err == nil && err != nil {
		b.err = err
	}
	return n
}

func (b *refBuilder) constant(name string, shape tensor.Shape, data []float32) *G.Node {
	return G.NewTensor(b.g, G.Float32, len(shape), G.WithShape(shape...), G.WithName(name),
		G.WithValue(tensor.New(tensor.WithShape(shape...), tensor.WithBacking(append([]float32(nil), data...)))))
}

// convWeight converts [ky][kx][in][out] to Gorgonia's (out, in, ky, kx).
func (b *refBuilder) convWeight(name string) *G.Node {
	t := b.w.Get(name)
	k, in, out := t.Shape[0], t.Shape[2], t.Shape[3]
	d := make([]float32, len(t.Data))
	for ky := 0; ky < k; ky++ {
		for kx := 0; kx < k; kx++ {
			for i := 0; i < in; i++ {
				for o := 0; o < out; o++ {
					d[((o*in+i)*k+ky)*k+kx] = t.Data[((ky*k+kx)*in+i)*out+o]
				}
			}
		}
	}
	return b.constant(name, tensor.Shape{out, in, k, k}, d)
}

func (b *refBuilder) conv(x *G.Node, name string) *G.Node {
	w := b.convWeight(name)
	k := w.Shape()[2]
	return b.ok(G.Conv2d(x, w, tensor.Shape{k, k}, []int{k / 2, k / 2}, []int{1, 1}, []int{1, 1}))
}

// bn applies the running-statistics normalisation as a per-channel scale
// and shift, optionally followed by ReLU.
func (b *refBuilder) bn(x *G.Node, prefix string, relu bool) *G.Node {
	gamma, beta := b.w.must(prefix+"/gamma"), b.w.must(prefix+"/beta")
	mean, vari := b.w.must(prefix+"/mean"), b.w.must(prefix+"/var")
	c := len(gamma)
	scale, shift := make([]float32, c), make([]float32, c)
	for i := range scale {
		scale[i] = gamma[i] / float32(math.Sqrt(float64(vari[i])+bnEps))
		shift[i] = beta[i] - mean[i]*scale[i]
	}
	s := b.constant(prefix+"/scale", tensor.Shape{1, c, 1, 1}, scale)
	t := b.constant(prefix+"/shift", tensor.Shape{1, c, 1, 1}, shift)
	y := b.ok(G.BroadcastHadamardProd(x, s, nil, []byte{0, 2, 3}))
	y = b.ok(G.BroadcastAdd(y, t, nil, []byte{0, 2, 3}))
	if relu {
		y = b.ok(G.Rectify(y))
	}
	return y
}

// pool returns the mean (and max) over the board: (n, c).
func (b *refBuilder) pool(x *G.Node, withMax bool) *G.Node {
	s := x.Shape()
	flat := b.ok(G.Reshape(x, tensor.Shape{s[0], s[1], s[2] * s[3]}))
	mean := b.ok(G.Mean(flat, 2))
	if !withMax {
		return mean
	}
	mx := b.ok(G.Max(flat, 2))
	return b.ok(G.Concat(1, mean, mx))
}

// denseLayer computes x @ w + bias.
func (b *refBuilder) denseLayer(x *G.Node, wName, bName string) *G.Node {
	wt := b.w.Get(wName)
	w := b.constant(wName, tensor.Shape{wt.Shape[len(wt.Shape)-2], wt.Shape[len(wt.Shape)-1]}, wt.Data)
	bias := b.w.must(bName)
	bn := b.constant(bName, tensor.Shape{1, len(bias)}, bias)
	y := b.ok(G.Mul(x, w))
	return b.ok(G.BroadcastAdd(y, bn, nil, []byte{0}))
}

func (r *Reference) build(w *Weights) error {
	s := w.Spec
	b := &refBuilder{g: r.g, w: w}
	n, h, wd := r.batch, s.Height, s.Width
	r.input = tensor.New(tensor.WithShape(n, s.Planes, h, wd), tensor.Of(tensor.Float32))
	r.x = G.NewTensor(r.g, G.Float32, 4, G.WithShape(n, s.Planes, h, wd), G.WithName("input"), G.WithValue(r.input))
	x := b.bn(b.conv(r.x, "stem/conv/w"), "stem/bn", true)
	for i := 0; i < w.Config.Blocks; i++ {
		p := fmt.Sprintf("block%d", i)
		y := b.bn(b.conv(x, p+"/conv1/w"), p+"/bn1", true)
		if t := w.Get(p + "/gpool/w"); t != nil {
			f := w.Config.Filters
			wg := b.constant(t.Name, tensor.Shape{f, f}, t.Data)
			g := b.ok(G.Mul(b.pool(y, false), wg))
			g = b.ok(G.Reshape(g, tensor.Shape{n, f, 1, 1}))
			y = b.ok(G.BroadcastAdd(y, g, nil, []byte{2, 3}))
		}
		y = b.bn(b.conv(y, p+"/conv2/w"), p+"/bn2", false)
		x = b.ok(G.Rectify(b.ok(G.Add(x, y))))
	}
	var outs [numRefOutputs]*G.Node
	ph := b.bn(b.conv(x, "policy/conv/w"), "policy/bn", true)
	outs[refLogits] = b.planeOutput(ph, "policy/out/w", "policy/out/b")
	if w.Get("policy/pass/w") != nil {
		outs[refPass] = b.denseLayer(b.pool(ph, false), "policy/pass/w", "policy/pass/b")
	}
	va := b.bn(b.conv(x, "value/conv/w"), "value/bn", true)
	vh := b.ok(G.Rectify(b.denseLayer(b.pool(va, true), "value/fc1/w", "value/fc1/b")))
	outs[refWDL] = b.denseLayer(vh, "value/fc2/w", "value/fc2/b")
	if w.Config.AuxHeads {
		outs[refReply] = b.planeOutput(ph, "policy/reply/w", "policy/reply/b")
		if w.Get("policy/replypass/w") != nil {
			outs[refReplyPass] = b.denseLayer(b.pool(ph, false), "policy/replypass/w", "policy/replypass/b")
		}
		outs[refMaterial] = b.ok(G.Tanh(b.denseLayer(vh, "value/material/w", "value/material/b")))
		outs[refShort] = b.ok(G.Tanh(b.denseLayer(vh, "value/short/w", "value/short/b")))
		outs[refOwn] = b.ok(G.Tanh(b.planeOutput(va, "value/own/w", "value/own/b")))
	}
	if b.err != nil {
		return b.err
	}
	for i, o := range outs {
		if o != nil {
			G.Read(o, &r.outs[i])
		}
	}
	return nil
}

// planeOutput is a 1x1 convolution with a bias per output plane,
// flattened to (n, planes*H*W) in plane-major (policy-index) order.
func (b *refBuilder) planeOutput(x *G.Node, wName, bName string) *G.Node {
	y := b.conv(x, wName)
	s := y.Shape()
	bias := b.constant(bName, tensor.Shape{1, s[1], 1, 1}, b.w.must(bName))
	y = b.ok(G.BroadcastAdd(y, bias, nil, []byte{0, 2, 3}))
	return b.ok(G.Reshape(y, tensor.Shape{s[0], s[1] * s[2] * s[3]}))
}

// Run evaluates batch positions (input planes C x H x W each, concatenated)
// and returns the policy logits in policy-index layout (batch x planes*H*W),
// the pass logits (nil without a pass) and the value logits (batch x 3).
func (r *Reference) Run(planes []float32) (logits, pass, wdl []float32, err error) {
	o, err := r.Forward(planes)
	return o.Logits, o.Pass, o.WDL, err
}

// Forward evaluates batch positions, as Run, and returns every output,
// the auxiliary heads' included.
func (r *Reference) Forward(planes []float32) (Outputs, error) {
	copy(r.input.Data().([]float32), planes)
	if err := r.vm.RunAll(); err != nil {
		return Outputs{}, err
	}
	defer r.vm.Reset()
	var got [numRefOutputs][]float32
	for i, v := range r.outs {
		if v != nil {
			got[i] = append([]float32(nil), v.Data().([]float32)...)
		}
	}
	return Outputs{Logits: got[refLogits], Pass: got[refPass], WDL: got[refWDL], ReplyLogits: got[refReply],
		ReplyPass: got[refReplyPass], Material: got[refMaterial], ShortValue: got[refShort], Ownership: got[refOwn]}, nil
}

// Close releases the machine.
func (r *Reference) Close() error { return r.vm.Close() }
