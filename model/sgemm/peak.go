package sgemm

import (
	"sync"
	"time"
)

// PeakGFLOPS measures the machine's float32 multiply-add peak: goroutines
// run a loop of independent vector FMAs (the widest the CPU has: AVX-512 or
// AVX2), nothing else, for about d, and the FLOPs done per second are
// returned. It returns 0 where no FMA loop exists (no AVX2, or the purego
// build). Turbo clocks count: this is what the cores actually sustain.
func PeakGFLOPS(goroutines int, d time.Duration) float64 {
	if fmaLoop(1) == 0 {
		return 0
	}
	const chunk = 1 << 18
	var wg sync.WaitGroup
	flops := make([]float64, goroutines)
	start := time.Now()
	for i := 0; i < goroutines; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Since(start) < d {
				flops[i] += fmaLoop(chunk)
			}
		}()
	}
	wg.Wait()
	el := time.Since(start).Seconds()
	var total float64
	for _, f := range flops {
		total += f
	}
	return total / el / 1e9
}
