package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/arena"
	"chuzero/selfplay/cecp"
	"chuzero/selfplay/engine"
	"chuzero/selfplay/engine/protocol"
	"chuzero/selfplay/training"
)

func init() {
	register(command{name: "play", summary: "play: a USI (lishogi) or XBoard (CECP) engine, or a game in the terminal", run: runPlay})
}

// runPlay implements "chuzero play": the USI or CECP engine on
// stdin/stdout (the protocol of the first command, or -protocol; for
// XBoard: xboard -fcp "chuzero play -run DIR"), or, on a terminal or with
// -human, a game against a person.
func runPlay(args []string, stdout, stderr io.Writer) int {
	o, code, done := parsePlayFlags(args, stderr)
	if done {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "chuzero play: %v\n", err)
		return 1
	}
	log, closeLog, err := openPlayLog(o.logFile)
	if err != nil {
		return fail(err)
	}
	defer closeLog()
	if o.protocol != "auto" && o.protocol != "usi" && o.protocol != "cecp" {
		return fail(fmt.Errorf("-protocol %q: want auto, usi or cecp", o.protocol))
	}
	cfg, closeNets, err := newPlayConfig(&o, log, stderr)
	if err != nil {
		return fail(err)
	}
	defer closeNets()
	ctx, stop := signalContext(0)
	defer stop()
	if o.human || (o.protocol == "auto" && isTerminal(os.Stdin)) {
		var c rules.Color
		var eng *cecp.Engine
		if c, err = parseSide(o.side); err == nil {
			eng, err = cecp.New(cfg)
		}
		if err != nil {
			return fail(err)
		}
		err = eng.Human(ctx, os.Stdin, stdout, c)
	} else {
		err = protocol.Serve(ctx, o.protocol, cfg, os.Stdin, stdout)
	}
	if err != nil && ctx.Err() == nil {
		return fail(err)
	}
	return 0
}

// newPlayConfig returns the engine configuration of o: on the run's
// checkpoint, or with uniform priors when there is none. The function it
// returns stops the network's batcher.
func newPlayConfig(o *playOptions, log *slog.Logger, stderr io.Writer) (engine.Config, func(), error) {
	budget := mcts.Budget{Simulations: o.sims, Time: o.movetime}
	if budget != (mcts.Budget{}) { // zero: the clock alone
		if err := budget.Validate(); err != nil {
			return engine.Config{}, nil, err
		}
	}
	cfg := engine.Config{Budget: budget, Seed: o.seed, Log: log, Rules: o.rules, Name: o.name}
	search := mcts.MatchConfig()
	search.MaterialUtility, search.Quiescence, search.MinimaxWeight = o.utility, o.quiescence, o.minimax
	search.RootFullWidth = o.wide
	cfg.Search = &search
	nets, err := openPlayNetworks(o, stderr)
	if err != nil {
		return engine.Config{}, nil, err
	}
	closeNets := func() {}
	if nets != nil {
		closeNets = nets.Close
		err = withNetwork(&cfg, nets, o, log)
	} else {
		err = withoutNetwork(&cfg, o)
	}
	if err == nil { // the configuration's errors, before a protocol starts
		_, err = cecp.New(cfg)
	}
	if err != nil {
		closeNets()
		return engine.Config{}, nil, err
	}
	return cfg, closeNets, nil
}

// openPlayNetworks opens the run's networks, or returns nil with
// -checkpoint none, or when the default run directory has no checkpoints
// (then saying so on stderr).
func openPlayNetworks(o *playOptions, stderr io.Writer) (*training.Networks, error) {
	if o.ckpt == "none" {
		return nil, nil
	}
	run := checkpoints.RunAt(o.runDir, o.variant)
	nets, err := training.NewNetworks(run, o.variant, arena.MatchBatch(1), o.threads) // one game: its leaves in flight
	if err != nil {
		return nil, err
	}
	if !nets.HasStore() && !exists(o.ckpt) {
		nets.Close()
		if o.runDir != "" || o.ckpt != "latest" {
			return nil, fmt.Errorf("no checkpoint %q: %s has no checkpoints (use -checkpoint none for search without a network)", o.ckpt, run.Dir)
		}
		fmt.Fprintf(stderr, "chuzero play: no run in %s; playing without a network (uniform priors)\n", run.Dir)
		return nil, nil
	}
	return nets, nil
}

// withNetwork sets cfg to play checkpoint -checkpoint of nets: its
// evaluator, its variant only, and its rules under those of -rule.
func withNetwork(cfg *engine.Config, nets *training.Networks, o *playOptions, log *slog.Logger) error {
	e, err := nets.Find(o.ckpt)
	if err != nil {
		return err
	}
	c, err := checkpoints.ReadFile(e.Path)
	if err != nil {
		return err
	}
	v := c.Meta.Variant
	if o.variant != "" && o.variant != v {
		return fmt.Errorf("-variant %s, but %s is a %s network", o.variant, e.Name, v)
	}
	nets.SetVariant(v)
	eval, ename, _, err := nets.Lookup(e.Path)
	if err != nil {
		return err
	}
	cfg.Eval = eval
	if cfg.Name == "" {
		cfg.Name = "chuzero " + ename
	}
	id, _ := rules.ParseVariant(v)
	cfg.Variants = []rules.VariantID{id}
	if trained, err := rules.ParseConfig(c.Meta.Rules); err == nil {
		cfg.Rules = append(assignments(trained), cfg.Rules...)
	}
	log.Info("network", "checkpoint", e.Path, "variant", v)
	return nil
}

// withoutNetwork sets cfg to search with uniform priors; -variant, if
// given, is the variant offered first (the only one with -human).
func withoutNetwork(cfg *engine.Config, o *playOptions) error {
	cfg.Eval = mcts.Uniform{}
	if cfg.Name == "" {
		cfg.Name = "chuzero (no network)"
	}
	if o.variant == "" {
		return nil
	}
	id, err := rules.ParseVariant(o.variant)
	if err != nil {
		return err
	}
	if o.human {
		cfg.Variants = []rules.VariantID{id}
	} else {
		cfg.Variants = append([]rules.VariantID{id}, otherVariants(id)...)
	}
	return nil
}

// assignments lists c's options as Name=Value.
func assignments(c rules.Config) []string {
	var out []string
	for _, o := range rules.Options(c.Variant) {
		if v, err := c.Value(o.Name); err == nil {
			out = append(out, o.Name+"="+v)
		}
	}
	return out
}

// otherVariants lists the variants other than id.
func otherVariants(id rules.VariantID) []rules.VariantID {
	var out []rules.VariantID
	for _, v := range rules.Variants {
		if v != id {
			out = append(out, v)
		}
	}
	return out
}
