package sgemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"
)

// forEachImpl runs f once for every implementation this machine can run.
func forEachImpl(t *testing.T, f func(t *testing.T, im *impl)) {
	for _, im := range available() {
		t.Run(im.name, func(t *testing.T) { f(t, im) })
	}
}

// problem is one Gemm call with its inputs, stored with padded strides.
type problem struct {
	tA, tB        bool
	m, n, k       int
	alpha, beta   float32
	a, b, c       []float32
	lda, ldb, ldc int
}

const padSentinel = 12345

// newProblem makes random inputs. Elements of A and B beyond the logical
// columns are NaN, so a kernel that reads them poisons C; those of C hold
// padSentinel, so a kernel that writes them is caught. When beta == 0, C
// starts as NaN.
func newProblem(rng *rand.Rand, tA, tB bool, m, n, k, pad int, alpha, beta float32) *problem {
	p := &problem{tA: tA, tB: tB, m: m, n: n, k: k, alpha: alpha, beta: beta}
	fill := func(rows, cols int, v func() float32, padV float32) ([]float32, int) {
		ld := max(1, cols+pad)
		s := make([]float32, max(0, rows*ld))
		for i := range rows {
			for j := range ld {
				if j < cols {
					s[i*ld+j] = v()
				} else {
					s[i*ld+j] = padV
				}
			}
		}
		return s, ld
	}
	rnd := func() float32 { return float32(rng.Float64()*2 - 1) }
	nan := float32(math.NaN())
	ra, ca := m, k
	if tA {
		ra, ca = k, m
	}
	rb, cb := k, n
	if tB {
		rb, cb = n, k
	}
	p.a, p.lda = fill(ra, ca, rnd, nan)
	p.b, p.ldb = fill(rb, cb, rnd, nan)
	cv := rnd
	if beta == 0 {
		cv = func() float32 { return nan }
	}
	p.c, p.ldc = fill(m, n, cv, padSentinel)
	return p
}

func (p *problem) opA(i, l int) float32 {
	if p.tA {
		return p.a[l*p.lda+i]
	}
	return p.a[i*p.lda+l]
}

func (p *problem) opB(l, j int) float32 {
	if p.tB {
		return p.b[j*p.ldb+l]
	}
	return p.b[l*p.ldb+j]
}

// run calls im's Gemm on a copy of C and returns it.
func (p *problem) run(im *impl) []float32 {
	c := slices.Clone(p.c)
	im.gemm(p.tA, p.tB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, c, p.ldc)
	return c
}

// check compares got with a float64 triple loop.
func (p *problem) check(t *testing.T, got []float32) {
	t.Helper()
	bad := 0
	for i := range p.m {
		for j := range p.ldc {
			idx := i*p.ldc + j
			if j >= p.n {
				if got[idx] != padSentinel {
					t.Fatalf("C[%d][%d] (padding) = %v, was overwritten", i, j, got[idx])
				}
				continue
			}
			var sum, mag float64
			if p.alpha != 0 {
				for l := range p.k {
					x := float64(p.opA(i, l)) * float64(p.opB(l, j))
					sum += x
					mag += math.Abs(x)
				}
			}
			want := float64(p.alpha) * sum
			mag *= math.Abs(float64(p.alpha))
			if p.beta != 0 {
				c0 := float64(p.beta) * float64(p.c[idx])
				want += c0
				mag += math.Abs(c0)
			}
			tol := 1e-5*float64(p.k+1)*mag + 1e-30
			if g := float64(got[idx]); !(math.Abs(g-want) <= tol) {
				if bad++; bad <= 5 {
					t.Errorf("C[%d][%d] = %v, want %v (tolerance %.3g)", i, j, g, want, tol)
				}
			}
		}
	}
	if bad > 5 {
		t.Errorf("... %d wrong elements in all", bad)
	}
}

type shape struct{ m, n, k int }

