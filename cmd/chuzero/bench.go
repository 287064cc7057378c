package main

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"chuzero/model"
	"chuzero/rules"
)

func init() {
	register(command{name: "bench", summary: "measure network inference or training speed", run: runBench})
}

// runBench implements
//
//	chuzero bench -what infer|train -preset small|medium|... [-blocks B -filters F] -variant chu -batch N -seconds S
//
// It prints the achieved GFLOP/s and percent of the machine's fp32 peak;
// its last line is the bare positions-per-second figure.
func runBench(args []string, stdout, stderr io.Writer) int {
	o, code, done := parseBenchFlags(args, stderr)
	if done {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "chuzero bench: %v\n", err)
		return 1
	}
	bc, err := o.config()
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "bench %s: %s %s, %s, batch %d, BLAS %s, GOMAXPROCS %d\n",
		o.what, o.preset, bc.Net, bc.Variant, o.batch, model.BLAS, runtime.GOMAXPROCS(0))
	r, err := model.Bench(bc)
	if err != nil {
		return fail(err)
	}
	peak := benchPeak(o.peak)
	fmt.Fprintf(stdout, "work: %.1f MFLOP per position (%s), %d params\n", r.FLOPsPerPos/1e6, map[string]string{
		"infer": "forward", "train": "3x forward: forward + backward"}[o.what], r.Params)
	gflops := r.GFLOPS(o.batch)
	fmt.Fprintf(stdout, "%d batches in %.2f s: %.1f ms per batch, %.0f bytes and %.0f allocations per batch\n",
		r.Batches, r.Seconds, 1000*r.Seconds/float64(r.Batches), r.BytesPerBatch, r.AllocsPerBatch)
	fmt.Fprintf(stdout, "peak: %.1f GFLOP/s fp32 = %s\n", peak.GFLOPS, peak.Explain)
	fmt.Fprintf(stdout, "achieved: %.1f GFLOP/s = %.1f%% of peak\n", gflops, 100*gflops/peak.GFLOPS)
	fmt.Fprintf(stdout, "%.1f\n", r.PositionsPerSecond(o.batch))
	return 0
}

// benchOptions are the flags of "chuzero bench".
type benchOptions struct {
	what, preset, variant, optimizer string
	blocks, filters, batch           int
	seconds                          float64
	peak                             float64 // GFLOP/s; 0: measure
}

// parseBenchFlags parses the arguments of "chuzero bench". It returns done
// with the exit status when the command should stop (help or a flag error).
func parseBenchFlags(args []string, stderr io.Writer) (o benchOptions, code int, done bool) {
	fs := newFlagSet("bench", "bench -what infer|train -preset small [-blocks B -filters F] -variant chu -batch N -seconds S", stderr)
	fs.StringVar(&o.what, "what", "infer", "what to measure: infer (batched forward passes) or train (training steps)")
	fs.StringVar(&o.preset, "preset", "small", "network preset: tiny, small, medium or large")
	fs.IntVar(&o.blocks, "blocks", 0, "override the preset's residual blocks")
	fs.IntVar(&o.filters, "filters", 0, "override the preset's filters (and head widths)")
	fs.StringVar(&o.variant, "variant", "chu", "game: chu, sho or heian")
	fs.IntVar(&o.batch, "batch", 32, "positions per batch")
	fs.Float64Var(&o.seconds, "seconds", 10, "how long to measure (after one warm-up batch)")
	fs.Float64Var(&o.peak, "peak-gflops", 0, "the machine's fp32 peak in GFLOP/s (default: measured with an FMA-only loop on every core)")
	fs.StringVar(&o.optimizer, "optimizer", "adam", "train: adam or sgd")
	code, done = parseFlags(fs, args)
	return o, code, done
}

// config returns the measurement the flags describe.
func (o *benchOptions) config() (model.BenchConfig, error) {
	v, err := rules.ParseVariant(o.variant)
	if err != nil {
		return model.BenchConfig{}, err
	}
	cfg, err := model.Preset(o.preset)
	if err != nil {
		return model.BenchConfig{}, err
	}
	return model.BenchConfig{What: o.what, Variant: v, Net: cfg.Override(o.blocks, o.filters, 0), Batch: o.batch,
		Seconds: o.seconds, Optimizer: o.optimizer}, nil
}

// benchPeak is the machine's fp32 peak: given (GFLOP/s) if positive, else
// measured for a second.
func benchPeak(given float64) model.Peak {
	if given > 0 {
		return model.Peak{GFLOPS: given, Explain: "given with -peak-gflops"}
	}
	return model.MeasurePeak(time.Second)
}
