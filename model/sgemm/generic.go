package sgemm

import "unsafe"

// implGeneric is the pure-Go implementation, for CPUs without AVX2 and FMA
// and for other architectures.
var implGeneric = &impl{name: "generic", mr: 4, nr: 4, rows: genericRows, strided: genericStrided}

// genericRows is the 4x4 pure-Go micro-kernel with A(i,p) = a[i*lda+p].
func genericRows(kc int, a *float32, lda int, b *float32, c *float32, ldc int, alpha, beta float32) {
	genericTile(kc, a, lda, 1, b, c, ldc, alpha, beta)
}

// genericStrided is the 4x4 pure-Go micro-kernel with A(i,p) = a[p*lda+i].
func genericStrided(kc int, a *float32, lda int, b *float32, c *float32, ldc int, alpha, beta float32) {
	genericTile(kc, a, 1, lda, b, c, ldc, alpha, beta)
}

// genericTile computes the 4x4 tile C = alpha*A*B + beta*C with
// A(i,p) = a[i*rs+p*cs] and B the packed kc x 4 panel b, as two 4x2 halves
// so that the accumulators fit in the registers.
func genericTile(kc int, a *float32, rs, cs int, b *float32, c *float32, ldc int, alpha, beta float32) {
	genericHalf(kc, a, rs, cs, b, c, ldc, alpha, beta)
	genericHalf(kc, a, rs, cs, (*float32)(unsafe.Add(unsafe.Pointer(b), 8)), (*float32)(unsafe.Add(unsafe.Pointer(c), 8)), ldc, alpha, beta)
}

// genericHalf computes the 4x2 tile C = alpha*A*B + beta*C with
// A(i,p) = a[i*rs+p*cs] and B(p,j) = b[4*p+j].
func genericHalf(kc int, a *float32, rs, cs int, b *float32, c *float32, ldc int, alpha, beta float32) {
	var c00, c01, c10, c11, c20, c21, c30, c31 float32
	bs := unsafe.Slice(b, 4*kc-2)
	r := uintptr(rs) * 4
	ap := unsafe.Pointer(a)
	for p := range kc {
		q := unsafe.Add(ap, uintptr(p*cs)*4)
		a0 := *(*float32)(q)
		a1 := *(*float32)(unsafe.Add(q, r))
		a2 := *(*float32)(unsafe.Add(q, 2*r))
		a3 := *(*float32)(unsafe.Add(q, 3*r))
		bp := bs[4*p : 4*p+2 : 4*p+2]
		b0, b1 := bp[0], bp[1]
		c00 += a0 * b0
		c01 += a0 * b1
		c10 += a1 * b0
		c11 += a1 * b1
		c20 += a2 * b0
		c21 += a2 * b1
		c30 += a3 * b0
		c31 += a3 * b1
	}
	cp := unsafe.Pointer(c)
	rc := uintptr(ldc) * 4
	storeRow2((*[2]float32)(cp), c00, c01, alpha, beta)
	storeRow2((*[2]float32)(unsafe.Add(cp, rc)), c10, c11, alpha, beta)
	storeRow2((*[2]float32)(unsafe.Add(cp, 2*rc)), c20, c21, alpha, beta)
	storeRow2((*[2]float32)(unsafe.Add(cp, 3*rc)), c30, c31, alpha, beta)
}

// storeRow2 sets row = alpha*(x0, x1) + beta*row, not reading row when
// beta == 0.
func storeRow2(row *[2]float32, x0, x1, alpha, beta float32) {
	if beta == 0 {
		row[0], row[1] = alpha*x0, alpha*x1
		return
	}
	row[0] = alpha*x0 + beta*row[0]
	row[1] = alpha*x1 + beta*row[1]
}