func TestGemmSmall(t *testing.T) {
	shapes := []shape{
		{1, 1, 1}, {1, 1, 7}, {2, 3, 4}, {5, 7, 3}, {4, 4, 4}, {6, 16, 8},
		{12, 32, 1}, {12, 32, 5}, {11, 31, 9}, {13, 33, 17}, {24, 64, 100},
		{7, 1, 50}, {1, 40, 30}, {37, 70, 13}, {25, 48, 2},
		{0, 5, 3}, {5, 0, 3}, {5, 3, 0}, {0, 0, 0},
	}
	scalars := []float32{0, 1, 0.5, -2}
	if testing.Short() || raceEnabled {
		scalars = []float32{0, -2}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	forEachImpl(t, func(t *testing.T, im *impl) {
		for _, s := range shapes {
			for _, tA := range []bool{false, true} {
				for _, tB := range []bool{false, true} {
					for _, alpha := range scalars {
						for _, beta := range scalars {
							pad := int(rng.IntN(3))
							p := newProblem(rng, tA, tB, s.m, s.n, s.k, pad, alpha, beta)
							name := fmt.Sprintf("tA=%v,tB=%v,m=%d,n=%d,k=%d,alpha=%v,beta=%v,pad=%d", tA, tB, s.m, s.n, s.k, alpha, beta, pad)
							t.Run(name, func(t *testing.T) { p.check(t, p.run(im)) })
						}
					}
				}
			}
		}
	})
}

func TestGemmLarge(t *testing.T) {
	type tc struct {
		shape
		alpha, beta float32
		pad         int
	}
	cases := []tc{
		{shape{145, 63, 577}, 1, 0, 3},
		{shape{145, 63, 577}, -2, 0.5, 0},
		{shape{50, 300, 577}, 0.5, 1, 1}, // several k blocks
		{shape{13, 1100, 20}, 1, -2, 2},  // several column blocks
		{shape{30, 40, 4100}, 1, 1, 0},   // several k blocks, small n
		{shape{288, 128, 576}, 1, 0, 0},  // the convolution shape, no edges
		{shape{96, 576, 64}, 1, 0, 5},    // backward data
		{shape{576, 64, 1200}, 1, 1, 0},  // backward weights, accumulating
	}
	if testing.Short() || raceEnabled {
		cases = cases[:2]
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range cases {
		for _, tA := range []bool{false, true} {
			for _, tB := range []bool{false, true} {
				p := newProblem(rng, tA, tB, c.m, c.n, c.k, c.pad, c.alpha, c.beta)
				name := fmt.Sprintf("tA=%v,tB=%v,m=%d,n=%d,k=%d", tA, tB, c.m, c.n, c.k)
				t.Run(name, func(t *testing.T) {
					forEachImpl(t, func(t *testing.T, im *impl) { p.check(t, p.run(im)) })
				})
			}
		}
	}
}

// TestImplsAgree checks the main convolution shapes by comparing the
// assembly kernels with the generic one, which is faster than the float64
// reference.
func TestImplsAgree(t *testing.T) {
	impls := available()
	if len(impls) == 1 {
		t.Skip("only the generic implementation runs here")
	}
	cases := []struct {
		tA, tB  bool
		m, n, k int
		beta    float32
	}{
		{false, false, 1152, 256, 576, 0},
		{false, false, 1152, 64, 2304, 0},
		{false, true, 1152, 576, 64, 0},
		{true, false, 576, 64, 4608, 1},
	}
	if testing.Short() || raceEnabled {
		cases = cases[:1]
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range cases {
		p := newProblem(rng, c.tA, c.tB, c.m, c.n, c.k, 0, 1, c.beta)
		want := p.run(implGeneric)
		for _, im := range impls[:len(impls)-1] {
			got := p.run(im)
			for i := range want {
				if d := math.Abs(float64(got[i] - want[i])); d > 1e-4*float64(c.k)*math.Max(1, math.Abs(float64(want[i]))) {
					t.Fatalf("%s %+v: C[%d] = %v, generic gives %v", im.name, c, i, got[i], want[i])
				}
			}
		}
	}
}

func TestKernel(t *testing.T) {
	got := Kernel()
	if got != available()[0].name || (got != "avx512" && got != "avx2" && got != "generic") {
		t.Fatalf("Kernel() = %q, available %v", got, available())
	}
	t.Logf("Kernel() = %q", got)
}

func TestGemmPublic(t *testing.T) {
	// 2x3 * 3x2, by hand.
	a := []float32{1, 2, 3, 4, 5, 6}
	b := []float32{7, 8, 9, 10, 11, 12}
	c := []float32{1, 1, 1, 1}
	Gemm(false, false, 2, 2, 3, 1, a, 3, b, 2, 1, c, 2)
	want := []float32{59, 65, 140, 155}
	if !slices.Equal(c, want) {
		t.Fatalf("Gemm = %v, want %v", c, want)
	}
}

func TestGemmPanics(t *testing.T) {
	s := make([]float32, 100)
	cases := []struct {
		name string
		want string
		f    func()
	}{
		{"m<0", mLT0, func() { Gemm(false, false, -1, 2, 2, 1, s, 2, s, 2, 0, s, 2) }},
		{"n<0", nLT0, func() { Gemm(false, false, 2, -1, 2, 1, s, 2, s, 2, 0, s, 2) }},
		{"k<0", kLT0, func() { Gemm(false, false, 2, 2, -1, 1, s, 2, s, 2, 0, s, 2) }},
		{"lda", badLdA, func() { Gemm(false, false, 2, 2, 3, 1, s, 2, s, 2, 0, s, 2) }},
		{"ldaT", badLdA, func() { Gemm(true, false, 4, 2, 3, 1, s, 3, s, 2, 0, s, 2) }},
		{"ldb", badLdB, func() { Gemm(false, false, 2, 3, 2, 1, s, 2, s, 2, 0, s, 3) }},
		{"ldbT", badLdB, func() { Gemm(false, true, 2, 2, 3, 1, s, 3, s, 2, 0, s, 2) }},
		{"ldc", badLdC, func() { Gemm(false, false, 2, 3, 2, 1, s, 2, s, 3, 0, s, 2) }},
		{"shortA", shortA, func() { Gemm(false, false, 10, 2, 10, 1, s[:99], 10, s, 2, 0, s, 2) }},
		{"shortB", shortB, func() { Gemm(false, true, 2, 10, 10, 1, s, 10, s[:99], 10, 0, s, 10) }},
		{"shortC", shortC, func() { Gemm(false, false, 10, 10, 2, 1, s, 2, s, 10, 0, s[:99], 10) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != c.want {
					t.Fatalf("panic %v, want %q", r, c.want)
				}
			}()
			c.f()
		})
	}
	// Empty matrices need no storage.
	Gemm(false, false, 0, 5, 5, 1, nil, 5, s, 5, 0, nil, 5)
	Gemm(true, true, 3, 0, 5, 1, s, 3, nil, 5, 0, nil, 1)
}

func TestGemmNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops buffers at random under the race detector")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}} {
		p := newProblem(rng, tr[0], tr[1], 61, 70, 300, 1, 1, 0.5)
		c := slices.Clone(p.c)
		f := func() { Gemm(p.tA, p.tB, p.m, p.n, p.k, 1, p.a, p.lda, p.b, p.ldb, 0.5, c, p.ldc) }
		f()
		if n := testing.AllocsPerRun(20, f); n != 0 {
			t.Errorf("transA=%v transB=%v: %v allocations per Gemm, want 0", p.tA, p.tB, n)
		}
	}
}

