package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"chuzero/mcts"
	"chuzero/rules"
)

// playOptions are the flags of "chuzero play".
type playOptions struct {
	runDir, ckpt, variant string
	rules                 ruleFlags
	sims                  int
	movetime              time.Duration
	human                 bool
	side                  string // with -human: sente or gote
	threads               int
	logFile, name         string
	protocol              string // auto, usi or cecp
	seed                  uint64
	utility               float64 // the search's material utility
	quiescence            float64 // the search's quiescence blend
	minimax               float64 // the search's implicit minimax weight
	wide                  bool    // every root move visited before any twice
}

// parsePlayFlags parses the arguments of "chuzero play". It returns done
// with the exit status when the command should stop (help or a flag error).
func parsePlayFlags(args []string, stderr io.Writer) (o playOptions, code int, done bool) {
	fs := newFlagSet("play", "play [-run DIR] [-checkpoint latest|NAME|STEP|FILE|none] [-sims N] [-movetime D] [-protocol auto|usi|cecp] [-human [-side sente|gote]]", stderr)
	fs.StringVar(&o.runDir, "run", "", "run directory whose checkpoint to play (default runs/<variant>)")
	fs.StringVar(&o.ckpt, "checkpoint", "latest", "checkpoint: latest, a name, a step, a file, or none (tree search with uniform priors)")
	fs.StringVar(&o.variant, "variant", "", "game for -human, and the only one offered with no network (default: the network's, else chu)")
	fs.Var(&o.rules, "rule", "rules option `Name=Value` (repeatable; default: the checkpoint's rules)")
	fs.IntVar(&o.sims, "sims", 400, "simulations per move (also a cap when the GUI sets a clock; 0: the clock alone)")
	fs.DurationVar(&o.movetime, "movetime", 0, "time per move when the GUI sets no clock (0: by -sims)")
	fs.BoolVar(&o.human, "human", false, "play against a person in the terminal (the default when standard input is a terminal)")
	fs.StringVar(&o.side, "side", "sente", "your side with -human: sente (moves first) or gote")
	fs.Float64Var(&o.utility, "material-utility", 0, "add this share (0-1) of the network's material forecast to the value in search (selfplay.material_utility)")
	fs.Float64Var(&o.quiescence, "quiescence", mcts.DefaultConfig().Quiescence, "blend this share (0-1) of the capture search's value into every leaf's value (selfplay.quiescence; the GUI option Quiescence, in percent)")
	fs.Float64Var(&o.minimax, "minimax", 0, "blend this share (0-1) of each child's implicit minimax value into its mean in search (selfplay.minimax_weight)")
	fs.BoolVar(&o.wide, "root-full-width", false, "visit every root move once, in the prior's order, before any twice (mcts root_full_width; PUCT only)")
	fs.IntVar(&o.threads, "threads", 0, "goroutines per network layer (default: every core)")
	fs.StringVar(&o.logFile, "log-file", "", "write diagnostics here (the GUI owns standard output)")
	fs.StringVar(&o.name, "name", "", "engine name shown by the GUI (default chuzero <checkpoint>)")
	fs.Uint64Var(&o.seed, "seed", 1, "search seed")
	fs.StringVar(&o.protocol, "protocol", "auto", "engine protocol: usi (lishogi, shogi GUIs), cecp (XBoard), or auto: usi if the first command is \"usi\", else cecp")
	code, done = parseFlags(fs, args)
	return o, code, done
}

// openPlayLog returns the logger of -log-file (debug level, appending)
// and a function that closes the file; without -log-file it discards.
func openPlayLog(path string) (*slog.Logger, func(), error) {
	if path == "" {
		return slog.New(slog.DiscardHandler), func() {}, nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, err
	}
	log := slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return log, func() { f.Close() }, nil
}

// parseSide returns the colour -side names.
func parseSide(s string) (rules.Color, error) {
	switch s {
	case "sente", "black", "first":
		return rules.Sente, nil
	case "gote", "white", "second":
		return rules.Gote, nil
	}
	return rules.Sente, fmt.Errorf("-side %q: want sente or gote", s)
}
