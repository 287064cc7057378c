package sgemm

// packB packs the kc x nc block of op(B) at row pc, column jc into dst as
// consecutive panels of nr columns: panel q holds op(B)[pc+p][jc+q*nr+j] at
// q*nr*kc + p*nr + j, zero-padded to nr columns.
func packB(dst []float32, tB bool, b []float32, ldb, pc, jc, kc, nc, nr int) {
	for jr := 0; jr < nc; jr += nr {
		w := min(nr, nc-jr)
		panel := dst[jr*kc : (jr+nr)*kc]
		if !tB {
			for p := range kc {
				d := panel[p*nr : (p+1)*nr]
				copy(d, b[(pc+p)*ldb+jc+jr:][:w])
				clear(d[w:])
			}
			continue
		}
		// op(B)[p][j] = b[j*ldb+p]: transpose four columns at a time.
		if w < nr {
			clear(panel)
		}
		j := 0
		for ; j+4 <= w; j += 4 {
			s0 := b[(jc+jr+j)*ldb+pc:][:kc]
			s1 := b[(jc+jr+j+1)*ldb+pc:][:kc]
			s2 := b[(jc+jr+j+2)*ldb+pc:][:kc]
			s3 := b[(jc+jr+j+3)*ldb+pc:][:kc]
			for p := range kc {
				d := panel[p*nr+j:][:4]
				d[0], d[1], d[2], d[3] = s0[p], s1[p], s2[p], s3[p]
			}
		}
		for ; j < w; j++ {
			s := b[(jc+jr+j)*ldb+pc:][:kc]
			for p, v := range s {
				panel[p*nr+j] = v
			}
		}
	}
}

// packA packs the mcur x kc block of op(A) at row ic, column pc (mcur < mr:
// the last row block) into dst in the strided kernels' layout,
// op(A)[ic+i][pc+p] at p*mr + i, zero-padded to mr rows.
func packA(dst []float32, tA bool, a []float32, lda, ic, pc, mcur, kc, mr int) {
	d := dst[:kc*mr]
	clear(d)
	if tA {
		for p := range kc {
			copy(d[p*mr:p*mr+mcur], a[(pc+p)*lda+ic:])
		}
		return
	}
	for i := range mcur {
		for p, v := range a[(ic+i)*lda+pc:][:kc] {
			d[p*mr+i] = v
		}
	}
}

// mergeTile stores the top-left mcur x ncur part of the edge tile t (row
// stride nr) into c (row stride ldc): c = alpha*t + beta*c, without reading
// c when beta == 0.
func mergeTile(c []float32, ldc int, t []float32, nr, mcur, ncur int, alpha, beta float32) {
	for i := range mcur {
		cr := c[i*ldc:][:ncur]
		tr := t[i*nr:][:ncur]
		if beta == 0 {
			for j, v := range tr {
				cr[j] = alpha * v
			}
			continue
		}
		for j, v := range tr {
			cr[j] = alpha*v + beta*cr[j]
		}
	}
}

// scaleC sets the m x n matrix c to beta*c (to zero when beta == 0, whatever
// c held).
func scaleC(m, n int, beta float32, c []float32, ldc int) {
	if beta == 1 {
		return
	}
	for i := range m {
		row := c[i*ldc:][:n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}
