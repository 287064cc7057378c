package model

import "chuzero/model/sgemm"

// gemm computes C = alpha*op(A)*op(B) + beta*C for row-major matrices
// (op(A) is m x k, op(B) is k x n). It is called from several goroutines at
// once, each on its own matrices, so implementations are single-threaded.
// The default is the pure-Go package sgemm (AVX-512 or AVX2 assembly where
// the CPU has it); the openblas build tag switches to OpenBLAS through cgo
// (blas_openblas.go).
var gemm = sgemm.Gemm

// BLAS names the matrix-multiply implementation in use.
var BLAS = "sgemm " + sgemm.Kernel() + " (pure Go)"
