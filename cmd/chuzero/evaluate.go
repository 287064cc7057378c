package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/mcts"
	"chuzero/model"
	"chuzero/rules"
	"chuzero/selfplay/arena"
	"chuzero/selfplay/report"
)

// EvalConfig configures the periodic evaluation of a run's latest
// checkpoint against fixed anchors, plotted by "chuzero report".
type EvalConfig struct {
	Interval    duration `json:"interval"`      // time between evaluations (0: none)
	Games       int      `json:"games"`         // games per anchor (even: colours swapped)
	Simulations int      `json:"simulations"`   // playouts per move of the checkpoints
	Anchors     []string `json:"anchors"`       // first, previous, greedy, random, ab1..ab9 (alpha-beta depth N), hachu (Chu, if installed)
	HaChuDepth  int      `json:"hachu_depth"`   // HaChu's search depth ("sd")
	Concurrency int      `json:"concurrency"`   // games at once
	Threads     int      `json:"threads"`       // goroutines per network layer
	OpeningPly  int      `json:"opening_plies"` // plies of the random balanced openings
}

// GatingConfig configures gating: a new checkpoint replaces the best one
// for self-play only if it wins an SPRT against it.
type GatingConfig struct {
	Enabled     bool    `json:"enabled"`
	Games       int     `json:"games"`       // most games of one decision (then: rejected, inconclusive)
	Simulations int     `json:"simulations"` // playouts per move
	Elo0        float64 `json:"elo0"`        // SPRT hypotheses (logistic Elo of the candidate over the best)
	Elo1        float64 `json:"elo1"`
	Alpha       float64 `json:"alpha"`
	Beta        float64 `json:"beta"`
	Concurrency int     `json:"concurrency"`
	Threads     int     `json:"threads"`
}

// DefaultEvalConfig evaluates hourly: 40 games (20 colour-swapped pairs)
// against each anchor at 64 playouts per move: the first checkpoint, the
// previously evaluated one, greedy, alpha-beta at depths 1 and 2, and HaChu
// at depth 1 (Chu). Ten games are ±200 Elo; forty about ±100.
func DefaultEvalConfig() EvalConfig {
	return EvalConfig{Interval: duration(time.Hour), Games: 40, Simulations: 64,
		Anchors:    []string{"first", "previous", "greedy", "ab1", "ab2", "hachu"},
		HaChuDepth: 1, Concurrency: 1, Threads: 1, OpeningPly: 6}
}

// DefaultGatingConfig: off; when on, SPRT [0, 35] Elo at 5%/5%, at most
// 400 games of 64 playouts per move.
func DefaultGatingConfig() GatingConfig {
	return GatingConfig{Games: 400, Simulations: 64, Elo0: 0, Elo1: 35, Alpha: 0.05, Beta: 0.05, Concurrency: 1, Threads: 1}
}

func (c EvalConfig) validate() error {
	if c.Interval < 0 || c.Games < 0 || c.Simulations < 0 || c.Concurrency < 0 || c.Threads < 0 || c.HaChuDepth < 0 {
		return errors.New("eval: negative setting")
	}
	if c.Interval > 0 && (c.Games < 2 || c.Simulations < 1) {
		return errors.New("eval: games must be at least 2 and simulations at least 1")
	}
	for _, a := range c.Anchors {
		if !validAnchor(a) {
			return fmt.Errorf("eval: unknown anchor %q (first, previous, greedy, random, ab1..ab9, hachu)", a)
		}
	}
	return nil
}

func (c GatingConfig) sprt() *arena.SPRT {
	return &arena.SPRT{Elo0: c.Elo0, Elo1: c.Elo1, Alpha: c.Alpha, Beta: c.Beta}
}

func (c GatingConfig) validate() error {
	if !c.Enabled {
		return nil
	}
	if c.Games < 2 || c.Simulations < 1 || c.Concurrency < 0 || c.Threads < 0 {
		return errors.New("gating: games must be at least 2, simulations at least 1")
	}
	return c.sprt().Validate()
}

// bestFile names the checkpoint self-play uses under gating: best.json
// ({"name", "step"}) beside a copy of its file, best.ckpt, so that pruning
// cannot take it away.
const (
	bestJSON   = "best.json"
	bestCkpt   = "best.ckpt"
	anchorsDir = "anchors"
)

// bestRecord is best.json.
type bestRecord struct {
	Name string    `json:"name"`
	Step int64     `json:"step"`
	Time time.Time `json:"time"`
}

// readBest returns the run's best checkpoint under gating; ok is false
// before the first decision.
func readBest(dir string) (checkpoints.Entry, bool, error) {
	data, err := os.ReadFile(filepath.Join(dir, bestJSON))
	if os.IsNotExist(err) {
		return checkpoints.Entry{}, false, nil
	}
	if err != nil {
		return checkpoints.Entry{}, false, err
	}
	var b bestRecord
	if err := json.Unmarshal(data, &b); err != nil {
		return checkpoints.Entry{}, false, fmt.Errorf("%s: %w", bestJSON, err)
	}
	return checkpoints.Entry{Name: b.Name, Step: b.Step, Path: filepath.Join(dir, bestCkpt)}, true, nil
}

