package model

import (
	"math"
	"runtime"
	"sync"
)

// The network's arithmetic on plain float32 slices, shared by the training
// ops (ops.go) and the inference engine (infer.go). Activations are NHWC:
// rows = batch x squares, columns = channels, row-major. Convolution
// weights are [ky][kx][in][out]; dense weights [in][out].

// parallel splits [0, n) into one contiguous range per worker (at most
// threads of them) and runs fn on each in its own goroutine (inline when
// there is one range).
func parallel(threads, n int, fn func(worker, lo, hi int)) {
	w := min(max(threads, 1), n)
	if w <= 1 {
		if n > 0 {
			fn(0, 0, n)
		}
		return
	}
	var wg sync.WaitGroup
	for i := 0; i < w; i++ {
		lo, hi := i*n/w, (i+1)*n/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(i, lo, hi)
		}()
	}
	wg.Wait()
}

// DefaultThreads is the number of goroutines a layer uses unless told
// otherwise: GOMAXPROCS.
func DefaultThreads() int { return runtime.GOMAXPROCS(0) }

// chunkImages is how many images one im2col + GEMM call covers: big enough
// for an efficient GEMM, small enough that the column buffer stays in cache.
const chunkImages = 8

// conv is a k x k convolution (k = 1 or 3, stride 1, zero padding k/2) of
// an h x w board from cin to cout channels, with its scratch buffers.
type conv struct {
	h, w, cin, cout, k int
	threads            int         // goroutines per call
	col                [][]float32 // per-worker im2col buffers
	dwPart             [][]float32 // per-worker partial weight gradients
	wRot               []float32   // weights rotated for the data gradient
}

func newConv(h, w, cin, cout, k int) *conv {
	return &conv{h: h, w: w, cin: cin, cout: cout, k: k, threads: DefaultThreads()}
}

func (c *conv) weightLen() int { return c.k * c.k * c.cin * c.cout }

// prepare sizes the per-worker slices before goroutines use them.
func (c *conv) prepare() {
	for len(c.col) < c.threads {
		c.col = append(c.col, nil)
	}
	for len(c.dwPart) < c.threads {
		c.dwPart = append(c.dwPart, make([]float32, c.weightLen()))
	}
}

// scratch returns worker's im2col buffer of the given size; prepare must
// have been called before the workers start.
func (c *conv) scratch(worker, size int) []float32 {
	if cap(c.col[worker]) < size {
		c.col[worker] = make([]float32, size)
	}
	return c.col[worker][:size]
}

// im2col writes, for images [b0, b0+nb) of x (cin channels), one row per
// output square holding its k x k input neighbourhood (zeros off the
// board): (nb*h*w) x (k*k*cin).
func im2col(x []float32, h, w, cin, k, b0, nb int, col []float32) {
	hw := h * w
	kk := k * k * cin
	pad := k / 2
	for b := 0; b < nb; b++ {
		img := x[(b0+b)*hw*cin : (b0+b+1)*hw*cin]
		for oy := 0; oy < h; oy++ {
			for ox := 0; ox < w; ox++ {
				row := col[((b*h+oy)*w+ox)*kk:][:kk]
				for ky := 0; ky < k; ky++ {
					iy := oy + ky - pad
					for kx := 0; kx < k; kx++ {
						ix := ox + kx - pad
						dst := row[(ky*k+kx)*cin:][:cin]
						if iy < 0 || iy >= h || ix < 0 || ix >= w {
							clear(dst)
						} else {
							copy(dst, img[(iy*w+ix)*cin:])
						}
					}
				}
			}
		}
	}
}

// forward computes y = conv(x, wt) (+ bias per output channel, if given)
// for a batch of n images.
func (c *conv) forward(x, wt, bias, y []float32, n int) {
	c.forwardAct(x, wt, bias, nil, y, n, false)
}

