package model

import "math"

// batchNorm normalises the channels of rows x c activations: training
// mode uses the batch's mean and (biased) variance and updates running
// statistics; inference folds the running statistics into the preceding
// convolution (see infer.go).
type batchNorm struct {
	c        int
	threads  int
	eps      float32
	momentum float32 // weight of the new batch in the running statistics
	mean     []float32
	invstd   []float32
	sum      [][]float64 // per-worker partial sums
	sum2     [][]float64
	part     [][]float32 // per-worker float32 block sums
	part2    [][]float32
	scale    []float32 // gamma*invstd, per channel
	shift    []float32
	sumDz    []float32
}

func newBatchNorm(c int, momentum float32) *batchNorm {
	f := func() []float32 { return make([]float32, c) }
	return &batchNorm{c: c, threads: DefaultThreads(), eps: 1e-5, momentum: momentum, mean: f(), invstd: f(),
		scale: f(), shift: f(), sumDz: f()}
}

func (bn *batchNorm) partials(workers int) {
	for len(bn.sum) < workers {
		bn.sum = append(bn.sum, make([]float64, bn.c))
		bn.sum2 = append(bn.sum2, make([]float64, bn.c))
		bn.part = append(bn.part, make([]float32, bn.c))
		bn.part2 = append(bn.part2, make([]float32, bn.c))
	}
}

// blockRows is how many rows a float32 partial sum covers before it is
// added to a float64 total: few conversions, little rounding.
const blockRows = 32

// channelSums adds to sum (float64, per channel) the per-channel sums of
// rows [lo, hi) of x, and to sum2 the sums of squared deviations from
// center (nil center: sum2 is not computed).
func channelSums(x []float32, c, lo, hi int, center []float32, sum, sum2 []float64, part, part2 []float32) {
	for r0 := lo; r0 < hi; r0 += blockRows {
		r1 := min(r0+blockRows, hi)
		clear(part)
		clear(part2)
		for r := r0; r < r1; r++ {
			row := x[r*c : (r+1)*c]
			p := part[:len(row)]
			if center == nil {
				for i, v := range row {
					p[i] += v
				}
				continue
			}
			p2 := part2[:len(row)]
			m := center[:len(row)]
			for i, v := range row {
				d := v - m[i]
				p[i] += d
				p2[i] += d * d
			}
		}
		for i := range part {
			sum[i] += float64(part[i])
			if center != nil {
				sum2[i] += float64(part2[i])
			}
		}
	}
}

// forwardTrain computes y = act(gamma*(x-mean)*invstd + beta (+ residual))
// with the batch statistics, where act is ReLU if relu is set. runMean and
// runVar are updated (runVar with the unbiased variance).
func (bn *batchNorm) forwardTrain(x, gamma, beta, residual, y, runMean, runVar []float32, relu bool) {
	c := bn.c
	rows := len(x) / c
	workers := min(bn.threads, rows)
	bn.partials(workers)
	parallel(bn.threads, rows, func(worker, lo, hi int) {
		clear(bn.sum[worker])
		channelSums(x, c, lo, hi, nil, bn.sum[worker], nil, bn.part[worker], nil)
	})
	for i := 0; i < c; i++ {
		t := 0.0
		for w := 0; w < workers; w++ {
			t += bn.sum[w][i]
		}
		bn.mean[i] = float32(t / float64(rows))
	}
	// second pass around the mean: sum(d) corrects the rounding of the mean
	parallel(bn.threads, rows, func(worker, lo, hi int) {
		clear(bn.sum[worker])
		clear(bn.sum2[worker])
		channelSums(x, c, lo, hi, bn.mean, bn.sum[worker], bn.sum2[worker], bn.part[worker], bn.part2[worker])
	})
	for i := 0; i < c; i++ {
		var d, t float64
		for w := 0; w < workers; w++ {
			d += bn.sum[w][i]
			t += bn.sum2[w][i]
		}
		t -= d * d / float64(rows)
		v := max(t/float64(rows), 0)
		bn.invstd[i] = float32(1 / math.Sqrt(v+float64(bn.eps)))
		unbiased := v
		if rows > 1 {
			unbiased = max(t, 0) / float64(rows-1)
		}
		runMean[i] += bn.momentum * (bn.mean[i] - runMean[i])
		runVar[i] += bn.momentum * (float32(unbiased) - runVar[i])
	}
	bn.apply(x, gamma, beta, residual, y, relu)
}

