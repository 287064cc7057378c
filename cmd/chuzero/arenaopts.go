package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/selfplay/arena"
	"chuzero/selfplay/training"
)

// arenaOptions are the flags and players of "chuzero arena".
type arenaOptions struct {
	vf                                          variantFlags
	runDir, openings, out, engineLog, logFormat string
	metricsAddr                                 string    // where /metrics and the run's web UI are served ("off": nowhere)
	metricsExplicit                             bool      // -metrics-addr was given: it must be free
	access                                      webAccess // guards the metrics listener
	games, conc, plies, batch, threads          int
	budget                                      mcts.Budget // default of a search player; not yet validated
	sprt                                        sprtFlag
	gauntlet, quiet                             bool
	seed                                        uint64
	players                                     []string // player specs, two or more
}

// parseArenaFlags parses the arguments of "chuzero arena". It returns
// done with the exit status when the command should stop: help shown, a
// flag error, or fewer than two players.
func parseArenaFlags(args []string, stderr io.Writer) (o arenaOptions, code int, done bool) {
	fs := newFlagSet("arena", "arena [-run DIR] [-variant chu] [-games N] [-sprt elo0,elo1] [flags] PLAYER PLAYER [PLAYER...]\n\n"+arena.PlayerSpecHelp, stderr)
	o.vf.register(fs)
	fs.StringVar(&o.runDir, "run", "", "run directory whose checkpoints the players name (default runs/<variant> if it exists)")
	fs.IntVar(&o.games, "games", 10, "games per pairing (even: each opening is played with both colours)")
	fs.IntVar(&o.conc, "concurrency", max(1, runtime.GOMAXPROCS(0)/2), "games played at once")
	fs.StringVar(&o.openings, "openings", "", "openings file: one per line, \"startpos\" or an SFEN, optionally \"moves m1 m2 ...\" (default: random balanced openings)")
	fs.IntVar(&o.plies, "opening-plies", 6, "plies of a random opening")
	sims := fs.Int("sims", 200, "default simulations per move of a search player")
	movetime := fs.Duration("movetime", 0, "default time per move of a search player (0: by -sims only)")
	fs.Var(&o.sprt, "sprt", "sequential test `elo0,elo1[,alpha,beta]` (two players; alpha and beta default 0.05): stop when decided, -games is then the limit")
	fs.BoolVar(&o.gauntlet, "gauntlet", false, "pair the first player with each of the others only (a benchmark against fixed anchors), not a round robin")
	fs.Uint64Var(&o.seed, "seed", 1, "match seed (openings, random players, search noise)")
	fs.StringVar(&o.out, "out", "", "directory for games.jsonl, games.pgn and results.json (default RUN/arena/<time>, or arena/<time>)")
	fs.IntVar(&o.batch, "batch", 0, "network batch size (default: the positions the games keep in flight, 2 x concurrency, at most 64)")
	fs.IntVar(&o.threads, "threads", 0, "goroutines per network layer (default: every core)")
	fs.StringVar(&o.engineLog, "engine-log", "", "write the XBoard traffic of the engines to this file")
	fs.BoolVar(&o.quiet, "quiet", false, "no line per game")
	fs.StringVar(&o.logFormat, "log", "text", "log format on standard error: text or json")
	fs.StringVar(&o.metricsAddr, "metrics-addr", "127.0.0.1:9464", "serve /metrics and, for a run directory, its web UI here (a free port if taken; off: none)")
	o.access.register(fs, "metrics-")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: chuzero arena [flags] PLAYER PLAYER [PLAYER...]\n\n%s\n\nFlags:\n", arena.PlayerSpecHelp)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, 0, true
		}
		return o, 2, true
	}
	if fs.NArg() < 2 {
		fmt.Fprintln(stderr, "chuzero arena: name at least two players (see -h)")
		return o, 2, true
	}
	o.budget = mcts.Budget{Simulations: *sims, Time: *movetime}
	if *movetime > 0 && !flagSet(fs, "sims") {
		o.budget.Simulations = 0
	}
	o.players = fs.Args()
	o.metricsExplicit = flagSet(fs, "metrics-addr")
	return o, 0, false
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs interface{ Visit(func(*flag.Flag)) }, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// sprtFlag parses -sprt "elo0,elo1[,alpha,beta]".
type sprtFlag struct{ t *arena.SPRT }

func (f *sprtFlag) String() string {
	if f.t == nil {
		return ""
	}
	return fmt.Sprintf("%g,%g,%g,%g", f.t.Elo0, f.t.Elo1, f.t.Alpha, f.t.Beta)
}

func (f *sprtFlag) Set(s string) error {
	parts := strings.Split(s, ",")
	if len(parts) != 2 && len(parts) != 4 {
		return errors.New("want elo0,elo1 or elo0,elo1,alpha,beta")
	}
	v := []float64{0, 0, 0.05, 0.05}
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return err
		}
		v[i] = x
	}
	t := &arena.SPRT{Elo0: v[0], Elo1: v[1], Alpha: v[2], Beta: v[3]}
	if err := t.Validate(); err != nil {
		return err
	}
	f.t = t
	return nil
}

// defaultArenaOut is the records directory when -out is not given: a
// time-stamped folder under the run's arena/ when the run exists, else
// under ./arena.
func defaultArenaOut(run checkpoints.Run) string {
	parent := checkpoints.ArenaDir
	if exists(run.Dir) {
		parent = run.Arena()
	}
	return filepath.Join(parent, time.Now().UTC().Format("20060102-150405"))
}

// serveArena serves /metrics (the process's runtime metrics) and, when
// the match is played in a run directory, the run's web UI, where the
// match's games appear as they finish (-metrics-addr). The returned stop
// shuts the server down.
func serveArena(ctx context.Context, o *arenaOptions, log *slog.Logger) (func(), error) {
	reg := prometheus.NewRegistry()
	for _, c := range training.ProcessMetrics() {
		reg.MustRegister(c)
	}
	var ui http.Handler
	if run := checkpoints.RunAt(o.runDir, o.vf.variant); exists(run.Dir) {
		var err error
		if ui, err = newWebUI(run, nil); err != nil {
			return nil, err
		}
	}
	addr, stop, err := serveMetrics(o.metricsAddr, o.metricsExplicit, &o.access, reg, ctx.Err, ui, log)
	if err == nil && addr != "" {
		log.Info("metrics", "url", "http://"+addr+"/metrics", "web", ui != nil)
	}
	return stop, err
}