// forwardAct computes y = act(conv(x, wt) + bias + residual) (bias and
// residual optional, act ReLU if relu is set), finishing each chunk while
// it is still in cache.
func (c *conv) forwardAct(x, wt, bias, residual, y []float32, n int, relu bool) {
	hw := c.h * c.w
	if c.k == 1 {
		parallel(c.threads, n*hw, func(_, lo, hi int) {
			gemm(false, false, hi-lo, c.cout, c.cin, 1, x[lo*c.cin:], c.cin, wt, c.cout, 0, y[lo*c.cout:], c.cout)
			epilogue(y[lo*c.cout:hi*c.cout], bias, residualRows(residual, lo*c.cout, hi*c.cout), relu)
		})
		return
	}
	kk := c.k * c.k * c.cin
	c.prepare()
	parallel(c.threads, n, func(worker, lo, hi int) {
		for b := lo; b < hi; b += chunkImages {
			nb := min(chunkImages, hi-b)
			col := c.scratch(worker, nb*hw*kk)
			im2col(x, c.h, c.w, c.cin, c.k, b, nb, col)
			gemm(false, false, nb*hw, c.cout, kk, 1, col, kk, wt, c.cout, 0, y[b*hw*c.cout:], c.cout)
			lo, hi := b*hw*c.cout, (b+nb)*hw*c.cout
			epilogue(y[lo:hi], bias, residualRows(residual, lo, hi), relu)
		}
	})
}

// epilogue sets y = act(y + bias + res) row by row (rows of len(bias)
// channels; bias and res may be nil).
func epilogue(y, bias, res []float32, relu bool) {
	if bias == nil && res == nil && !relu {
		return
	}
	if bias == nil {
		if res != nil {
			for i, v := range res[:len(y)] {
				y[i] += v
			}
		}
		if relu {
			for i, v := range y {
				y[i] = max(v, 0)
			}
		}
		return
	}
	n := len(bias)
	for r := 0; r+n <= len(y); r += n {
		row := y[r : r+n]
		b := bias[:len(row)]
		switch {
		case res != nil && relu:
			rr := res[r : r+n][:len(row)]
			for i, v := range row {
				row[i] = max(v+b[i]+rr[i], 0)
			}
		case res != nil:
			rr := res[r : r+n][:len(row)]
			for i, v := range row {
				row[i] = v + b[i] + rr[i]
			}
		case relu:
			for i, v := range row {
				row[i] = max(v+b[i], 0)
			}
		default:
			for i, v := range row {
				row[i] = v + b[i]
			}
		}
	}
}

func addBias(y, bias []float32) {
	if bias == nil {
		return
	}
	n := len(bias)
	for r := 0; r+n <= len(y); r += n {
		row := y[r : r+n]
		for i, b := range bias {
			row[i] += b
		}
	}
}

// rotate fills wRot with the weights of the transposed convolution that
// maps output gradients to input gradients: wRot[ky][kx][out][in] =
// wt[k-1-ky][k-1-kx][in][out].
func (c *conv) rotate(wt []float32) []float32 {
	if len(c.wRot) != len(wt) {
		c.wRot = make([]float32, len(wt))
	}
	k := c.k
	for ky := 0; ky < k; ky++ {
		for kx := 0; kx < k; kx++ {
			src := wt[((k-1-ky)*k+(k-1-kx))*c.cin*c.cout:]
			dst := c.wRot[(ky*k+kx)*c.cout*c.cin:]
			for i := 0; i < c.cin; i++ {
				for o := 0; o < c.cout; o++ {
					dst[o*c.cin+i] = src[i*c.cout+o]
				}
			}
		}
	}
	return c.wRot
}

