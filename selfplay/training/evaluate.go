package training

import (
	"log/slog"
	"time"

	"chuzero/checkpoints"
	"chuzero/selfplay/arena"
)

// newJudge wires the run's judge (Judge: evaluation against the
// anchors and gating) to the run: networks loaded from checkpoint files,
// logs/eval.jsonl and logs/gating.jsonl, and the metrics. The caller sets
// Promote where self-play should follow a promotion.
func newJudge(cfg Config, run checkpoints.Run, store *checkpoints.Store, m *Metrics, log *slog.Logger) (*Judge, error) {
	rc, err := cfg.RulesConfig()
	if err != nil {
		return nil, err
	}
	evalLog, gateLog := run.Appender(checkpoints.EvalLog), run.Appender(checkpoints.GatingLog)
	j := &Judge{Eval: cfg.Eval, Gating: cfg.Gating, Rules: rc, Dir: run, Store: store, Log: log,
		LastEvaluated: -1,
		Networks: func(batch, threads int) (MatchNetworks, error) {
			return NewNetworks(checkpoints.Run{}, cfg.Variant, batch, threads)
		},
		OnEval: func(r EvalResult) error {
			e := evalEntry(r)
			if err := evalLog.Append(e); err != nil {
				return err
			}
			m.eval(e)
			return nil
		},
		OnGate: func(r GateResult) error {
			m.gating(r.Decision, r.LLR)
			if r.Promoted() {
				m.bestStep.Set(float64(r.Candidate.Step))
			}
			return gateLog.Append(gateEntry(r))
		},
	}
	if err := j.Open(); err != nil {
		return nil, err
	}
	evals, damaged, err := checkpoints.ReadLog[checkpoints.EvalEntry](run, checkpoints.EvalLog)
	if err != nil {
		return nil, err
	}
	if damaged > 0 && log != nil {
		log.Warn("damaged lines in the evaluation log were skipped", "log", checkpoints.EvalLog, "lines", damaged)
	}
	if len(evals) > 0 {
		j.LastEvaluated = evals[len(evals)-1].Step
	}
	return j, nil
}

// evalEntry is the log line of an evaluation match.
func evalEntry(r EvalResult) checkpoints.EvalEntry {
	sc := r.Score
	return checkpoints.EvalEntry{Time: time.Now().UTC(), Step: r.Checkpoint.Step, Checkpoint: r.Checkpoint.Name, Opponent: r.Opponent,
		Games: sc.Games(), Wins: sc.Wins, Draws: sc.Draws, Losses: sc.Losses,
		Elo: arena.Finite(r.Elo), EloLow: arena.Finite(r.EloLow), EloHigh: arena.Finite(r.EloHigh)}
}

// gateEntry is the log line of a gating decision.
func gateEntry(r GateResult) checkpoints.GatingEntry {
	sc := r.Score
	return checkpoints.GatingEntry{Time: time.Now().UTC(), Candidate: r.Candidate.Name, Best: r.Best.Name, Games: sc.Games(),
		Wins: sc.Wins, Draws: sc.Draws, Losses: sc.Losses, LLR: r.LLR, Decision: r.Decision, Promoted: r.Promoted()}
}
