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
	fs := newFlagSet("bench", "bench -what infer|train -preset small [-blocks B -filters F] -variant chu -batch N -seconds S", stderr)
	what := fs.String("what", "infer", "what to measure: infer (batched forward passes) or train (training steps)")
	preset := fs.String("preset", "small", "network preset: tiny, small, medium or large")
	blocks := fs.Int("blocks", 0, "override the preset's residual blocks")
	filters := fs.Int("filters", 0, "override the preset's filters (and head widths)")
	variant := fs.String("variant", "chu", "game: chu, sho or heian")
	batch := fs.Int("batch", 32, "positions per batch")
	seconds := fs.Float64("seconds", 10, "how long to measure (after one warm-up batch)")
	peakFlag := fs.Float64("peak-gflops", 0, "the machine's fp32 peak in GFLOP/s (default: measured with an FMA-only loop on every core)")
	optimizer := fs.String("optimizer", "adam", "train: adam or sgd")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "chuzero bench: %v\n", err)
		return 1
	}
	v, err := rules.ParseVariant(*variant)
	if err != nil {
		return fail(err)
	}
	cfg, err := model.Preset(*preset)
	if err != nil {
		return fail(err)
	}
	if *blocks > 0 {
		cfg.Blocks = *blocks
	}
	if *filters > 0 {
		cfg.Filters, cfg.PolicyFilters = *filters, *filters
	}
	if *batch < 1 || *seconds <= 0 {
		return fail(fmt.Errorf("batch and seconds must be positive"))
	}
	spec := encode.MustSpec(v, encode.DefaultOptions())
	w, err := model.NewWeights(cfg, spec, 1)
	if err != nil {
		return fail(err)
	}
	b, err := model.RandomBatch(spec, *batch, 1)
	if err != nil {
		return fail(err)
	}
	fwd := cfg.ForwardFLOPs(spec)
	var step func() error
	flopsPerPos := fwd
	switch *what {
	case "infer":
		net := model.NewNet(w)
		ws := net.NewWorkspace(*batch)
		step = func() error { return net.Forward(ws, b.Planes, *batch) }
	case "train":
		kind, err := model.ParseOptimizer(*optimizer)
		if err != nil {
			return fail(err)
		}
		tc := model.DefaultTrainConfig()
		tc.Batch, tc.Optimizer = *batch, kind
		tr, err := model.NewTrainer(w, tc)
		if err != nil {
			return fail(err)
		}
		defer tr.Close()
		step = func() error { _, err := tr.Step(b, 1e-4); return err }
		flopsPerPos = 3 * fwd // backward ~ twice the forward
	default:
		return fail(fmt.Errorf("unknown -what %q (want infer or train)", *what))
	}
	var peak model.Peak
	if *peakFlag > 0 {
		peak.GFLOPS, peak.Explain = *peakFlag, "given with -peak-gflops"
	} else {
		peak = model.MeasurePeak(time.Second)
	}
	fmt.Fprintf(stdout, "bench %s: %s %s (%d params), %s, batch %d, BLAS %s, GOMAXPROCS %d\n",
		*what, *preset, cfg, w.NumParams(), v, *batch, model.BLAS, runtime.GOMAXPROCS(0))
	fmt.Fprintf(stdout, "work: %.1f MFLOP per position (%s)\n", flopsPerPos/1e6, map[string]string{
		"infer": "forward", "train": "3x forward: forward + backward"}[*what])
	if err := step(); err != nil { // warm-up: allocates the buffers
		return fail(err)
	}
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	start := time.Now()
	steps := 0
	for steps == 0 || time.Since(start).Seconds() < *seconds {
		if err := step(); err != nil {
			return fail(err)
		}
		steps++
	}
	el := time.Since(start).Seconds()
	runtime.ReadMemStats(&ms1)
	pps := float64(steps**batch) / el
	gflops := pps * flopsPerPos / 1e9
	fmt.Fprintf(stdout, "%d batches in %.2f s: %.1f ms per batch, %.0f bytes and %.0f allocations per batch\n",
		steps, el, 1000*el/float64(steps), float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(steps),
		float64(ms1.Mallocs-ms0.Mallocs)/float64(steps))
	fmt.Fprintf(stdout, "peak: %.1f GFLOP/s fp32 = %s\n", peak.GFLOPS, peak.Explain)
	fmt.Fprintf(stdout, "achieved: %.1f GFLOP/s = %.1f%% of peak\n", gflops, 100*gflops/peak.GFLOPS)
	fmt.Fprintf(stdout, "%.1f\n", pps)
	return 0
}