func TestGemmConcurrent(t *testing.T) {
	const workers = 4
	rng := rand.New(rand.NewPCG(9, 10))
	var probs []*problem
	var wants [][]float32
	for w := range workers {
		p := newProblem(rng, w%2 == 1, w/2 == 1, 37+w*11, 40+w*9, 50+w*20, w%2, 1, 0.5)
		probs = append(probs, p)
		wants = append(wants, p.run(active))
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			p := probs[w]
			for range 5 {
				c := slices.Clone(p.c)
				Gemm(p.tA, p.tB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, c, p.ldc)
				if !slices.Equal(c, wants[w]) {
					t.Errorf("worker %d: result differs from the single-threaded one", w)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestBlocking(t *testing.T) {
	t.Logf("L2 %d KiB, packed B block %d KiB", l2Size()>>10, bBlockFloats>>8)
	for _, c := range []struct{ n, k, nr int }{{64, 576, 32}, {256, 2304, 32}, {576, 64, 32}, {64, 4608, 16}, {5000, 5000, 4}, {1, 1, 32}} {
		nc, kc := blocking(c.n, c.k, c.nr)
		if nc < c.nr || nc%c.nr != 0 || nc > roundUp(ncMax, c.nr) || kc < 1 || kc > min(c.k, kcMax) {
			t.Errorf("blocking(%d, %d, %d) = %d, %d", c.n, c.k, c.nr, nc, kc)
		}
		t.Logf("n=%d k=%d nr=%d: nc=%d kc=%d", c.n, c.k, c.nr, nc, kc)
	}
}

// TestGemmScaleOnly checks that with alpha == 0 or k == 0 Gemm only scales C
// by beta, never reading A or B, and that beta == 0 clears even NaNs.
func TestGemmScaleOnly(t *testing.T) {
	nan := float32(math.NaN())
	a := slices.Repeat([]float32{nan}, 12)
	b := slices.Repeat([]float32{nan}, 12)
	for _, k := range []int{0, 3} {
		for _, beta := range []float32{0, 1, -2} {
			c := []float32{nan, 2, 3, nan, 4, 5, 6, nan} // ldc = 4
			alpha := float32(0)
			if k == 0 {
				alpha = 1
			}
			Gemm(false, false, 2, 3, k, alpha, a, 3, b, 3, beta, c, 4)
			want := []float32{beta * nan, beta * 2, beta * 3, nan, beta * 4, beta * 5, beta * 6, nan}
			if beta == 0 {
				want[0] = 0
			}
			for i := range c {
				if c[i] != want[i] && !(math.IsNaN(float64(c[i])) && math.IsNaN(float64(want[i]))) {
					t.Errorf("k=%d alpha=%v beta=%v: C = %v, want %v", k, alpha, beta, c, want)
					break
				}
			}
		}
	}
}

func TestPeakGFLOPS(t *testing.T) {
	p := PeakGFLOPS(1, 50*time.Millisecond)
	if Kernel() == "generic" {
		if p != 0 {
			t.Errorf("PeakGFLOPS = %v without an FMA kernel", p)
		}
		return
	}
	// a wide bound: the measurement is wall-clock, and a loaded CI machine
	// gives the loop a fraction of a core (9.9 GFLOP/s has been seen)
	if p < 0.1 || p > 10000 {
		t.Errorf("PeakGFLOPS(1) = %.1f, implausible", p)
	}
	t.Logf("one core: %.1f GFLOP/s", p)
}
