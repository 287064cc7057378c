package model

import (
	"fmt"
	"math"

	G "gorgonia.org/gorgonia"
)

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