// apply computes y from x with the stored mean and invstd.
func (bn *batchNorm) apply(x, gamma, beta, residual, y []float32, relu bool) {
	c := bn.c
	scale, shift := bn.scale, bn.shift
	for i := range scale {
		scale[i] = gamma[i] * bn.invstd[i]
		shift[i] = beta[i] - bn.mean[i]*scale[i]
	}
	parallel(bn.threads, len(x)/c, func(_, lo, hi int) {
		affine(x[lo*c:hi*c], y[lo*c:hi*c], residualRows(residual, lo*c, hi*c), scale, shift, relu)
	})
}

// affine sets y = act(x*scale + shift (+ res)) row by row (rows of
// len(scale) channels), with loops specialised so that the inner ones
// carry no branches but the ReLU.
func affine(x, y, res, scale, shift []float32, relu bool) {
	c := len(scale)
	for r := 0; r+c <= len(x); r += c {
		xr, yr := x[r:r+c], y[r:r+c]
		sc, sh := scale[:len(xr)], shift[:len(xr)]
		yr = yr[:len(xr)]
		switch {
		case res != nil && relu:
			rr := res[r : r+c][:len(xr)]
			for i, v := range xr {
				yr[i] = max(v*sc[i]+sh[i]+rr[i], 0)
			}
		case res != nil:
			rr := res[r : r+c][:len(xr)]
			for i, v := range xr {
				yr[i] = v*sc[i] + sh[i] + rr[i]
			}
		case relu:
			for i, v := range xr {
				yr[i] = max(v*sc[i]+sh[i], 0)
			}
		default:
			for i, v := range xr {
				yr[i] = v*sc[i] + sh[i]
			}
		}
	}
}

// backward computes dx (overwritten), dgamma and dbeta (overwritten) and,
// if dres is not nil, the gradient of the residual input (= the gradient
// after the activation), from dy, the gradient of the output y.
func (bn *batchNorm) backward(x, gamma, y, dy, dx, dgamma, dbeta, dres []float32, relu bool) {
	c := bn.c
	rows := len(x) / c
	workers := min(bn.threads, rows)
	bn.partials(workers)
	// pass 1: dz = dy * act'(z) (kept in dx, and dres); per channel sums of
	// dz and dz*(x-mean)
	parallel(bn.threads, rows, func(worker, lo, hi int) {
		s, s2 := bn.sum[worker], bn.sum2[worker]
		p, p2 := bn.part[worker], bn.part2[worker]
		clear(s)
		clear(s2)
		for r0 := lo; r0 < hi; r0 += blockRows {
			r1 := min(r0+blockRows, hi)
			clear(p)
			clear(p2)
			for r := r0; r < r1; r++ {
				xr, yr, dyr, dzr := x[r*c:(r+1)*c], y[r*c:(r+1)*c], dy[r*c:(r+1)*c], dx[r*c:(r+1)*c]
				m := bn.mean[:len(xr)]
				yr, dyr, dzr = yr[:len(xr)], dyr[:len(xr)], dzr[:len(xr)]
				pp, pp2 := p[:len(xr)], p2[:len(xr)]
				for i, v := range xr {
					g := dyr[i]
					if relu && yr[i] <= 0 {
						g = 0
					}
					dzr[i] = g
					pp[i] += g
					pp2[i] += g * (v - m[i])
				}
				if dres != nil {
					copy(dres[r*c:(r+1)*c], dzr)
				}
			}
			for i := range p {
				s[i] += float64(p[i])
				s2[i] += float64(p2[i])
			}
		}
	})
	// per channel: dx = k1*dz - k2*(x-mean) - k3, from
	// dx = gamma*invstd/N * (N*dz - sum(dz) - xhat*sum(dz*xhat))
	k1, k2, k3 := bn.scale, bn.shift, bn.sumDz
	n := float64(rows)
	for i := 0; i < c; i++ {
		var a, b float64
		for w := 0; w < workers; w++ {
			a += bn.sum[w][i]
			b += bn.sum2[w][i]
		}
		inv := float64(bn.invstd[i])
		dbeta[i], dgamma[i] = float32(a), float32(b*inv)
		g := float64(gamma[i]) * inv
		k1[i] = float32(g)
		k2[i] = float32(g * b * inv * inv / n)
		k3[i] = float32(g * a / n)
	}
	parallel(bn.threads, rows, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			xr, dzr := x[r*c:(r+1)*c], dx[r*c:(r+1)*c]
			m := bn.mean[:len(xr)]
			dzr = dzr[:len(xr)]
			a, b, d := k1[:len(xr)], k2[:len(xr)], k3[:len(xr)]
			for i, v := range xr {
				dzr[i] = a[i]*dzr[i] - b[i]*(v-m[i]) - d[i]
			}
		}
	})
}
