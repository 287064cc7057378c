//go:build amd64 && !purego

package sgemm

func fmaLoopAVX512(n int)

func fmaLoopAVX2(n int)

// fmaLoop runs n iterations of the widest FMA loop the CPU has and returns
// the FLOPs done, or 0 without FMA.
func fmaLoop(n int) float64 {
	avx2, avx512 := cpuFeatures()
	switch {
	case avx512:
		fmaLoopAVX512(n)
		return 384 * float64(n)
	case avx2:
		fmaLoopAVX2(n)
		return 192 * float64(n)
	}
	return 0
}
