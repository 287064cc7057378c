//go:build openblas

package model

// #cgo LDFLAGS: -lopenblas
// void openblas_set_num_threads(int);
import "C"

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/netlib/blas/netlib"
	G "gorgonia.org/gorgonia"
)

// With the openblas build tag (Debian: apt-get install libopenblas-dev),
// matrix multiplies go to OpenBLAS, one thread per call: the model runs
// one goroutine per core itself. Gorgonia's own ops (used by the reference
// graph) use it too.
func init() {
	C.openblas_set_num_threads(1)
	gemm = openblasGemm
	BLAS = "openblas (cgo)"
	G.Use(netlib.Implementation{})
}

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

func openblasGemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	netlib.Implementation{}.Sgemm(trans(tA), trans(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
