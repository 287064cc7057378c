package training

import (
	"context"
	"fmt"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/arena"
	"chuzero/selfplay/runconfig"
)

// match plays a match of cfg between entrants and returns the standings.
func (j *Judge) match(ctx context.Context, cfg arena.Config, entrants ...arena.Entrant) (*arena.Standings, error) {
	cfg.Rules, cfg.Log = j.Rules, j.Log
	m, err := arena.New(cfg, entrants...)
	if err != nil {
		return nil, err
	}
	return m.Run(ctx)
}

// openNetworks opens the networks of a match of concurrency games and
// the evaluators of entries in them; the caller closes the networks.
func (j *Judge) openNetworks(concurrency, threads int, entries ...checkpoints.Entry) (MatchNetworks, []mcts.Evaluator, error) {
	nets, err := j.Networks(arena.MatchBatch(concurrency), threads)
	if err != nil {
		return nil, nil, err
	}
	evs := make([]mcts.Evaluator, len(entries))
	for i, e := range entries {
		if evs[i], err = nets.Evaluator(e); err != nil {
			nets.Close()
			return nil, nil, err
		}
	}
	return nets, evs, nil
}

// gate plays candidate against the best by SPRT and promotes it if it
// wins.
func (j *Judge) gate(ctx context.Context, cand checkpoints.Entry) error {
	best, ok := j.Best()
	if !ok {
		return j.setBest(cand, false)
	}
	if cand.Step <= best.Step {
		return nil
	}
	g := j.Gating
	nets, evs, err := j.openNetworks(g.Concurrency, g.Threads, cand, best)
	if err != nil {
		return err
	}
	defer nets.Close()
	ce, be := evs[0], evs[1]
	b := mcts.Budget{Simulations: g.Simulations}
	candName, bestName := cand.Name, best.Name
	if candName == bestName {
		bestName += "-best"
	}
	j.Log.Info("gating", "candidate", candName, "best", bestName)
	cfg := arena.Config{Games: g.Games, Concurrency: g.Concurrency, Seed: uint64(cand.Step), SPRT: gatingSPRT(g), Dir: j.Dir.Gating(cand.Name), Event: "gating"}
	st, err := j.match(ctx, cfg, arena.NewSearcher(candName, ce, b), arena.NewSearcher(bestName, be, b))
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err() // cut short: no decision
	}
	res := GateResult{Candidate: cand, Best: best, Score: st.Score(0, 1), LLR: st.SPRT.LLR,
		Decision: map[arena.Decision]string{arena.AcceptH1: "accept", arena.AcceptH0: "reject", arena.Continue: "inconclusive"}[st.SPRT.Decision]}
	j.Log.Info("gating decision", "candidate", cand.Name, "best", best.Name, "score", res.Score.String(), "llr", res.LLR, "decision", res.Decision)
	if res.Promoted() {
		if err := j.setBest(cand, true); err != nil {
			return err
		}
	}
	if j.OnGate != nil {
		return j.OnGate(res)
	}
	return nil
}

// evaluate plays the latest checkpoint against each anchor, then pins it
// as the next evaluation's "previous".
func (j *Judge) evaluate(ctx context.Context, latest checkpoints.Entry) error {
	ev := j.Eval
	nets, evs, err := j.openNetworks(ev.Concurrency, ev.Threads, latest)
	if err != nil {
		return err
	}
	defer nets.Close()
	le := evs[0]
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
		cfg := arena.Config{Games: ev.Games, Concurrency: ev.Concurrency, Seed: uint64(latest.Step), OpeningPlies: ev.OpeningPly,
			Dir: j.Dir.Eval(latest.Name + "-vs-" + opp.Name()), Event: "evaluation"}
		st, err := j.match(ctx, cfg, me, opp)
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		res := EvalResult{Checkpoint: latest, Opponent: opp.Name(), Score: st.Score(0, 1)}
		res.Elo, res.EloLow, res.EloHigh = arena.EloInterval(res.Score)
		j.Log.Info("evaluation", "checkpoint", latest.Name, "opponent", opp.Name(), "score", res.Score.String(),
			"elo", arena.FormatElo(res.Elo), "low", arena.FormatElo(res.EloLow), "high", arena.FormatElo(res.EloHigh))
		if j.OnEval != nil {
			if err := j.OnEval(res); err != nil {
				return err
			}
		}
	}
	j.LastEvaluated = latest.Step
	return j.Dir.Pin("previous", latest)
}

// anchor returns the entrant of anchor a for evaluating latest, or nil
// when it does not apply (the checkpoint is the anchor itself, or the
// variant or machine lacks it).
func (j *Judge) anchor(a string, latest checkpoints.Entry, nets MatchNetworks, b mcts.Budget) (arena.Entrant, error) {
	switch a {
	case "greedy":
		return arena.Greedy{}, nil
	case "random":
		return arena.Random{}, nil
	case "first", "previous":
		e, err := j.Dir.Pinned(a)
		if err != nil || e.Step == latest.Step {
			return nil, nil // none yet (no earlier evaluation), or the same network
		}
		ev, err := nets.Evaluator(e)
		if err != nil {
			return nil, err
		}
		return arena.NewSearcher(a, ev, b), nil
	case "hachu":
		if j.Rules.Variant != rules.Chu {
			return nil, nil // Debian's HaChu 0.21 plays Chu only (its Sho setup fails)
		}
		if _, err := arena.LookPath("hachu"); err != nil {
			return nil, nil
		}
		return &arena.CECPClient{Label: fmt.Sprintf("hachu-d%d", j.Eval.HaChuDepth), Command: []string{"hachu"}, Depth: j.Eval.HaChuDepth}, nil
	}
	if d, ok := runconfig.AnchorDepth(a); ok {
		return arena.AlphaBeta{Depth: d}, nil
	}
	return nil, fmt.Errorf("eval: unknown anchor %q", a)
}
