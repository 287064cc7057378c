package selfplay

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"chuzero/encode"
	"chuzero/mcts"
	"chuzero/rules"
)

// game is one self-play game in progress, owned by one goroutine.
type game struct {
	r         *Runner
	cfg       *Config
	seed      uint64
	rng       *rand.Rand
	search    *mcts.Search
	g         *rules.Game
	rec       *Record
	samples   []encode.Sample // written positions only
	tr        *trace
	resign    *resignTracker
	threshold float64 // this game's resignation threshold
	full      int     // playouts of a full and of a cheap search (Config.SimulationsAt)
	cheap     int
	teacher   TeacherGame // a warm-start game's player (nil: the search plays)
}

// playGame plays game index i to its end.
func (r *Runner) playGame(ctx context.Context, index uint64) (finished, error) {
	cfg := &r.cfg
	ev := r.eval.Load()
	seed := GameSeed(cfg.Seed, index)
	rng := rand.New(rand.NewPCG(seed, 0x73656c66))
	sc := cfg.Search
	sc.Quiescence = cfg.QuiescenceAt(ev.step)
	s, err := mcts.New(sc, ev.e, seed)
	if err != nil {
		return finished{}, err
	}
	gm := &game{r: r, cfg: cfg, seed: seed, rng: rng, search: s, g: rules.NewGame(r.rules.StartPosition()),
		tr: newTrace(r.rules), resign: newResignTracker(cfg.ResignConsecutive), threshold: r.ResignThreshold()}
	gm.full, gm.cheap = cfg.SimulationsAt(ev.step)
	gm.rec = &Record{ID: fmt.Sprintf("%016x", seed), Index: index, Seed: seed, Variant: cfg.Rules.Variant.String(),
		Rules: cfg.Rules.String(), Start: gm.g.Position().SFEN(), Evaluator: ev.name, Started: time.Now().UTC(),
		ResignAllowed: rng.Float64() >= cfg.NoResignFraction, ResignThreshold: gm.threshold, Quiescence: sc.Quiescence}
	if err := gm.openTeacher(ctx, index); err != nil {
		return finished{}, err
	}
	if gm.teacher != nil {
		defer gm.teacher.Close()
	}
	began := time.Now()
	end, err := gm.play(ctx)
	if err != nil {
		return finished{}, err
	}
	gm.rec.Seconds = time.Since(began).Seconds()
	return gm.finish(end), nil
}

// play searches and plays moves until the game ends, a side resigns or
// the self-play cap stops it.
func (gm *game) play(ctx context.Context) (*gameEnd, error) {
	plyCap := gm.cfg.plyCap()
	for {
		p := gm.g.Position()
		gm.tr.position(p)
		if res := gm.g.Result(); res.Over() {
			return &gameEnd{result: res, final: p}, nil
		}
		if gm.g.Len() >= plyCap {
			return gm.capped(ctx, p)
		}
		m, q, err := gm.move(ctx)
		if err != nil {
			return nil, err
		}
		side := p.SideToMove()
		if gm.resigns(side, q) {
			return &gameEnd{result: rules.WinFor(side.Other(), rules.ReasonResign), final: p}, nil
		}
		gm.rec.Moves = append(gm.rec.Moves, p.MoveString(m))
		if err := gm.g.Play(m); err != nil {
			return nil, err
		}
	}
}

// move chooses the move of the current position, by search or, in a
// warm-start game, by the teacher, and records it; q is the chosen move's
// value for the side to move (the resignation test's).
func (gm *game) move(ctx context.Context) (m rules.Move, q float64, err error) {
	if gm.teacher != nil {
		return gm.teach(ctx)
	}
	res, full, err := gm.searchMove(ctx)
	if err != nil {
		return rules.NoMove, 0, err
	}
	m = gm.search.Choose(res, gm.g.Len(), full && gm.cfg.Gumbel)
	return m, valueOf(res, m), nil
}

