// Package sgemm is a single-threaded float32 general matrix multiply (SGEMM)
// in pure Go and Go assembly, for the convolutions of the network when no
// BLAS library is linked.
//
// [Gemm] computes C = alpha*op(A)*op(B) + beta*C on row-major matrices with
// the same conventions as gonum's blas32/Sgemm. It follows the
// GotoBLAS/BLIS structure: op(B) is packed into panels of NR columns (the
// packing absorbs the transpose of B), A is read in place in blocks of MR
// rows (rows at the matrix edge are packed and padded), and a
// register-blocked micro-kernel computes each MR x NR tile of C.
//
// The micro-kernel is chosen once at start-up from the CPU ([Kernel]):
//
//   - "avx512": a 12x32 tile in ZMM registers (AVX-512F; the OS must save
//     the ZMM state),
//   - "avx2": a 6x16 tile in YMM registers (AVX2 and FMA),
//   - "generic": a 4x4 tile in pure Go, also used on other architectures and
//     with the purego build tag.
//
// On one core of an AMD EPYC Zen 5 the avx512 kernel reaches about
// 200-250 GFLOP/s on the convolution shapes of the benchmarks, the avx2
// kernel about 110-130 and the generic one about 6.
//
// Gemm is safe for concurrent use; its packing buffers come from a
// sync.Pool, so steady-state calls do not allocate. It uses only the calling
// goroutine: to use several cores, split C into row blocks and call Gemm
// from several goroutines.
package sgemm

//go:generate go run gen.go
