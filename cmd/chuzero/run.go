package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/model"
	"chuzero/rules"
	"chuzero/selfplay"
)

// runFlags are the flags shared by train, selfplay and trainer.
type runFlags struct {
	run         string
	config      string
	variant     string
	duration    time.Duration
	metricsAddr string
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

func (f *runFlags) register(fs *flag.FlagSet, withTrain, withSelf bool) {
	trainCores, selfCores := splitCores(runtime.GOMAXPROCS(0))
	fs.StringVar(&f.run, "run", "", "run directory (default runs/<variant>): config.json, samples/, games/, checkpoints/")
	fs.StringVar(&f.config, "config", "", "YAML or JSON config file (keys as in the run's config.json; see README)")
	fs.StringVar(&f.variant, "variant", "", "game: chu, sho or heian (default: the run's, else chu)")
	fs.DurationVar(&f.duration, "duration", 0, "stop after this long, cleanly, with exit status 0 (e.g. 10m; 0: no limit)")
	fs.StringVar(&f.metricsAddr, "metrics-addr", "", "serve /metrics and /healthz here (default 127.0.0.1:9464, or a free port if taken; off: none)")
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
func (f *runFlags) setup(fs *flag.FlagSet) (RunConfig, string, error) {
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	dir := f.run
	if dir == "" {
		v := f.variant
		if v == "" {
			v = "chu"
		}
		dir = filepath.Join("runs", v)
	}
	cfg, err := loadRunConfig(f.variant, dir, f.config)
	if err != nil {
		return cfg, dir, err
	}
	fresh := !exists(checkpoints.Run{Dir: dir}.Checkpoints())
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
			return cfg, dir, fmt.Errorf("-rule: the run in %s has started; its rules cannot change", dir)
		}
		if cfg.Rules == nil {
			cfg.Rules = map[string]string{}
		}
		for _, a := range f.rules {
			name, value, ok := strings.Cut(a, "=")
			if !ok {
				return cfg, dir, fmt.Errorf("-rule %q is not Name=Value", a)
			}
			cfg.Rules[name] = value
		}
	}
	if err := cfg.validate(dir); err != nil {
		return cfg, dir, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return cfg, dir, err
	}
	return cfg, dir, cfg.write(dir)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// newLogger writes to w as text or JSON.
func newLogger(w io.Writer, format string) (*slog.Logger, error) {
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, fmt.Errorf("-log %q: want text or json", format)
}

// signalContext is cancelled by SIGINT or SIGTERM, or after d (if > 0).
func signalContext(d time.Duration) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	if d <= 0 {
		return ctx, stop
	}
	tctx, cancel := context.WithTimeout(ctx, d)
	return tctx, func() { cancel(); stop() }
}

// selfPlayer is the self-play side of a run: the batching network
// evaluator and the game runner.
type selfPlayer struct {
	cfg     RunConfig
	batcher *model.Batcher
	runner  *selfplay.Runner
	metrics *Metrics
	log     *slog.Logger
	step    int64 // network step in use, -1 for the uniform evaluator
}

// newSelfPlayer starts with net (nil: the uniform evaluator until a
// network arrives).
func newSelfPlayer(cfg RunConfig, dir string, net *model.Net, name string, m *Metrics, p *progress, log *slog.Logger) (*selfPlayer, error) {
	spc, err := cfg.selfPlayConfig(dir)
	if err != nil {
		return nil, err
	}
	s := &selfPlayer{cfg: cfg, metrics: m, log: log, step: -1}
	var eval mcts.Evaluator = mcts.Uniform{}
	if net != nil {
		bc := model.BatcherConfig{MaxBatch: cfg.Self.Batch, MaxWait: time.Duration(cfg.Self.BatchWait), Workers: 1, Threads: cfg.Self.Threads}
		if s.batcher, err = model.NewBatcher(net, bc); err != nil {
			return nil, err
		}
		s.batcher.OnBatch = m.batch
		eval = s.evaluator(net)
	} else {
		name = "uniform"
	}
	if s.runner, err = selfplay.New(spc, eval, name); err != nil {
		return nil, err
	}
	s.runner.SetFirstGame(nextGameIndex(checkpoints.Run{Dir: dir}.Games()))
	s.runner.OnGame = func(rec *selfplay.Record) {
		m.game(rec, s.runner.Stats())
		m.resignThresh.Set(s.runner.ResignThreshold())
		if p != nil {
			p.game(rec)
		}
	}
	s.runner.OnMove = func(full bool, sims int) {
		m.move(full, sims)
		if p != nil {
			p.move(sims)
		}
	}
	m.resignThresh.Set(spc.ResignThreshold)
	return s, nil
}

// evaluator returns the cached evaluator of one network.
func (s *selfPlayer) evaluator(net *model.Net) mcts.Evaluator {
	v := s.batcher.View(net)
	if s.cfg.Self.Cache <= 0 {
		return v
	}
	// Keyed on exactly what this network reads; the counts outlive the
	// cache, which goes with the network it serves.
	return mcts.NewSpecCache(v, s.cfg.Self.Cache, net.Spec).CountInto(&s.metrics.cacheCounts)
}

// use makes new games play with net (from checkpoint name at step).
func (s *selfPlayer) use(net *model.Net, name string, step int64) error {
	if s.batcher == nil {
		return errors.New("self-play started without a network cannot switch to one")
	}
	if err := s.batcher.SetNet(net); err != nil {
		return err
	}
	s.runner.SetEvaluator(s.evaluator(net), name)
	s.step = step
	s.metrics.evaluatorSteps.Set(float64(step))
	s.log.Info("self-play uses a new network", "checkpoint", name)
	return nil
}

// run plays until ctx ends (or maxGames games), with the batcher running
// beside the games.
func (s *selfPlayer) run(ctx context.Context, maxGames int) error {
	if s.batcher == nil {
		return s.runner.Run(ctx, maxGames)
	}
	bctx, stopBatcher := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.batcher.Run(bctx); close(done) }()
	err := s.runner.Run(ctx, maxGames)
	stopBatcher() // after the games: their last searches still need it
	<-done
	return err
}

// nextGameIndex returns one past the highest game index recorded in the
// games directory (file names end in -g<last index>), so that a resumed
// run does not replay seeds.
func nextGameIndex(dir string) uint64 {
	names, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	var next uint64
	for _, n := range names {
		base := strings.TrimSuffix(filepath.Base(n), ".jsonl")
		i := strings.LastIndex(base, "-g")
		if i < 0 {
			continue
		}
		var last uint64
		if _, err := fmt.Sscanf(base[i+2:], "%d", &last); err == nil && last+1 > next {
			next = last + 1
		}
	}
	return next
}

// loadNet loads a checkpoint of the run's store into an inference network.
func loadNet(e checkpoints.Entry, variant string) (*model.Net, error) {
	c, err := checkpoints.ReadFile(e.Path)
	if err != nil {
		return nil, err
	}
	if c.Meta.Variant != variant {
		return nil, fmt.Errorf("%s: a %s network in a %s run: %w", e.Path, c.Meta.Variant, variant, checkpoints.ErrMismatch)
	}
	w, err := model.WeightsFromCheckpoint(c)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.Path, err)
	}
	return model.NewNet(w), nil
}

// newRegistry returns a registry with the run's metrics.
func newRegistry() (*prometheus.Registry, *Metrics) {
	reg := prometheus.NewRegistry()
	return reg, NewMetrics(reg)
}
