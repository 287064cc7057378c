package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"chuzero/checkpoints"
	"chuzero/checkpoints/atomicfile"
	"chuzero/encode"
	"chuzero/model"
	"chuzero/selfplay/probe"
	"chuzero/selfplay/training"
)

func init() {
	register(command{name: "probe", summary: "what a run's networks have learned: policy, value and capture-search agreement on held-out positions", run: runProbe})
}

// runProbe implements "chuzero probe -run DIR [CHECKPOINT...]".
func runProbe(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("probe", "probe -run DIR [-points N] [-positions N] [-every N] [-out FILE] [-json] [CHECKPOINT...]", stderr)
	dir := fs.String("run", "", "run directory (required)")
	points := fs.Int("points", 3, "without CHECKPOINT arguments: this many checkpoints spread evenly by step, the first and the latest among them")
	def := probe.DefaultConfig()
	positions := fs.Int("positions", def.Positions, "held-out positions to probe, at most (drawn evenly over the run's sample files)")
	every := fs.Int("every", def.Every, "take positions at every N-th ply of the held-out games")
	seed := fs.Uint64("seed", def.Seed, "seed of the draw of positions")
	threads := fs.Int("threads", 1, "goroutines a layer of the network")
	out := fs.String("out", "", "also write the table to this file (atomically)")
	asJSON := fs.Bool("json", false, "print the report as JSON instead of the table")
	if code, done := parseFlagsArgs(fs, args); done {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "chuzero probe: %v\n", err)
		return 1
	}
	if *dir == "" {
		fmt.Fprintln(stderr, "chuzero probe: -run DIR is required")
		return 2
	}
	run := checkpoints.RunAt(*dir, "")
	cfg, err := training.ReadConfig(run)
	if err != nil {
		return fail(fmt.Errorf("reading the run's config: %w", err))
	}
	pc, err := probeConfig(&cfg, run, def)
	if err != nil {
		return fail(err)
	}
	pc.Positions, pc.Every, pc.Seed = *positions, *every, *seed
	entries, err := probeEntries(run, fs.Args(), *points)
	if err != nil {
		return fail(err)
	}
	ctx, stop := signalContext(0)
	defer stop()
	rep, err := probe.Run(ctx, probe.Options{Samples: run.Samples(), Config: pc, Checkpoints: entries, Progress: stderr,
		Load: func(e checkpoints.Entry) (probe.Evaluator, *encode.Spec, error) {
			net, err := training.LoadNet(e, cfg.Variant)
			if err != nil {
				return nil, nil, err
			}
			return model.NewSingle(net, *threads), net.Spec, nil
		}})
	if err != nil {
		return fail(err)
	}
	var b bytes.Buffer
	if *asJSON {
		j, _ := json.MarshalIndent(rep, "", "  ")
		b.Write(append(j, '\n'))
	} else if err := rep.Write(&b); err != nil {
		return fail(err)
	}
	stdout.Write(b.Bytes())
	if *out != "" {
		if err := atomicfile.Write(*out, b.Bytes()); err != nil {
			return fail(err)
		}
	}
	return 0
}

// probeConfig is the probe set up as the run's search sets up its capture
// search, on the trainer's held-out games.
func probeConfig(cfg *training.Config, run checkpoints.Run, def probe.Config) (probe.Config, error) {
	sp, err := cfg.SelfPlayConfig(run)
	if err != nil {
		return def, err
	}
	lc, err := cfg.LoopConfig(run)
	if err != nil {
		return def, err
	}
	def.Search = sp.Search
	if lc.Replay.HoldOut > 0 {
		def.HeldOut = lc.Replay.HeldOut
	}
	return def, nil
}

// probeEntries resolves the checkpoint arguments, or spreads n over the
// run's checkpoints.
func probeEntries(run checkpoints.Run, refs []string, n int) ([]checkpoints.Entry, error) {
	st, err := checkpoints.Open(run.Checkpoints())
	if err != nil {
		return nil, err
	}
	if len(refs) == 0 {
		l, err := st.List()
		if err != nil {
			return nil, err
		}
		if len(l) == 0 {
			return nil, fmt.Errorf("no checkpoint in %s", run.Checkpoints())
		}
		return probe.Spread(l, n), nil
	}
	var out []checkpoints.Entry
	for _, r := range refs {
		e, err := st.Find(r)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}