// backward computes the weight gradient dw (overwritten) and, if dx is not
// nil, the input gradient dx (overwritten), from the output gradient dy.
func (c *conv) backward(x, wt, dy, dx, dw []float32, n int) {
	hw := c.h * c.w
	kk := c.k * c.k * c.cin
	c.prepare()
	workers := min(c.threads, n*hw)
	if c.k == 1 {
		parallel(c.threads, n*hw, func(worker, lo, hi int) {
			gemm(true, false, c.cin, c.cout, hi-lo, 1, x[lo*c.cin:], c.cin, dy[lo*c.cout:], c.cout, 0, c.dwPart[worker], c.cout)
			if dx != nil {
				gemm(false, true, hi-lo, c.cin, c.cout, 1, dy[lo*c.cout:], c.cout, wt, c.cout, 0, dx[lo*c.cin:], c.cin)
			}
		})
	} else {
		var wRot []float32
		if dx != nil {
			wRot = c.rotate(wt)
		}
		kd := c.k * c.k * c.cout
		workers = min(c.threads, n)
		parallel(c.threads, n, func(worker, lo, hi int) {
			part := c.dwPart[worker]
			clear(part)
			for b := lo; b < hi; b += chunkImages {
				nb := min(chunkImages, hi-b)
				size := nb * hw * max(kk, kd)
				col := c.scratch(worker, size)
				im2col(x, c.h, c.w, c.cin, c.k, b, nb, col)
				gemm(true, false, kk, c.cout, nb*hw, 1, col, kk, dy[b*hw*c.cout:], c.cout, 1, part, c.cout)
				if dx != nil {
					im2col(dy, c.h, c.w, c.cout, c.k, b, nb, col)
					gemm(false, false, nb*hw, c.cin, kd, 1, col, kd, wRot, c.cin, 0, dx[b*hw*c.cin:], c.cin)
				}
			}
		})
	}
	copy(dw, c.dwPart[0])
	for _, p := range c.dwPart[1:workers] {
		for i, v := range p {
			dw[i] += v
		}
	}
}

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

