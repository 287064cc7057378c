package model

import (
	"fmt"
	"runtime"
	"time"

	"chuzero/model/sgemm"
)

// Peak is the machine's float32 arithmetic peak and how it was found.
type Peak struct {
	GFLOPS  float64
	Explain string
}

// MeasurePeak measures the fp32 peak: one goroutine per core (GOMAXPROCS)
// runs nothing but independent vector FMAs (AVX-512 or AVX2) for about d;
// the FLOPs per second they achieve, turbo clocks included, is the peak.
// Where no such loop exists (no AVX2, purego builds) it falls back to
// cores x 8 FLOP/cycle x 2 GHz, saying so.
func MeasurePeak(d time.Duration) Peak {
	cores := runtime.GOMAXPROCS(0)
	if g := sgemm.PeakGFLOPS(cores, d); g > 0 {
		return Peak{GFLOPS: g, Explain: fmt.Sprintf("measured: %d cores running only %s FMA loops for %v (%.1f GFLOP/s per core)",
			cores, sgemm.Kernel(), d, g/float64(cores))}
	}
	g := float64(cores) * 8 * 2
	return Peak{GFLOPS: g, Explain: fmt.Sprintf("assumed: %d cores x 8 FLOP/cycle x 2 GHz (no FMA loop on this build)", cores)}
}
