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

func residualRows(r []float32, lo, hi int) []float32 {
	if r == nil {
		return nil
	}
	return r[lo:hi]
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
