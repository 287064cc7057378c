//go:build amd64 && !purego

package sgemm

// cpuid executes CPUID with the given EAX and ECX inputs.
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv reads extended control register XCR0. Only call it when CPUID
// reports OSXSAVE.
func xgetbv() (eax, edx uint32)

// The micro-kernels of kern_*_amd64.s (written by gen.go). Each computes the
// MR x NR tile C = alpha*A*B + beta*C, not reading C when beta == 0, with B a
// packed panel and A(i,p) = a[i*lda+p] (Rows) or a[p*lda+i] (Strided).

//go:noescape
func kernRowsAVX512(kc int, a *float32, lda int, b *float32, c *float32, ldc int, alpha, beta float32)

//go:noescape
func kernStridedAVX512(kc int, a *float32, lda int, b *float32, c *float32, ldc int, alpha, beta float32)

//go:noescape
func kernRowsAVX2(kc int, a *float32, lda int, b *float32, c *float32, ldc int, alpha, beta float32)

//go:noescape
func kernStridedAVX2(kc int, a *float32, lda int, b *float32, c *float32, ldc int, alpha, beta float32)

var (
	implAVX512 = &impl{name: "avx512", mr: 12, nr: 32, rows: kernRowsAVX512, strided: kernStridedAVX512}
	implAVX2   = &impl{name: "avx2", mr: 6, nr: 16, rows: kernRowsAVX2, strided: kernStridedAVX2}
)

// cpuFeatures reports whether the CPU and the OS support the AVX2+FMA and
// the AVX-512F kernels.
func cpuFeatures() (avx2, avx512 bool) {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false, false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const (
		fma     = 1 << 12
		osxsave = 1 << 27
		avx     = 1 << 28
	)
	if ecx1&(fma|osxsave|avx) != fma|osxsave|avx {
		return false, false
	}
	xcr0, _ := xgetbv()
	const (
		ymmState = 1<<1 | 1<<2        // SSE and AVX state
		zmmState = 1<<5 | 1<<6 | 1<<7 // opmask, ZMM0-15 upper halves, ZMM16-31
	)
	if xcr0&ymmState != ymmState {
		return false, false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	avx2 = ebx7&(1<<5) != 0
	avx512 = avx2 && ebx7&(1<<16) != 0 && xcr0&zmmState == zmmState
	return avx2, avx512
}

// l2Size returns the size in bytes of the L2 cache of one core, as CPUID
// leaf 0x80000006 reports it (AMD and Intel), or 1 MiB if it does not.
func l2Size() int {
	if maxExt, _, _, _ := cpuid(0x80000000, 0); maxExt >= 0x80000006 {
		if _, _, ecx, _ := cpuid(0x80000006, 0); ecx>>16 != 0 {
			return int(ecx>>16) << 10
		}
	}
	return 1 << 20
}

// available lists the implementations this machine can run, fastest first.
func available() []*impl {
	avx2, avx512 := cpuFeatures()
	var l []*impl
	if avx512 {
		l = append(l, implAVX512)
	}
	if avx2 {
		l = append(l, implAVX2)
	}
	return append(l, implGeneric)
}
