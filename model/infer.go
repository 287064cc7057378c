package model

import (
	"fmt"
	"math"

	"chuzero/encode"
)

// Net is a network prepared for inference: batch normalisation folded into
// the convolutions (W' = W*gamma/sqrt(var+eps) per output channel, bias
// b' = beta - mean*gamma/sqrt(var+eps)), activations NHWC, every
// multiply a GEMM. It is immutable and safe for concurrent use; each
// goroutine needs its own Workspace. Its outputs equal the Gorgonia
// reference graph's (reference.go) within 1e-4 relative error (tested for
// every preset).
type Net struct {
	Spec   *encode.Spec
	Config Config
	stem   folded
	blocks []foldedBlock
	pconv  folded
	pout   folded
	pass   folded // dense PolicyFilters -> 1 (nil weights without a pass)
	vconv  folded
	fc1    folded
	fc2    folded
	mat    folded // the auxiliary material head (nil weights without one)
}

type folded struct {
	w, b []float32
}

type foldedBlock struct {
	c1, c2 folded
	wg     []float32 // nil without global pooling
}

const bnEps = 1e-5

// fold returns conv weights [ky][kx][in][out] scaled per output channel
// by the batch norm of prefix, and the matching bias.
func fold(w *Weights, conv, prefix string) folded {
	wt := w.must(conv)
	gamma, beta := w.must(prefix+"/gamma"), w.must(prefix+"/beta")
	mean, vari := w.must(prefix+"/mean"), w.must(prefix+"/var")
	out := len(gamma)
	f := folded{w: make([]float32, len(wt)), b: make([]float32, out)}
	for o := 0; o < out; o++ {
		s := gamma[o] / float32(math.Sqrt(float64(vari[o])+bnEps))
		f.b[o] = beta[o] - mean[o]*s
		for i := o; i < len(wt); i += out {
			f.w[i] = wt[i] * s
		}
	}
	return f
}

// NewNet prepares weights for inference (they are copied; later changes to
// w do not affect the Net).
func NewNet(w *Weights) *Net {
	n := &Net{Spec: w.Spec, Config: w.Config}
	n.stem = fold(w, "stem/conv/w", "stem/bn")
	for i := 0; i < w.Config.Blocks; i++ {
		p := fmt.Sprintf("block%d", i)
		b := foldedBlock{c1: fold(w, p+"/conv1/w", p+"/bn1"), c2: fold(w, p+"/conv2/w", p+"/bn2")}
		if t := w.Get(p + "/gpool/w"); t != nil {
			b.wg = append([]float32(nil), t.Data...)
		}
		n.blocks = append(n.blocks, b)
	}
	n.pconv = fold(w, "policy/conv/w", "policy/bn")
	n.pout = folded{append([]float32(nil), w.must("policy/out/w")...), append([]float32(nil), w.must("policy/out/b")...)}
	if w.Get("policy/pass/w") != nil {
		n.pass = folded{append([]float32(nil), w.must("policy/pass/w")...), append([]float32(nil), w.must("policy/pass/b")...)}
	}
	n.vconv = fold(w, "value/conv/w", "value/bn")
	n.fc1 = folded{append([]float32(nil), w.must("value/fc1/w")...), append([]float32(nil), w.must("value/fc1/b")...)}
	n.fc2 = folded{append([]float32(nil), w.must("value/fc2/w")...), append([]float32(nil), w.must("value/fc2/b")...)}
	if w.Get("value/material/w") != nil {
		n.mat = folded{append([]float32(nil), w.must("value/material/w")...), append([]float32(nil), w.must("value/material/b")...)}
	}
	return n
}

// Workspace holds one goroutine's activation buffers for batches of up to
// Max positions.
type Workspace struct {
	Max     int
	threads int
	x       []float32 // NHWC input
	a, b, t []float32 // tower activations
	stem    *conv
	c1, c2  *conv
	gp      *globalBias
	ph      []float32 // policy hidden
	pconv   *conv
	pout    *conv
	pooled  []float32
	vconv   *conv
	va      []float32
	vpool   []float32
	argmax  []int32
	vh      []float32

	// outputs of the last Forward
	Logits []float32 // Max x (H*W) x PolicyPlanes, NHWC: logit of index plane*HW+sq is at (b*HW+sq)*planes+plane
	Pass   []float32 // Max: the pass logit (variants with a pass)
	Value  []float32 // Max x 3: win/draw/loss logits
	// Material is Max x 2: the material head's forecasts, at the game's end
	// and AuxAheadPlies ahead (tanh, in armies); zero without the head
	Material []float32
}

// NewWorkspace allocates buffers for batches of up to max positions.
func (n *Net) NewWorkspace(max int) *Workspace {
	s, c := n.Spec, n.Config
	h, w := s.Height, s.Width
	rows := max * h * w
	f := c.Filters
	ws := &Workspace{Max: max,
		x: buf(rows * s.Planes), a: buf(rows * f), b: buf(rows * f), t: buf(rows * f),
		stem: newConv(h, w, s.Planes, f, 3), c1: newConv(h, w, f, f, 3), c2: newConv(h, w, f, f, 3),
		gp: &globalBias{hw: h * w, c: f},
		ph: buf(rows * c.PolicyFilters), pconv: newConv(h, w, f, c.PolicyFilters, 1),
		pout: newConv(h, w, c.PolicyFilters, s.PolicyPlanes(), 1), pooled: buf(max * c.PolicyFilters),
		vconv: newConv(h, w, f, c.ValueFilters, 1), va: buf(rows * c.ValueFilters),
		vpool: buf(max * 2 * c.ValueFilters), argmax: make([]int32, max*c.ValueFilters), vh: buf(max * c.ValueHidden),
		Logits: buf(rows * s.PolicyPlanes()), Pass: buf(max), Value: buf(max * 3), Material: buf(max * 2)}
	ws.SetThreads(DefaultThreads())
	return ws
}