// copyAtomic copies a checkpoint file (atomically, fsynced).
func copyAtomic(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return encode.WriteAtomic(dst, data)
}

// judge runs the evaluations and gating decisions of a run beside
// training: it sees each new checkpoint, and plays its matches on its own
// networks and goroutines.
type judge struct {
	cfg     RunConfig
	dir     string
	rules   rules.Config
	store   *checkpoints.Store
	metrics *Metrics
	log     *slog.Logger
	evalLog *report.Appender
	gateLog *report.Appender
	// promote, under gating, hands the new best network to self-play.
	promote func(e checkpoints.Entry, net *model.Net)

	newCkpt chan checkpoints.Entry
	mu      sync.Mutex
	best    checkpoints.Entry
	hasBest bool
	last    int64 // step of the last evaluated checkpoint
}

func newJudge(cfg RunConfig, dir string, store *checkpoints.Store, m *Metrics, log *slog.Logger) (*judge, error) {
	rc, err := cfg.rulesConfig()
	if err != nil {
		return nil, err
	}
	j := &judge{cfg: cfg, dir: dir, rules: rc, store: store, metrics: m, log: log, last: -1,
		evalLog: report.NewAppender(dir, report.EvalLog), gateLog: report.NewAppender(dir, report.GatingLog),
		newCkpt: make(chan checkpoints.Entry, 1)}
	if j.best, j.hasBest, err = readBest(dir); err != nil {
		return nil, err
	}
	evals, damaged, err := report.ReadLog[report.EvalEntry](dir, report.EvalLog)
	if err != nil {
		return nil, err
	}
	if damaged > 0 {
		log.Warn("damaged lines in the evaluation log were skipped", "log", report.EvalLog, "lines", damaged)
	}
	if len(evals) > 0 {
		j.last = evals[len(evals)-1].Step
	}
	return j, nil
}

// active reports whether the judge has anything to do.
func (j *judge) active() bool {
	return j.cfg.Gating.Enabled || j.cfg.Eval.Interval > 0
}

// checkpoint tells the judge about a new checkpoint (never blocks: a
// newer one replaces one not yet seen).
func (j *judge) checkpoint(e checkpoints.Entry) {
	for {
		select {
		case j.newCkpt <- e:
			return
		default:
			select {
			case <-j.newCkpt:
			default:
			}
		}
	}
}

// bestEntry returns the checkpoint self-play should use under gating.
func (j *judge) bestEntry() (checkpoints.Entry, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.best, j.hasBest
}

// init keeps the first checkpoint as an anchor and, under gating, makes
// the latest checkpoint the best if there is none yet (a fresh run, or
// gating turned on in a running one). Call it before self-play picks its
// network.
func (j *judge) init() error {
	if !j.active() {
		return nil
	}
	if err := j.keepFirst(); err != nil {
		return fmt.Errorf("keeping the first checkpoint as an anchor: %w", err)
	}
	if j.cfg.Gating.Enabled && !j.hasBest {
		latest, err := j.store.Latest()
		if errors.Is(err, checkpoints.ErrNone) {
			return nil
		}
		if err != nil {
			return err
		}
		return j.setBest(latest, nil)
	}
	return nil
}

// run evaluates and gates until ctx ends.
func (j *judge) run(ctx context.Context) {
	if !j.active() {
		return
	}
	if err := j.init(); err != nil {
		j.log.Warn("evaluation setup failed", "err", err)
	}
	var tick <-chan time.Time
	if iv := time.Duration(j.cfg.Eval.Interval); iv > 0 {
		t := time.NewTicker(iv)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case e := <-j.newCkpt:
			if j.cfg.Gating.Enabled {
				if err := j.gate(ctx, e); err != nil && ctx.Err() == nil {
					j.log.Error("gating failed", "candidate", e.Name, "err", err)
				}
			}
		case <-tick:
			latest, err := j.store.Latest()
			if err != nil || latest.Step == j.last {
				continue
			}
			if err := j.evaluate(ctx, latest); err != nil && ctx.Err() == nil {
				j.log.Error("evaluation failed", "checkpoint", latest.Name, "err", err)
			}
		}
	}
}

// setBest records a new best checkpoint (best.json and its copy) and
// hands it to self-play when net is given.
func (j *judge) setBest(e checkpoints.Entry, net *model.Net) error {
	if e.Path != filepath.Join(j.dir, bestCkpt) {
		if err := copyAtomic(e.Path, filepath.Join(j.dir, bestCkpt)); err != nil {
			return err
		}
	}
	data, _ := json.Marshal(bestRecord{Name: e.Name, Step: e.Step, Time: time.Now().UTC()})
	if err := encode.WriteAtomic(filepath.Join(j.dir, bestJSON), append(data, '\n')); err != nil {
		return err
	}
	j.mu.Lock()
	j.best, j.hasBest = checkpoints.Entry{Name: e.Name, Step: e.Step, Path: filepath.Join(j.dir, bestCkpt)}, true
	j.mu.Unlock()
	j.metrics.bestStep.Set(float64(e.Step))
	if net != nil && j.promote != nil {
		j.promote(e, net)
	}
	return nil
}

