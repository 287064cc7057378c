package model

import "math"

// The opponent's-reply head of auxLayer: logits computed only at each
// sample's ReplyLegal indices, from the policy head's hidden features h
// (NHWC rows x PF) and, for the pass, their board mean.

// replyForward computes the reply logits at the target indices and each
// sample's cross-entropy; losses.reply is their mean over the samples
// with a reply target.
func (a *auxLayer) replyForward() {
	transpose(a.rw.Data, a.rwT, a.pf, a.planes)
	parallel(a.threads, a.n, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			a.replyL[i] = 0
			if !a.hasReply(i) {
				continue
			}
			legal, target := a.b.ReplyLegal[i], a.b.ReplyPolicy[i]
			z := resize(a.replyZ[i], len(legal))
			a.replyZ[i] = z
			m := float32(math.Inf(-1))
			for j, idx := range legal {
				z[j] = a.replyLogit(i, idx)
				m = max(m, z[j])
			}
			var s, dot float64
			for j, v := range z {
				s += math.Exp(float64(v - m))
				dot += float64(target[j]) * float64(v)
			}
			a.replyL[i] = math.Log(s) + float64(m) - dot
		}
	})
	var sum float64
	for _, l := range a.replyL {
		sum += l
	}
	a.losses.reply = sum / float64(a.nReply)
}

// replyLogit returns sample i's reply logit at policy index idx.
func (a *auxLayer) replyLogit(i int, idx int32) float32 {
	plane, sq := int(idx)/a.hw, int(idx)%a.hw
	if plane >= a.planes {
		return a.rpb.Data[0] + dot32(a.policy.pooled[i*a.pf:(i+1)*a.pf], a.rpw.Data)
	}
	h := a.policy.h[(i*a.hw+sq)*a.pf:][:a.pf]
	return a.rb.Data[plane] + dot32(h, a.rwT[plane*a.pf:(plane+1)*a.pf])
}

// replyBackward writes the gradient of g times the summed reply
// cross-entropies: to the reply tensors and, in a.dh, to h.
func (a *auxLayer) replyBackward(g float32) {
	pf, planes := a.pf, a.planes
	size := planes*pf + planes + pf + 1
	workers := min(max(a.threads, 1), a.n)
	for len(a.partials) < workers {
		a.partials = append(a.partials, nil)
	}
	parallel(a.threads, a.n, func(worker, lo, hi int) {
		part := resize(a.partials[worker], size)
		a.partials[worker] = part
		clear(part)
		dwT, db, dpw, dpb := part[:planes*pf], part[planes*pf:][:planes], part[planes*pf+planes:][:pf], part[size-1:]
		clear(a.dh[lo*a.hw*pf : hi*a.hw*pf])
		for i := lo; i < hi; i++ {
			if !a.hasReply(i) {
				continue
			}
			legal, target, z := a.b.ReplyLegal[i], a.b.ReplyPolicy[i], a.replyZ[i]
			lse := a.replyL[i]
			for j, v := range z {
				lse += float64(target[j]) * float64(v) // back to log-sum-exp
			}
			for j, idx := range legal {
				d := (float32(math.Exp(float64(z[j])-lse)) - target[j]) * g
				plane, sq := int(idx)/a.hw, int(idx)%a.hw
				if plane >= planes {
					a.passBackward(i, d, dpw, dpb)
					continue
				}
				o := (i*a.hw + sq) * pf
				h, dh := a.policy.h[o:o+pf], a.dh[o:o+pf]
				wt, dw := a.rwT[plane*pf:(plane+1)*pf], dwT[plane*pf:(plane+1)*pf]
				for c, hv := range h {
					dh[c] += d * wt[c]
					dw[c] += d * hv
				}
				db[plane] += d
			}
		}
	})
	// reduce the workers' partials, then transpose back to (PF, P)
	total := a.partials[0][:size]
	for _, p := range a.partials[1:workers] {
		addInto(total, p[:size])
	}
	transpose(total[:planes*pf], a.drw, planes, pf)
	copy(a.drb, total[planes*pf:][:planes])
	if a.rpw != nil {
		copy(a.drpw, total[planes*pf+planes:][:pf])
		a.drpb[0] = total[size-1]
	}
}

// passBackward adds the gradient d of sample i's reply pass logit: to the
// pass tensors' partials and, spread over the board, to a.dh.
func (a *auxLayer) passBackward(i int, d float32, dpw, dpb []float32) {
	pf := a.pf
	pooled := a.policy.pooled[i*pf : (i+1)*pf]
	for c, v := range pooled {
		dpw[c] += d * v
	}
	dpb[0] += d
	inv := d / float32(a.hw)
	w := a.rpw.Data[:pf]
	for s := 0; s < a.hw; s++ {
		dh := a.dh[(i*a.hw+s)*pf:][:pf]
		for c, v := range w {
			dh[c] += inv * v
		}
	}
}

// transpose writes the cols x rows transpose of the rows x cols matrix m
// into t.
func transpose(m, t []float32, rows, cols int) {
	for r := 0; r < rows; r++ {
		row := m[r*cols : (r+1)*cols]
		for c, v := range row {
			t[c*rows+r] = v
		}
	}
}

func dot32(a, b []float32) float32 {
	var s float32
	b = b[:len(a)]
	for i, v := range a {
		s += v * b[i]
	}
	return s
}