func residualRows(r []float32, lo, hi int) []float32 {
	if r == nil {
		return nil
	}
	return r[lo:hi]
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

// globalBias adds, to every square, a dense layer of the per-channel mean
// over the board: y = x + mean_hw(x) @ wg (KataGo-style global pooling).
type globalBias struct {
	hw, c   int
	threads int
	mean    []float32 // n x c
	bias    []float32 // n x c
	dbias   []float32
	dmean   []float32
}

func (g *globalBias) forward(x, wg, y []float32, n int) {
	g.mean = resize(g.mean, n*g.c)
	g.bias = resize(g.bias, n*g.c)
	meanPool(x, g.mean, n, g.hw, g.c)
	gemm(false, false, n, g.c, g.c, 1, g.mean, g.c, wg, g.c, 0, g.bias, g.c)
	parallel(g.threads, n, func(_, lo, hi int) {
		for b := lo; b < hi; b++ {
			bb := g.bias[b*g.c : (b+1)*g.c]
			for s := 0; s < g.hw; s++ {
				o := (b*g.hw + s) * g.c
				xr, yr := x[o:o+g.c], y[o:o+g.c]
				for i, v := range xr {
					yr[i] = v + bb[i]
				}
			}
		}
	})
}

// backward: dx = dy + broadcast(dbias @ wg^T / hw), dwg = mean^T @ dbias,
// with dbias = sum over squares of dy.
func (g *globalBias) backward(wg, dy, dx, dwg []float32, n int) {
	g.dbias = resize(g.dbias, n*g.c)
	dbias := g.dbias
	sumPool(dy, dbias, n, g.hw, g.c)
	gemm(true, false, g.c, g.c, n, 1, g.mean, g.c, dbias, g.c, 0, dwg, g.c)
	g.dmean = resize(g.dmean, n*g.c)
	gemm(false, true, n, g.c, g.c, 1/float32(g.hw), dbias, g.c, wg, g.c, 0, g.dmean, g.c)
	parallel(g.threads, n, func(_, lo, hi int) {
		for b := lo; b < hi; b++ {
			dm := g.dmean[b*g.c : (b+1)*g.c]
			for s := 0; s < g.hw; s++ {
				o := (b*g.hw + s) * g.c
				dyr, dxr := dy[o:o+g.c], dx[o:o+g.c]
				for i, v := range dyr {
					dxr[i] = v + dm[i]
				}
			}
		}
	})
}

func resize(a []float32, n int) []float32 {
	if cap(a) < n {
		return make([]float32, n)
	}
	return a[:n]
}

// sumPool writes the per-channel sum over the board of each image.
func sumPool(x, out []float32, n, hw, c int) {
	for b := 0; b < n; b++ {
		o := out[b*c : (b+1)*c]
		clear(o)
		for s := 0; s < hw; s++ {
			row := x[(b*hw+s)*c:][:c]
			for i, v := range row {
				o[i] += v
			}
		}
	}
}

// meanPool writes the per-channel mean over the board of each image.
func meanPool(x, out []float32, n, hw, c int) {
	sumPool(x, out, n, hw, c)
	inv := 1 / float32(hw)
	for i := range out[:n*c] {
		out[i] *= inv
	}
}

// meanMaxPool writes [mean, max] per channel (n x 2c) and remembers the
// square of each maximum.
func meanMaxPool(x, out []float32, argmax []int32, n, hw, c int) {
	inv := 1 / float32(hw)
	for b := 0; b < n; b++ {
		mean, mx := out[b*2*c:][:c], out[b*2*c+c:][:c]
		am := argmax[b*c : (b+1)*c]
		clear(mean)
		for i := range mx {
			mx[i] = float32(math.Inf(-1))
		}
		for s := 0; s < hw; s++ {
			row := x[(b*hw+s)*c:][:c]
			for i, v := range row {
				mean[i] += v
				if v > mx[i] {
					mx[i], am[i] = v, int32(s)
				}
			}
		}
		for i := range mean {
			mean[i] *= inv
		}
	}
}

// meanMaxPoolBackward writes dx (overwritten) from the gradient of the
// pooled [mean, max] features.
func meanMaxPoolBackward(dout, dx []float32, argmax []int32, n, hw, c int) {
	inv := 1 / float32(hw)
	for b := 0; b < n; b++ {
		dmean, dmax := dout[b*2*c:][:c], dout[b*2*c+c:][:c]
		for s := 0; s < hw; s++ {
			row := dx[(b*hw+s)*c:][:c]
			for i := range row {
				row[i] = dmean[i] * inv
			}
		}
		for i, s := range argmax[b*c : (b+1)*c] {
			dx[(b*hw+int(s))*c+i] += dmax[i]
		}
	}
}

// dense computes y = x @ w + bias (n x out), with ReLU if relu is set.
func dense(x, w, bias, y []float32, n, in, out int, relu bool) {
	gemm(false, false, n, out, in, 1, x, in, w, out, 0, y, out)
	addBias(y[:n*out], bias)
	if relu {
		for i, v := range y[:n*out] {
			if v < 0 {
				y[i] = 0
			}
		}
	}
}

// denseBackward computes dw, db (overwritten) and dx (overwritten, if not
// nil) from dy; y is the layer's output (for the ReLU mask), which dy is
// masked by in place when relu is set.
func denseBackward(x, w, y, dy, dx, dw, db []float32, n, in, out int, relu bool) {
	if relu {
		for i, v := range y[:n*out] {
			if v <= 0 {
				dy[i] = 0
			}
		}
	}
	gemm(true, false, in, out, n, 1, x, in, dy, out, 0, dw, out)
	clear(db)
	for r := 0; r < n; r++ {
		for i, v := range dy[r*out : (r+1)*out] {
			db[i] += v
		}
	}
	if dx != nil {
		gemm(false, true, n, in, out, 1, dy, out, w, out, 0, dx, in)
	}
}

// toNHWC transposes n planes-major inputs (C x HW each) into NHWC rows.
func toNHWC(threads int, src, dst []float32, n, c, hw int) {
	parallel(threads, n, func(_, lo, hi int) {
		for b := lo; b < hi; b++ {
			s := src[b*c*hw : (b+1)*c*hw]
			d := dst[b*c*hw : (b+1)*c*hw]
			for ch := 0; ch < c; ch++ {
				plane := s[ch*hw : (ch+1)*hw]
				for sq, v := range plane {
					d[sq*c+ch] = v
				}
			}
		}
	})
}