// match plays a match of cfg between entrants and returns the standings.
func (j *judge) match(ctx context.Context, cfg arena.Config, entrants ...arena.Entrant) (*arena.Standings, error) {
	cfg.Rules, cfg.Log = j.rules, j.log
	m, err := arena.New(cfg, entrants...)
	if err != nil {
		return nil, err
	}
	return m.Run(ctx)
}

// gate plays candidate against the best by SPRT and promotes it if it
// wins.
func (j *judge) gate(ctx context.Context, cand checkpoints.Entry) error {
	best, ok := j.bestEntry()
	if !ok || cand.Step <= best.Step {
		if !ok {
			return j.setBest(cand, nil)
		}
		return nil
	}
	g := j.cfg.Gating
	nets, err := newNetworks("", j.cfg.Variant, min(64, 8*max(1, g.Concurrency)), g.Threads)
	if err != nil {
		return err
	}
	defer nets.close()
	ce, _, _, err := nets.evaluator(cand.Path)
	if err != nil {
		return err
	}
	be, _, _, err := nets.evaluator(best.Path)
	if err != nil {
		return err
	}
	b := mcts.Budget{Simulations: g.Simulations}
	candName, bestName := cand.Name, best.Name
	if candName == bestName {
		bestName += "-best"
	}
	j.log.Info("gating", "candidate", candName, "best", bestName)
	dir := filepath.Join(j.dir, "gating", cand.Name)
	st, err := j.match(ctx, arena.Config{Games: g.Games, Concurrency: g.Concurrency, Seed: uint64(cand.Step), SPRT: g.sprt(), Dir: dir, Event: "gating"},
		arena.NewSearcher(candName, ce, b), arena.NewSearcher(bestName, be, b))
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err() // cut short: no decision
	}
	sc := st.Score(0, 1)
	decision := map[arena.Decision]string{arena.AcceptH1: "accept", arena.AcceptH0: "reject", arena.Continue: "inconclusive"}[st.SPRT.Decision]
	entry := report.GatingEntry{Time: time.Now().UTC(), Candidate: cand.Name, Best: best.Name, Games: sc.Games(), Wins: sc.Wins,
		Draws: sc.Draws, Losses: sc.Losses, LLR: st.SPRT.LLR, Decision: decision, Promoted: decision == "accept"}
	j.metrics.gating(decision, st.SPRT.LLR)
	j.log.Info("gating decision", "candidate", cand.Name, "best", best.Name, "score", sc.String(), "llr", st.SPRT.LLR, "decision", decision)
	if entry.Promoted {
		net, err := loadNet(cand, j.cfg.Variant)
		if err != nil {
			return err
		}
		if err := j.setBest(cand, net); err != nil {
			return err
		}
	}
	return j.gateLog.Append(entry)
}

// evaluate plays the latest checkpoint against each anchor.
func (j *judge) evaluate(ctx context.Context, latest checkpoints.Entry) error {
	ev := j.cfg.Eval
	nets, err := newNetworks("", j.cfg.Variant, min(64, 8*max(1, ev.Concurrency)), ev.Threads)
	if err != nil {
		return err
	}
	defer nets.close()
	le, _, _, err := nets.evaluator(latest.Path)
	if err != nil {
		return err
	}
	b := mcts.Budget{Simulations: ev.Simulations}
	me := arena.NewSearcher(latest.Name, le, b)
	for _, a := range ev.Anchors {
		opp, err := j.anchor(a, latest, nets, b)
		if err != nil {
			return err
		}
		if opp == nil {
			continue
		}
		dir := filepath.Join(j.dir, "eval", latest.Name+"-vs-"+opp.Name())
		st, err := j.match(ctx, arena.Config{Games: ev.Games, Concurrency: ev.Concurrency, Seed: uint64(latest.Step), OpeningPlies: ev.OpeningPly, Dir: dir, Event: "evaluation"}, me, opp)
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		sc := st.Score(0, 1)
		elo, lo, hi := arena.EloInterval(sc)
		entry := report.EvalEntry{Time: time.Now().UTC(), Step: latest.Step, Checkpoint: latest.Name, Opponent: opp.Name(),
			Games: sc.Games(), Wins: sc.Wins, Draws: sc.Draws, Losses: sc.Losses, Elo: finiteElo(elo), EloLow: finiteElo(lo), EloHigh: finiteElo(hi)}
		if err := j.evalLog.Append(entry); err != nil {
			return err
		}
		j.metrics.eval(entry)
		j.log.Info("evaluation", "checkpoint", latest.Name, "opponent", opp.Name(), "score", sc.String(), "elo", fmtElo(elo), "low", fmtElo(lo), "high", fmtElo(hi))
	}
	j.last = latest.Step
	return j.keepPrevious(latest)
}
