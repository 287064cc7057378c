package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/arena"
	"chuzero/selfplay/training"
)

func init() {
	register(command{name: "arena", summary: "matches between checkpoints, engines and baselines: Elo with intervals, SPRT", run: runArena})
}

// runArena implements "chuzero arena PLAYER PLAYER...".
func runArena(args []string, stdout, stderr io.Writer) int {
	o, code, done := parseArenaFlags(args, stderr)
	if done {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "chuzero arena: %v\n", err)
		return 1
	}
	log, err := newLogger(stderr, o.logFormat)
	if err != nil {
		return fail(err)
	}
	a, err := newArenaMatch(&o, log)
	if err != nil {
		return fail(err)
	}
	defer a.close()
	ctx, stop := signalContext(0)
	defer stop()
	stopWeb, err := serveArena(ctx, &o, log)
	if err != nil {
		return fail(err)
	}
	defer stopWeb()
	err = a.play(ctx, &o, log, stdout)
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "chuzero arena: interrupted; the games finished so far are counted and saved")
		return 130
	}
	if err != nil {
		return fail(err)
	}
	return 0
}

// arenaMatch is the match the arena options describe, with the networks
// and the engine log it holds open.
type arenaMatch struct {
	match    *arena.Match
	entrants []arena.Entrant
	rc       rules.Config
	out      string // records directory
	total    int    // games of the whole match, at most
	nets     *training.Networks
	elog     *os.File // nil without -engine-log
}

// newArenaMatch builds the players and the match of o; on an error it
// releases what it opened.
func newArenaMatch(o *arenaOptions, log *slog.Logger) (*arenaMatch, error) {
	a := &arenaMatch{}
	if err := a.build(o, log); err != nil {
		a.close()
		return nil, err
	}
	return a, nil
}

// build fills a from o: the rules, the players and the arena.Config.
func (a *arenaMatch) build(o *arenaOptions, log *slog.Logger) error {
	var err error
	if a.rc, err = o.vf.config(); err != nil {
		return err
	}
	run := checkpoints.RunAt(o.runDir, o.vf.variant)
	if err := o.budget.Validate(); err != nil {
		return err
	}
	if err := a.openEntrants(o, run); err != nil {
		return err
	}
	cfg, err := a.config(o, run, log)
	if err != nil {
		return err
	}
	if a.match, err = arena.New(cfg, a.entrants...); err != nil {
		return err
	}
	n := len(a.entrants)
	a.total = o.games * n * (n - 1) / 2
	if o.gauntlet {
		a.total = o.games * (n - 1)
	}
	return nil
}

// openEntrants opens the networks of run and the engine log, and makes a
// player of each spec.
func (a *arenaMatch) openEntrants(o *arenaOptions, run checkpoints.Run) error {
	batch := o.batch
	if batch <= 0 {
		batch = arena.MatchBatch(o.conc)
	}
	var err error
	if a.nets, err = training.NewNetworks(run, o.vf.variant, batch, o.threads); err != nil {
		return err
	}
	var engineLog io.Writer // a nil *os.File is not a nil Writer
	if o.engineLog != "" {
		if a.elog, err = os.Create(o.engineLog); err != nil {
			return err
		}
		engineLog = a.elog
	}
	lookup := func(ref string) (mcts.Evaluator, string, error) {
		ev, name, _, err := a.nets.Lookup(ref)
		return ev, name, err
	}
	for _, s := range o.players {
		p, err := arena.ParsePlayer(s, o.budget)
		if err != nil {
			return err
		}
		e, err := p.Entrant(lookup, engineLog)
		if err != nil {
			return err
		}
		a.entrants = append(a.entrants, e)
	}
	return nil
}

// config returns the arena.Config of o, reading the openings file if one
// is given and choosing the records directory.
func (a *arenaMatch) config(o *arenaOptions, run checkpoints.Run, log *slog.Logger) (arena.Config, error) {
	r, err := rules.New(a.rc)
	if err != nil {
		return arena.Config{}, err
	}
	var ops []arena.Opening
	if o.openings != "" {
		if ops, err = arena.ReadOpenings(o.openings, r); err != nil {
			return arena.Config{}, err
		}
	}
	a.out = o.out
	if a.out == "" {
		a.out = defaultArenaOut(run)
	}
	return arena.Config{Rules: a.rc, Openings: ops, OpeningPlies: o.plies, Games: o.games, Concurrency: o.conc,
		Gauntlet: o.gauntlet, Seed: o.seed, SPRT: o.sprt.t, Dir: a.out, Log: log}, nil
}

// play runs the match until it ends or ctx is done, printing a line a
// game (unless -quiet) and then the table of the games played.
func (a *arenaMatch) play(ctx context.Context, o *arenaOptions, log *slog.Logger, stdout io.Writer) error {
	if !o.quiet {
		a.match.OnGame = func(rec *arena.GameRecord, st *arena.Standings) { fmt.Fprintln(stdout, gameLine(rec, st, a.total)) }
	}
	var names []string
	for _, e := range a.entrants {
		names = append(names, e.Name())
	}
	log.Info("arena", "players", strings.Join(names, ", "), "variant", a.rc.Variant.String(), "rules", a.rc.String(), "games_per_pairing", o.games, "concurrency", o.conc, "out", a.out)
	st, err := a.match.Run(ctx)
	if st != nil {
		fmt.Fprintln(stdout)
		st.WriteTable(stdout)
		fmt.Fprintf(stdout, "records: %s\n", a.out)
	}
	return err
}

// close closes the engine log and stops the networks' batchers.
func (a *arenaMatch) close() {
	if a.elog != nil {
		a.elog.Close()
	}
	if a.nets != nil {
		a.nets.Close()
	}
}

// gameLine is the line printed for a finished arena game: the game, and
// in a two-player match the score so far with its Elo (and the SPRT).
func gameLine(rec *arena.GameRecord, st *arena.Standings, total int) string {
	line := fmt.Sprintf("game %d/%d  %s vs %s  %s (%s, %d plies, %.1fs)", st.Games, total, rec.Sente, rec.Gote, rec.Result, rec.Reason, rec.Plies, rec.Seconds)
	if len(st.Names) == 2 {
		sc := st.Score(0, 1)
		e, lo, hi := arena.EloInterval(sc)
		line += fmt.Sprintf("  | %s %s: %s, Elo %s [%s, %s]", st.Names[0], sc, fmtPct(sc), arena.FormatElo(e), arena.FormatElo(lo), arena.FormatElo(hi))
	}
	if st.SPRT != nil {
		line += fmt.Sprintf("  LLR %.2f [%.2f, %.2f]", st.SPRT.LLR, st.SPRT.Lower, st.SPRT.Upper)
	}
	if rec.Note != "" {
		line += "\n    note: " + rec.Note
	}
	return line
}

// fmtPct is the share of points in sc as a percentage, "-" before any game.
func fmtPct(sc arena.Score) string {
	if sc.Games() == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*sc.Points()/float64(sc.Games()))
}
