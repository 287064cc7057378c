package main

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"chuzero/encode"
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
	v, cfg, err := o.netConfig()
	if err != nil {
		return fail(err)
	}
	w, err := newBenchWork(&o, v, cfg)
	if err != nil {
		return fail(err)
	}
	defer w.close()
	peak := benchPeak(o.peak)
	fmt.Fprintf(stdout, "bench %s: %s %s (%d params), %s, batch %d, BLAS %s, GOMAXPROCS %d\n",
		o.what, o.preset, cfg, w.weights.NumParams(), v, o.batch, model.BLAS, runtime.GOMAXPROCS(0))
	fmt.Fprintf(stdout, "work: %.1f MFLOP per position (%s)\n", w.flopsPerPos/1e6, map[string]string{
		"infer": "forward", "train": "3x forward: forward + backward"}[o.what])
	if err := w.step(); err != nil { // warm-up: allocates the buffers
		return fail(err)
	}
	r, err := measureBench(w.step, o.seconds)
	if err != nil {
		return fail(err)
	}
	pps := float64(r.steps*o.batch) / r.seconds
	gflops := pps * w.flopsPerPos / 1e9
	fmt.Fprintf(stdout, "%d batches in %.2f s: %.1f ms per batch, %.0f bytes and %.0f allocations per batch\n",
		r.steps, r.seconds, 1000*r.seconds/float64(r.steps), r.bytes, r.allocs)
	fmt.Fprintf(stdout, "peak: %.1f GFLOP/s fp32 = %s\n", peak.GFLOPS, peak.Explain)
	fmt.Fprintf(stdout, "achieved: %.1f GFLOP/s = %.1f%% of peak\n", gflops, 100*gflops/peak.GFLOPS)
	fmt.Fprintf(stdout, "%.1f\n", pps)
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

// netConfig returns the variant and the network configuration to measure.
func (o *benchOptions) netConfig() (rules.VariantID, model.Config, error) {
	v, err := rules.ParseVariant(o.variant)
	if err != nil {
		return v, model.Config{}, err
	}
	cfg, err := model.Preset(o.preset)
	if err != nil {
		return v, cfg, err
	}
	if o.blocks > 0 {
		cfg.Blocks = o.blocks
	}
	if o.filters > 0 {
		cfg.Filters, cfg.PolicyFilters = o.filters, o.filters
	}
	if o.batch < 1 || o.seconds <= 0 {
		return v, cfg, fmt.Errorf("batch and seconds must be positive")
	}
	return v, cfg, nil
}

// benchWork is what a bench repeats: one batch of -what on random
// weights and positions.
type benchWork struct {
	weights     *model.Weights
	step        func() error
	flopsPerPos float64 // of one position through step
	close       func()
}

// newBenchWork builds the network of cfg and the step -what measures.
func newBenchWork(o *benchOptions, v rules.VariantID, cfg model.Config) (benchWork, error) {
	spec := encode.MustSpec(v, encode.DefaultOptions())
	w := benchWork{close: func() {}}
	var err error
	if w.weights, err = model.NewWeights(cfg, spec, 1); err != nil {
		return w, err
	}
	b, err := model.RandomBatch(spec, o.batch, 1)
	if err != nil {
		return w, err
	}
	w.flopsPerPos = cfg.ForwardFLOPs(spec)
	switch o.what {
	case "infer":
		net := model.NewNet(w.weights)
		ws := net.NewWorkspace(o.batch)
		w.step = func() error { return net.Forward(ws, b.Planes, o.batch) }
	case "train":
		kind, err := model.ParseOptimizer(o.optimizer)
		if err != nil {
			return w, err
		}
		tc := model.DefaultTrainConfig()
		tc.Batch, tc.Optimizer = o.batch, kind
		tr, err := model.NewTrainer(w.weights, tc)
		if err != nil {
			return w, err
		}
		w.close = func() { tr.Close() }
		w.step = func() error { _, err := tr.Step(b, 1e-4); return err }
		w.flopsPerPos *= 3 // backward ~ twice the forward
	default:
		return w, fmt.Errorf("unknown -what %q (want infer or train)", o.what)
	}
	return w, nil
}

// benchPeak is the machine's fp32 peak: given (GFLOP/s) if positive, else
// measured for a second.
func benchPeak(given float64) model.Peak {
	if given > 0 {
		return model.Peak{GFLOPS: given, Explain: "given with -peak-gflops"}
	}
	return model.MeasurePeak(time.Second)
}

// benchResult is a timed run of steps: how many, their wall time and
// the heap bytes and allocations of one step on average.
type benchResult struct {
	steps         int
	seconds       float64
	bytes, allocs float64
}

// measureBench calls step for at least seconds (and at least once).
func measureBench(step func() error, seconds float64) (benchResult, error) {
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	start := time.Now()
	steps := 0
	for steps == 0 || time.Since(start).Seconds() < seconds {
		if err := step(); err != nil {
			return benchResult{}, err
		}
		steps++
	}
	el := time.Since(start).Seconds()
	runtime.ReadMemStats(&ms1)
	n := float64(steps)
	return benchResult{steps: steps, seconds: el, bytes: float64(ms1.TotalAlloc-ms0.TotalAlloc) / n,
		allocs: float64(ms1.Mallocs-ms0.Mallocs) / n}, nil
}
