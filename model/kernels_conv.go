package model

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
