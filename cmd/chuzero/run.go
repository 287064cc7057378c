package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"chuzero/checkpoints"
	"chuzero/rules"
	"chuzero/selfplay"
	"chuzero/selfplay/training"
)

// runFlags are the flags shared by train, selfplay and trainer.
type runFlags struct {
	run         string
	config      string
	variant     string
	duration    time.Duration
	metricsAddr string
	pprofAddr   string
	access      webAccess // guards the metrics listener
	seed        uint64
	preset      string
	games       int
	selfThreads int
	trainThread int
	logFormat   string
	quiet       bool
	rules       ruleFlags
	set         map[string]bool // flags given on the command line
}

// register adds the run flags to fs: the train flags (-preset,
// -train-threads) with withTrain, the self-play ones (-games,
// -selfplay-threads) with withSelf.
func (f *runFlags) register(fs *flag.FlagSet, withTrain, withSelf bool) {
	trainCores, selfCores := training.SplitCores(runtime.GOMAXPROCS(0))
	fs.StringVar(&f.run, "run", "", "run directory (default runs/<variant>): config.json, samples/, games/, checkpoints/")
	fs.StringVar(&f.config, "config", "", "YAML or JSON config file (keys as in the run's config.json; see README)")
	fs.StringVar(&f.variant, "variant", "", "game: chu, sho or heian (default: the run's, else chu)")
	fs.DurationVar(&f.duration, "duration", 0, "stop after this long, cleanly, with exit status 0 (e.g. 10m; 0: no limit)")
	fs.StringVar(&f.metricsAddr, "metrics-addr", "", "serve /metrics and /healthz here (default 127.0.0.1:9464, or a free port if taken; off: none)")
	f.access.register(fs, "metrics-")
	fs.StringVar(&f.pprofAddr, "pprof-addr", "off", "serve Go's profiles (/debug/pprof/) on this loopback address (e.g. 127.0.0.1:6060; off: none)")
	fs.Uint64Var(&f.seed, "seed", 0, "run seed (default 1; give each self-play process of a shared run its own)")
	fs.StringVar(&f.logFormat, "log", "text", "log format on standard error: text or json")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress line or progress log")
	fs.Var(&f.rules, "rule", "rules option `Name=Value` (repeatable; a fresh run only)")
	if withTrain {
		fs.StringVar(&f.preset, "preset", "", "network preset of a fresh run: tiny, small, medium, large (default small)")
		fs.IntVar(&f.trainThread, "train-threads", 0, fmt.Sprintf("goroutines per layer in training (default: half the cores, %d here)", trainCores))
	}
	if withSelf {
		fs.IntVar(&f.games, "games", 0, fmt.Sprintf("self-play games at once (default %d)", selfplay.DefaultConfig(rules.Chu).Games))
		fs.IntVar(&f.selfThreads, "selfplay-threads", 0, fmt.Sprintf("goroutines per layer of the self-play network (default: every core, %d here)", selfCores))
	}
}

// setup loads the effective config, applies the flags, creates the run
// directory and writes its config.json.
func (f *runFlags) setup(fs *flag.FlagSet) (training.Config, checkpoints.Run, error) {
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	run := checkpoints.RunAt(f.run, f.variant)
	cfg, err := training.Load(f.variant, run, f.config)
	if err != nil {
		return cfg, run, err
	}
	fresh := !exists(run.Checkpoints())
	if f.set["seed"] {
		cfg.Seed = f.seed
	}
	if f.set["metrics-addr"] {
		cfg.Metrics = f.metricsAddr
	}
	if f.set["preset"] {
		cfg.Model.Preset = f.preset
	}
	if f.set["games"] {
		cfg.Self.Games = f.games
	}
	if f.set["selfplay-threads"] {
		cfg.Self.Threads = f.selfThreads
	}
	if f.set["train-threads"] {
		cfg.Train.Threads = f.trainThread
	}
	if len(f.rules) > 0 {
		if !fresh {
			return cfg, run, fmt.Errorf("-rule: the run in %s has started; its rules cannot change", run.Dir)
		}
		if cfg.Rules == nil {
			cfg.Rules = map[string]string{}
		}
		for _, a := range f.rules {
			name, value, ok := strings.Cut(a, "=")
			if !ok {
				return cfg, run, fmt.Errorf("-rule %q is not Name=Value", a)
			}
			cfg.Rules[name] = value
		}
	}
	if err := cfg.Validate(run); err != nil {
		return cfg, run, err
	}
	if err := os.MkdirAll(run.Dir, 0o755); err != nil {
		return cfg, run, err
	}
	return cfg, run, cfg.Write(run)
}

// exists reports whether the file or directory p exists.
func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
