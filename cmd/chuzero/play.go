package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/cecp"
)

func init() {
	register(command{name: "play", summary: "play: an XBoard (CECP) engine, or a game in the terminal", run: runPlay})
}

// runPlay implements "chuzero play": the CECP engine on stdin/stdout (for
// XBoard: xboard -fcp "chuzero play -run DIR"), or, on a terminal or with
// -human, a game against a person.
func runPlay(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("play", "play [-run DIR] [-checkpoint latest|NAME|STEP|FILE|none] [-sims N] [-movetime D] [-human [-side sente|gote]]", stderr)
	runDir := fs.String("run", "", "run directory whose checkpoint to play (default runs/<variant>)")
	ckpt := fs.String("checkpoint", "latest", "checkpoint: latest, a name, a step, a file, or none (tree search with uniform priors)")
	variant := fs.String("variant", "", "game for -human, and the only one offered with no network (default: the network's, else chu)")
	var rf ruleFlags
	fs.Var(&rf, "rule", "rules option `Name=Value` (repeatable; default: the checkpoint's rules)")
	sims := fs.Int("sims", 400, "simulations per move (also a cap when the GUI sets a clock; 0: the clock alone)")
	movetime := fs.Duration("movetime", 0, "time per move when the GUI sets no clock (0: by -sims)")
	human := fs.Bool("human", false, "play against a person in the terminal (the default when standard input is a terminal)")
	side := fs.String("side", "sente", "your side with -human: sente (moves first) or gote")
	threads := fs.Int("threads", 0, "goroutines per network layer (default: every core)")
	logFile := fs.String("log-file", "", "write diagnostics here (the GUI owns standard output)")
	name := fs.String("name", "", "engine name shown by the GUI (default chuzero <checkpoint>)")
	seed := fs.Uint64("seed", 1, "search seed")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "chuzero play: %v\n", err)
		return 1
	}
	log := slog.New(slog.DiscardHandler)
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fail(err)
		}
		defer f.Close()
		log = slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	budget := mcts.Budget{Simulations: *sims, Time: *movetime}
	if err := budget.Validate(); err != nil {
		return fail(err)
	}
	cfg := cecp.Config{Budget: budget, Seed: *seed, Log: log, Rules: rf, Name: *name}
	// The network: the run's checkpoint, unless none.
	v := *variant
	dir := *runDir
	if dir == "" {
		vv := v
		if vv == "" {
			vv = "chu"
		}
		dir = filepath.Join("runs", vv)
	}
	var nets *networks
	if *ckpt != "none" {
		var err error
		if nets, err = newNetworks(dir, v, 32, *threads); err != nil {
			return fail(err)
		}
		defer nets.close()
		if nets.store == nil && !exists(*ckpt) {
			if *runDir != "" || *ckpt != "latest" {
				return fail(fmt.Errorf("no checkpoint %q: %s has no checkpoints (use -checkpoint none for search without a network)", *ckpt, dir))
			}
			fmt.Fprintf(stderr, "chuzero play: no run in %s; playing without a network (uniform priors)\n", dir)
			nets.close()
			nets = nil
		}
	}
	if nets != nil {
		e, err := findCheckpoint(nets, *ckpt)
		if err != nil {
			return fail(err)
		}
		c, err := checkpoints.ReadFile(e.Path)
		if err != nil {
			return fail(err)
		}
		if v != "" && v != c.Meta.Variant {
			return fail(fmt.Errorf("-variant %s, but %s is a %s network", v, e.Name, c.Meta.Variant))
		}
		v = c.Meta.Variant
		nets.variant = v
		eval, ename, _, err := nets.evaluator(e.Path)
		if err != nil {
			return fail(err)
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
	} else {
		cfg.Eval = mcts.Uniform{}
		if cfg.Name == "" {
			cfg.Name = "chuzero (no network)"
		}
		if v != "" {
			id, err := rules.ParseVariant(v)
			if err != nil {
				return fail(err)
			}
			if *human {
				cfg.Variants = []rules.VariantID{id}
			} else {
				cfg.Variants = append([]rules.VariantID{id}, otherVariants(id)...)
			}
		}
	}
	eng, err := cecp.New(cfg)
	if err != nil {
		return fail(err)
	}
	ctx, stop := signalContext(0)
	defer stop()
	if *human || isTerminal(os.Stdin) {
		c := rules.Sente
		switch *side {
		case "sente", "black", "first":
		case "gote", "white", "second":
			c = rules.Gote
		default:
			return fail(fmt.Errorf("-side %q: want sente or gote", *side))
		}
		if err := eng.Human(ctx, os.Stdin, stdout, c); err != nil && ctx.Err() == nil {
			return fail(err)
		}
		return 0
	}
	if err := eng.Serve(ctx, os.Stdin, stdout); err != nil && ctx.Err() == nil {
		return fail(err)
	}
	return 0
}

// findCheckpoint resolves ref in the run's store, or as a file.
func findCheckpoint(n *networks, ref string) (checkpoints.Entry, error) {
	if n.store != nil {
		e, err := n.store.Find(ref)
		if err == nil || !exists(ref) {
			return e, err
		}
	}
	if !exists(ref) {
		return checkpoints.Entry{}, fmt.Errorf("checkpoint %q: %w", ref, os.ErrNotExist)
	}
	return checkpoints.Entry{Path: ref, Name: filepath.Base(ref)}, nil
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

func otherVariants(id rules.VariantID) []rules.VariantID {
	var out []rules.VariantID
	for _, v := range rules.Variants {
		if v != id {
			out = append(out, v)
		}
	}
	return out
}