// searchMove searches the current position and records the search: in
// the record, the trace, and as a sample if the position is written
// (every full search, a CheapSampleFraction share of the cheap ones).
func (gm *game) searchMove(ctx context.Context) (*mcts.Result, bool, error) {
	cfg := gm.cfg
	full := gm.rng.Float64() < cfg.FullSearchFraction
	write := full || gm.rng.Float64() < cfg.CheapSampleFraction
	opts := mcts.Options{Simulations: gm.cheap}
	if full {
		opts = mcts.Options{Simulations: gm.full, Noise: !cfg.Gumbel, Gumbel: cfg.Gumbel}
	}
	res, err := gm.search.Run(ctx, gm.g, opts)
	if err != nil {
		return nil, false, err
	}
	if gm.r.OnMove != nil {
		gm.r.OnMove(full, res.Simulations)
	}
	p := gm.g.Position()
	pl := plyTrace{side: p.SideToMove(), value: RootValue(res), sample: -1}
	if full {
		if pl.policy, err = PolicyTarget(gm.r.spec, p, res); err != nil {
			return nil, false, err
		}
	}
	gm.record(pl, write, full, RootVisits(res), res.Simulations)
	return res, full, nil
}

// PolicyTarget returns a search's policy over the root's moves as a
// sample's target, indexed by spec in p's own frame (the side to move's).
func PolicyTarget(spec *encode.Spec, p *rules.Position, res *mcts.Result) ([]encode.PolicyEntry, error) {
	pol := make([]encode.PolicyEntry, 0, len(res.Moves))
	for i, m := range res.Moves {
		idx := spec.Index(p, m)
		if idx < 0 {
			return nil, fmt.Errorf("selfplay: move %s has no policy index", p.MoveString(m))
		}
		pol = append(pol, encode.PolicyEntry{Index: uint32(idx), Prob: res.Policy[i]})
	}
	return pol, nil
}

// RootValue returns a search's root value for the side to move, clamped to
// [-1, 1] as a sample stores it.
func RootValue(res *mcts.Result) float32 { return float32(max(-1, min(1, res.RootValue))) }

// RootVisits returns the visits of a search's root moves.
func RootVisits(res *mcts.Result) uint32 {
	var visits uint32
	for _, v := range res.Visits {
		visits += uint32(v)
	}
	return visits
}

// record keeps the search (or the teacher's move) of the current
// position: in the trace, the record, and as a sample if write.
func (gm *game) record(pl plyTrace, write, full bool, visits uint32, sims int) {
	if write {
		smp := encode.NewSample(gm.g, gm.seed)
		smp.FullSearch, smp.RootValue, smp.RootVisits, smp.Policy = full, pl.value, visits, pl.policy
		pl.sample = len(gm.samples)
		gm.samples = append(gm.samples, smp)
	}
	gm.tr.plies = append(gm.tr.plies, pl)
	rec := gm.rec
	rec.Values = append(rec.Values, pl.value)
	rec.Visits = append(rec.Visits, int32(visits))
	rec.Full = append(rec.Full, full)
	rec.Simulations += sims
}

// resigns tracks side's chosen-move value q and reports whether the side
// resigns now; in a game where nobody may, it notes the first time a side
// would have.
func (gm *game) resigns(side rules.Color, q float64) bool {
	if gm.resign.add(side, q) >= gm.threshold {
		return false
	}
	if gm.rec.ResignAllowed {
		return true
	}
	if gm.rec.WouldResign == nil {
		gm.rec.WouldResign = &WouldResign{Side: side.String(), Ply: gm.g.Len()}
	}
	return false
}

// finish labels the samples and completes the record.
func (gm *game) finish(end *gameEnd) finished {
	gm.tr.finish(gm.samples, end)
	rec := gm.rec
	rec.Plies = gm.g.Len()
	rec.Samples = len(gm.samples)
	res := end.result
	if end.playout.Finished() { // the record is the capped game; its playout's result labels it
		res = capDraw
	}
	rec.Result, rec.Reason, rec.Playout = res.PGN(), res.Reason.String(), end.playout
	if w, ok := res.Winner(); ok {
		rec.Winner = w.String()
	}
	if end.truncated || end.playout.Finished() {
		rec.Truncated = true
		rec.EndValue = float32(end.valueFor(rules.Sente))
	}
	f := finished{rec: rec, samples: gm.samples}
	if !rec.ResignAllowed {
		obs := gm.resign.observations(end.result)
		rec.ResignLow = &[2]float32{float32(obs[rules.Sente].Low), float32(obs[rules.Gote].Low)}
		f.resignObs = &obs
	}
	return f
}
