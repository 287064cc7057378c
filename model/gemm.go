package model

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// gemm computes C = alpha*op(A)*op(B) + beta*C for row-major matrices
// (op(A) is m x k, op(B) is k x n). It is called from several goroutines at
// once, each on its own matrices, so implementations are single-threaded.
// The default is gonum's pure-Go BLAS; the openblas build tag switches to
// OpenBLAS through cgo (see blas_openblas.go).
var gemm = gonumGemm

// BLAS names the matrix-multiply implementation in use.
var BLAS = "gonum (pure Go)"

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

func gonumGemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gonum.Implementation{}.Sgemm(trans(tA), trans(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
