package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/arena"
)

func init() {
	register(command{name: "arena", summary: "matches between checkpoints, engines and baselines: Elo with intervals, SPRT", run: runArena})
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

// gameLine is the line printed for a finished arena game: the game, and
// in a two-player match the score so far with its Elo (and the SPRT).
func gameLine(rec *arena.GameRecord, st *arena.Standings, total int) string {
	line := fmt.Sprintf("game %d/%d  %s vs %s  %s (%s, %d plies, %.1fs)", st.Games, total, rec.Sente, rec.Gote, rec.Result, rec.Reason, rec.Plies, rec.Seconds)
	if len(st.Names) == 2 {
		sc := st.Score(0, 1)
		e, lo, hi := arena.EloInterval(sc)
		line += fmt.Sprintf("  | %s %s: %s, Elo %s [%s, %s]", st.Names[0], sc, fmtPct(sc), fmtElo(e), fmtElo(lo), fmtElo(hi))
	}
	if st.SPRT != nil {
		line += fmt.Sprintf("  LLR %.2f [%.2f, %.2f]", st.SPRT.LLR, st.SPRT.Lower, st.SPRT.Upper)
	}
	if rec.Note != "" {
		line += "\n    note: " + rec.Note
	}
	return line
}

// runArena implements "chuzero arena PLAYER PLAYER...".
func runArena(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("arena", "arena [-run DIR] [-variant chu] [-games N] [-sprt elo0,elo1] [flags] PLAYER PLAYER [PLAYER...]\n\n"+playerSpecHelp, stderr)
	var vf variantFlags
	vf.register(fs)
	runDir := fs.String("run", "", "run directory whose checkpoints the players name (default runs/<variant> if it exists)")
	games := fs.Int("games", 10, "games per pairing (even: each opening is played with both colours)")
	conc := fs.Int("concurrency", max(1, runtime.GOMAXPROCS(0)/2), "games played at once")
	openings := fs.String("openings", "", "openings file: one per line, \"startpos\" or an SFEN, optionally \"moves m1 m2 ...\" (default: random balanced openings)")
	plies := fs.Int("opening-plies", 6, "plies of a random opening")
	sims := fs.Int("sims", 200, "default simulations per move of a search player")
	movetime := fs.Duration("movetime", 0, "default time per move of a search player (0: by -sims only)")
	var sprt sprtFlag
	fs.Var(&sprt, "sprt", "sequential test `elo0,elo1[,alpha,beta]` (two players; alpha and beta default 0.05): stop when decided, -games is then the limit")
	gauntlet := fs.Bool("gauntlet", false, "pair the first player with each of the others only (a benchmark against fixed anchors), not a round robin")
	seed := fs.Uint64("seed", 1, "match seed (openings, random players, search noise)")
	out := fs.String("out", "", "directory for games.jsonl, games.pgn and results.json (default RUN/arena/<time>, or arena/<time>)")
	batch := fs.Int("batch", 0, "network batch size (default 8 x concurrency, at most 64)")
	threads := fs.Int("threads", 0, "goroutines per network layer (default: every core)")
	engineLog := fs.String("engine-log", "", "write the XBoard traffic of the engines to this file")
	quiet := fs.Bool("quiet", false, "no line per game")
	logFormat := fs.String("log", "text", "log format on standard error: text or json")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: chuzero arena [flags] PLAYER PLAYER [PLAYER...]\n\n%s\n\nFlags:\n", playerSpecHelp)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "chuzero arena: %v\n", err)
		return 1
	}
	if fs.NArg() < 2 {
		fmt.Fprintln(stderr, "chuzero arena: name at least two players (see -h)")
		return 2
	}
	log, err := newLogger(stderr, *logFormat)
	if err != nil {
		return fail(err)
	}
	rc, err := vf.config()
	if err != nil {
		return fail(err)
	}
	dir := *runDir
	if dir == "" {
		dir = filepath.Join("runs", vf.variant)
	}
	defBudget := mcts.Budget{Simulations: *sims, Time: *movetime}
	if *movetime > 0 && !flagSet(fs, "sims") {
		defBudget.Simulations = 0
	}
	if err := defBudget.Validate(); err != nil {
		return fail(err)
	}
	if *batch <= 0 {
		*batch = min(64, 8*max(1, *conc))
	}
	nets, err := newNetworks(dir, vf.variant, *batch, *threads)
	if err != nil {
		return fail(err)
	}
	defer nets.close()
	var elog *os.File
	if *engineLog != "" {
		if elog, err = os.Create(*engineLog); err != nil {
			return fail(err)
		}
		defer elog.Close()
	}
	var entrants []arena.Entrant
	for _, a := range fs.Args() {
		p, err := parsePlayer(a, defBudget)
		if err != nil {
			return fail(err)
		}
		e, err := nets.entrant(p, elog)
		if err != nil {
			return fail(err)
		}
		entrants = append(entrants, e)
	}
	r, err := rules.New(rc)
	if err != nil {
		return fail(err)
	}
	var ops []arena.Opening
	if *openings != "" {
		if ops, err = arena.ReadOpenings(*openings, r); err != nil {
			return fail(err)
		}
	}
	if *out == "" {
		parent := "arena"
		if exists(dir) {
			parent = filepath.Join(dir, "arena")
		}
		*out = filepath.Join(parent, time.Now().UTC().Format("20060102-150405"))
	}
	cfg := arena.Config{Rules: rc, Openings: ops, OpeningPlies: *plies, Games: *games, Concurrency: *conc,
		Gauntlet: *gauntlet, Seed: *seed, SPRT: sprt.t, Dir: *out, Log: log}
	m, err := arena.New(cfg, entrants...)
	if err != nil {
		return fail(err)
	}
	total := *games * len(entrants) * (len(entrants) - 1) / 2
	if *gauntlet {
		total = *games * (len(entrants) - 1)
	}
	if !*quiet {
		m.OnGame = func(rec *arena.GameRecord, st *arena.Standings) { fmt.Fprintln(stdout, gameLine(rec, st, total)) }
	}
	var names []string
	for _, e := range entrants {
		names = append(names, e.Name())
	}
	log.Info("arena", "players", strings.Join(names, ", "), "variant", rc.Variant.String(), "rules", rc.String(), "games_per_pairing", *games, "concurrency", *conc, "out", *out)
	ctx, stop := signalContext(0)
	defer stop()
	st, err := m.Run(ctx)
	if st != nil {
		fmt.Fprintln(stdout)
		st.WriteTable(stdout)
		fmt.Fprintf(stdout, "records: %s\n", *out)
	}
	if err != nil && ctx.Err() == nil {
		return fail(err)
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "chuzero arena: interrupted; the games finished so far are counted and saved")
		return 130
	}
	return 0
}

func fmtPct(sc arena.Score) string {
	if sc.Games() == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*sc.Points()/float64(sc.Games()))
}

func fmtElo(x float64) string {
	switch {
	case x > 1e6:
		return "+inf"
	case x < -1e6:
		return "-inf"
	}
	return fmt.Sprintf("%+.0f", x)
}

func flagSet(fs interface{ Visit(func(*flag.Flag)) }, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}
