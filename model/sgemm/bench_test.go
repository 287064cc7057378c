package sgemm

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchShapes are the convolution shapes Gemm is tuned for.
var benchShapes = []struct {
	name    string
	tA, tB  bool
	m, n, k int
	beta    float32
}{
	// Forward 3x3 convolutions: im2col patches times weights.
	{"NN/m4608_n64_k576", false, false, 4608, 64, 576, 0},
	{"NN/m4608_n128_k576", false, false, 4608, 128, 576, 0},
	{"NN/m4608_n256_k576", false, false, 4608, 256, 576, 0},
	{"NN/m36864_n64_k576", false, false, 36864, 64, 576, 0},
	{"NN/m4608_n128_k1152", false, false, 4608, 128, 1152, 0},
	{"NN/m4608_n256_k2304", false, false, 4608, 256, 2304, 0},
	// 1x1 convolutions.
	{"NN/m4608_n64_k64", false, false, 4608, 64, 64, 0},
	{"NN/m4608_n256_k256", false, false, 4608, 256, 256, 0},
	// Backward data: dY times W^T.
	{"NT/m4608_n576_k64", false, true, 4608, 576, 64, 0},
	// Backward weights: accumulate A^T B over the batch.
	{"TN/m576_n64_k4608", true, false, 576, 64, 4608, 1},
}

func BenchmarkGemm(b *testing.B) {
	for _, im := range available() {
		for _, s := range benchShapes {
			if im == implGeneric && s.m > 4608 {
				continue
			}
			b.Run(im.name+"/"+s.name, func(b *testing.B) {
				benchGemm(b, im, s.tA, s.tB, s.m, s.n, s.k, s.beta)
			})
		}
	}
}

// BenchmarkGemmSmall measures the per-call overhead on small products.
func BenchmarkGemmSmall(b *testing.B) {
	for _, im := range available() {
		for _, sz := range []int{8, 32, 100} {
			b.Run(fmt.Sprintf("%s/%d", im.name, sz), func(b *testing.B) {
				benchGemm(b, im, false, false, sz, sz, sz, 0)
			})
		}
	}
}

func benchGemm(b *testing.B, im *impl, tA, tB bool, m, n, k int, beta float32) {
	rng := rand.New(rand.NewPCG(1, 1))
	p := newProblem(rng, tA, tB, m, n, k, 0, 1, beta)
	if beta == 0 {
		clear(p.c)
	}
	for b.Loop() {
		im.gemm(tA, tB, m, n, k, 1, p.a, p.lda, p.b, p.ldb, beta, p.c, p.ldc)
	}
	b.ReportMetric(2*float64(m)*float64(n)*float64(k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
