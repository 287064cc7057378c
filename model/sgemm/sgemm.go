package sgemm

import (
	"sync"
	"unsafe"
)

// Gemm computes C = alpha*op(A)*op(B) + beta*C for row-major matrices, where
// op(X) is X or its transpose. op(A) is m x k, op(B) is k x n, C is m x n.
// lda, ldb, ldc are the row strides (in elements) of A, B and C as stored.
// beta == 0 means C is overwritten (its old contents, even NaN, are ignored).
// It panics on impossible dimensions/strides/short slices, like gonum's blas.
func Gemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	active.gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Kernel reports which implementation Gemm uses: "avx512", "avx2" or "generic".
func Kernel() string { return active.name }

// microKernel computes the mr x nr tile C = alpha*A*B + beta*C (C, with row
// stride ldc, is not read when beta == 0). B is a packed panel: kc rows of nr
// contiguous floats. A(i,p) is a[i*lda+p] for the rows kernel and
// a[p*lda+i] for the strided kernel, for i < mr and p < kc.
type microKernel func(kc int, a *float32, lda int, b *float32, c *float32, ldc int, alpha, beta float32)

// impl is one implementation of Gemm: a register block size and its two
// micro-kernels.
type impl struct {
	name    string
	mr, nr  int
	rows    microKernel
	strided microKernel
}

// active is the implementation Gemm uses, the fastest this machine runs. It
// is set once at initialization and only read afterwards.
var active = available()[0]

// Cache blocking. The packed block of op(B), kc x nc floats, should stay in
// the L2 cache while every row block of A streams past it.
const (
	ncMax = 1024 // widest block of columns of C
	kcMin = 128  // narrowest block of the reduction dimension
	kcMax = 2048 // widest block of the reduction dimension
)

// bBlockFloats is the size of the packed block of op(B): three quarters of
// the L2 cache (768 KiB with a 1 MiB L2), within [128 KiB, 2 MiB]. It is set
// once at initialization.
var bBlockFloats = min(max(l2Size()/4*3, 128<<10), 2<<20) / 4

// blocking returns the column block nc (a multiple of nr) and the reduction
// block kc for an n x k op(B), splitting both into near-equal blocks.
func blocking(n, k, nr int) (nc, kc int) {
	nc = roundUp(ceilDiv(n, ceilDiv(n, ncMax)), nr)
	kmax := min(max(kcMin, bBlockFloats/nc), kcMax)
	kc = ceilDiv(k, ceilDiv(k, kmax))
	return nc, kc
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

func roundUp(a, b int) int { return ceilDiv(a, b) * b }

// workspace holds the packing buffers of one Gemm call.
type workspace struct {
	b    []float32 // packed kc x nc block of op(B), in panels of nr columns
	a    []float32 // packed edge block of op(A): kc x mr, zero-padded
	tile []float32 // mr x nr edge tile of C
}

var workspaces = sync.Pool{New: func() any { return new(workspace) }}

// grow returns a 64-byte aligned slice of n floats, reusing s if it is big
// enough. The contents are unspecified.
func grow(s []float32, n int) []float32 {
	if cap(s) >= n {
		return s[:n]
	}
	const align = 64 / 4
	s = make([]float32, n+align)
	off := int(uintptr(unsafe.Pointer(&s[0]))%64) / 4
	off = (align - off) % align
	return s[off : off+n]
}

// gemm is Gemm with the implementation im. Loop order: column blocks of
// nc, then reduction blocks of kc (packing that block of op(B) once), then
// row blocks of mr (A read in place, or packed at the bottom edge), then
// tiles of nr columns. Tiles that overhang C go through ws.tile.
func (im *impl) gemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	checkArgs(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc)
	if m == 0 || n == 0 {
		return
	}
	if alpha == 0 || k == 0 {
		scaleC(m, n, beta, c, ldc)
		return
	}
	mr, nr := im.mr, im.nr
	nc, kc := blocking(n, k, nr)
	ws := workspaces.Get().(*workspace)
	ws.b = grow(ws.b, kc*min(nc, roundUp(n, nr)))
	ws.a = grow(ws.a, kc*mr)
	ws.tile = grow(ws.tile, mr*nr)
	for jc := 0; jc < n; jc += nc {
		ncur := min(nc, n-jc)
		for pc := 0; pc < k; pc += kc {
			kcur := min(kc, k-pc)
			bet := beta
			if pc > 0 {
				bet = 1
			}
			packB(ws.b, tB, b, ldb, pc, jc, kcur, ncur, nr)
			for ic := 0; ic < m; ic += mr {
				mcur := min(mr, m-ic)
				var ap *float32
				kern, stride := im.rows, lda
				switch {
				case mcur < mr:
					packA(ws.a, tA, a, lda, ic, pc, mcur, kcur, mr)
					ap, kern, stride = &ws.a[0], im.strided, mr
				case tA:
					ap, kern = &a[pc*lda+ic], im.strided
				default:
					ap = &a[ic*lda+pc]
				}
				for jr := 0; jr < ncur; jr += nr {
					bp := &ws.b[jr*kcur]
					ncr := min(nr, ncur-jr)
					if mcur == mr && ncr == nr {
						kern(kcur, ap, stride, bp, &c[ic*ldc+jc+jr], ldc, alpha, bet)
						continue
					}
					kern(kcur, ap, stride, bp, &ws.tile[0], nr, 1, 0)
					mergeTile(c[ic*ldc+jc+jr:], ldc, ws.tile, nr, mcur, ncr, alpha, bet)
				}
			}
		}
	}
	workspaces.Put(ws)
}

// Panic messages, as gonum's blas package words them.
const (
	mLT0     = "sgemm: m < 0"
	nLT0     = "sgemm: n < 0"
	kLT0     = "sgemm: k < 0"
	badLdA   = "sgemm: bad leading dimension of A"
	badLdB   = "sgemm: bad leading dimension of B"
	badLdC   = "sgemm: bad leading dimension of C"
	shortA   = "sgemm: insufficient length of a"
	shortB   = "sgemm: insufficient length of b"
	shortC   = "sgemm: insufficient length of c"
	overflow = "sgemm: matrix too large"
)

// checkArgs panics like gonum's Sgemm on impossible arguments. It also
// guarantees that every element the kernels touch is inside the slices.
func checkArgs(tA, tB bool, m, n, k, lenA, lda, lenB, ldb, lenC, ldc int) {
	switch {
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case k < 0:
		panic(kLT0)
	}
	rowsA, colsA := m, k
	if tA {
		rowsA, colsA = k, m
	}
	rowsB, colsB := k, n
	if tB {
		rowsB, colsB = n, k
	}
	switch {
	case lda < max(1, colsA):
		panic(badLdA)
	case ldb < max(1, colsB):
		panic(badLdB)
	case ldc < max(1, n):
		panic(badLdC)
	}
	if m == 0 || n == 0 {
		return
	}
	if needed(rowsA, colsA, lda) > lenA {
		panic(shortA)
	}
	if needed(rowsB, colsB, ldb) > lenB {
		panic(shortB)
	}
	if needed(m, n, ldc) > lenC {
		panic(shortC)
	}
}

// needed is the length a slice needs to hold a rows x cols matrix with row
// stride ld >= cols, or 0 for an empty one. It panics if that overflows.
func needed(rows, cols, ld int) int {
	if rows == 0 || cols == 0 {
		return 0
	}
	if rows-1 > (maxInt-cols)/ld {
		panic(overflow)
	}
	return (rows-1)*ld + cols
}

const maxInt = int(^uint(0) >> 1)
