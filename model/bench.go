package model

import (
	"fmt"
	"runtime"
	"time"

	"chuzero/encode"
	"chuzero/rules"
)

// BenchConfig is a throughput measurement of a network on random weights
// and positions ("chuzero bench").
type BenchConfig struct {
	What      string // "infer" (batched forward passes) or "train" (training steps)
	Variant   rules.VariantID
	Net       Config
	Batch     int     // positions per batch
	Seconds   float64 // how long to measure, after one warm-up batch
	Optimizer string  // train: adam or sgd
}

// BenchResult is what a bench measured.
type BenchResult struct {
	Params      int     // the network's parameters
	FLOPsPerPos float64 // of one position through one step (train: 3x forward)
	Batches     int
	Seconds     float64
	// BytesPerBatch and AllocsPerBatch are the heap bytes and allocations
	// of one batch on average.
	BytesPerBatch, AllocsPerBatch float64
}

// PositionsPerSecond is the throughput.
func (r BenchResult) PositionsPerSecond(batch int) float64 {
	return float64(r.Batches*batch) / r.Seconds
}

// GFLOPS is the arithmetic rate achieved.
func (r BenchResult) GFLOPS(batch int) float64 {
	return r.PositionsPerSecond(batch) * r.FLOPsPerPos / 1e9
}

// Bench builds the network of c and measures c.What for c.Seconds (at
// least one batch) after a warm-up batch that allocates the buffers.
func Bench(c BenchConfig) (BenchResult, error) {
	if c.Batch < 1 || c.Seconds <= 0 {
		return BenchResult{}, fmt.Errorf("model: bench batch and seconds must be positive")
	}
	spec := encode.MustSpec(c.Variant, encode.DefaultOptions())
	w, err := NewWeights(c.Net, spec, 1)
	if err != nil {
		return BenchResult{}, err
	}
	b, err := RandomBatch(spec, c.Batch, 1)
	if err != nil {
		return BenchResult{}, err
	}
	r := BenchResult{Params: w.NumParams(), FLOPsPerPos: c.Net.ForwardFLOPs(spec)}
	var step func() error
	switch c.What {
	case "infer":
		net := NewNet(w)
		ws := net.NewWorkspace(c.Batch)
		step = func() error { return net.Forward(ws, b.Planes, c.Batch) }
	case "train":
		kind, err := ParseOptimizer(c.Optimizer)
		if err != nil {
			return r, err
		}
		tc := DefaultTrainConfig()
		tc.Batch, tc.Optimizer = c.Batch, kind
		tr, err := NewTrainer(w, tc)
		if err != nil {
			return r, err
		}
		defer tr.Close()
		step = func() error { _, err := tr.Step(b, 1e-4); return err }
		r.FLOPsPerPos *= 3 // backward ~ twice the forward
	default:
		return r, fmt.Errorf("model: unknown bench %q (want infer or train)", c.What)
	}
	if err := step(); err != nil {
		return r, err
	}
	return r, measure(&r, step, c.Seconds)
}

// measure calls step for at least seconds (and at least once) into r.
func measure(r *BenchResult, step func() error, seconds float64) error {
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	start := time.Now()
	for r.Batches == 0 || time.Since(start).Seconds() < seconds {
		if err := step(); err != nil {
			return err
		}
		r.Batches++
	}
	r.Seconds = time.Since(start).Seconds()
	runtime.ReadMemStats(&ms1)
	n := float64(r.Batches)
	r.BytesPerBatch, r.AllocsPerBatch = float64(ms1.TotalAlloc-ms0.TotalAlloc)/n, float64(ms1.Mallocs-ms0.Mallocs)/n
	return nil
}