// SetThreads sets how many goroutines the workspace's forward passes use.
func (ws *Workspace) SetThreads(n int) {
	n = max(n, 1)
	ws.threads = n
	for _, c := range []*conv{ws.stem, ws.c1, ws.c2, ws.pconv, ws.pout, ws.vconv} {
		c.threads = n
	}
	ws.gp.threads = n
}

// Forward evaluates nb positions whose input planes (C x H x W each, as
// encode writes them) are concatenated in planes. Results are left in the
// workspace's Logits, Pass, Value and Material.
func (n *Net) Forward(ws *Workspace, planes []float32, nb int) error {
	s, c := n.Spec, n.Config
	hw := s.Height * s.Width
	if nb < 1 || nb > ws.Max {
		return fmt.Errorf("model: batch of %d for a workspace of %d", nb, ws.Max)
	}
	if len(planes) < nb*s.PlaneSize() {
		return fmt.Errorf("model: %d input floats for %d positions of %d", len(planes), nb, s.PlaneSize())
	}
	rows := nb * hw
	f := c.Filters
	toNHWC(ws.threads, planes, ws.x, nb, s.Planes, hw)
	// three buffers rotate: a holds the block input, b the first
	// convolution's output, o the block output
	a, b, o := ws.a, ws.b, ws.t
	ws.stem.forwardAct(ws.x, n.stem.w, n.stem.b, nil, a[:rows*f], nb, true)
	for _, blk := range n.blocks {
		ws.c1.forwardAct(a, blk.c1.w, blk.c1.b, nil, b[:rows*f], nb, true)
		in2 := b
		if blk.wg != nil {
			ws.gp.forward(b, blk.wg, o[:rows*f], nb)
			in2, b, o = o, o, b // the pooled copy is the input; b is free for the output
		}
		ws.c2.forwardAct(in2, blk.c2.w, blk.c2.b, a[:rows*f], o[:rows*f], nb, true)
		a, o = o, a
	}
	pf := c.PolicyFilters
	ws.pconv.forwardAct(a, n.pconv.w, n.pconv.b, nil, ws.ph[:rows*pf], nb, true)
	ws.pout.forward(ws.ph, n.pout.w, n.pout.b, ws.Logits[:rows*s.PolicyPlanes()], nb)
	if n.pass.w != nil {
		meanPool(ws.ph, ws.pooled, nb, hw, pf)
		dense(ws.pooled, n.pass.w, n.pass.b, ws.Pass, nb, pf, 1, false)
	}
	vf := c.ValueFilters
	ws.vconv.forwardAct(a, n.vconv.w, n.vconv.b, nil, ws.va[:rows*vf], nb, true)
	meanMaxPool(ws.va, ws.vpool, ws.argmax, nb, hw, vf)
	dense(ws.vpool, n.fc1.w, n.fc1.b, ws.vh, nb, 2*vf, c.ValueHidden, true)
	dense(ws.vh, n.fc2.w, n.fc2.b, ws.Value, nb, c.ValueHidden, 3, false)
	if n.mat.w != nil {
		m := ws.Material[:nb*2]
		dense(ws.vh, n.mat.w, n.mat.b, m, nb, c.ValueHidden, 2, false)
		for i, x := range m {
			m[i] = float32(math.Tanh(float64(x)))
		}
	} else {
		clear(ws.Material[:nb*2])
	}
	return nil
}

// Logit returns the logit of policy index idx for position b of the last
// Forward.
func (n *Net) Logit(ws *Workspace, b int, idx int) float32 {
	hw := n.Spec.Height * n.Spec.Width
	planes := n.Spec.PolicyPlanes()
	plane, sq := idx/hw, idx%hw
	if plane >= planes {
		return ws.Pass[b]
	}
	return ws.Logits[(b*hw+sq)*planes+plane]
}

// Priors writes the softmax of position b's logits over the given policy
// indices (its legal moves) into out.
func (n *Net) Priors(ws *Workspace, b int, legal []int32, out []float32) {
	m := float32(math.Inf(-1))
	for i, idx := range legal {
		out[i] = n.Logit(ws, b, int(idx))
		m = max(m, out[i])
	}
	var sum float64
	for i := range legal {
		e := math.Exp(float64(out[i] - m))
		out[i] = float32(e)
		sum += e
	}
	for i := range legal {
		out[i] = float32(float64(out[i]) / sum)
	}
}

// WDL returns the softmax of position b's value logits: win, draw and loss
// probabilities for the side to move.
func (n *Net) WDL(ws *Workspace, b int) [3]float32 {
	z := ws.Value[b*3 : b*3+3]
	m := max(z[0], z[1], z[2])
	e := [3]float64{math.Exp(float64(z[0] - m)), math.Exp(float64(z[1] - m)), math.Exp(float64(z[2] - m))}
	s := e[0] + e[1] + e[2]
	return [3]float32{float32(e[0] / s), float32(e[1] / s), float32(e[2] / s)}
}
