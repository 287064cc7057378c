package selfplay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"chuzero/encode"
	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/transport"
)

// Runner plays self-play games concurrently with one evaluator (shared,
// typically a batching network evaluator) and writes their samples and
// records. The evaluator can be swapped between games.
type Runner struct {
	cfg   Config
	rules *rules.Rules
	spec  *encode.Spec
	eval  atomic.Pointer[evalRef]
	next  atomic.Uint64 // next game index
	stats Stats
	mu    sync.Mutex // guards stats and calib
	calib resignCalibrator
	// threshold holds the live resignation threshold (float64 bits).
	threshold atomic.Uint64

	// OnGame, if set, is called (from the writer goroutine) for every game
	// once its files are written.
	OnGame func(*Record)
	// Publisher, if set before Run, takes the finished batches instead of
	// the run directory Config.Run (transport.Dir).
	Publisher transport.Publisher
	// OnMove, if set, is called after every search (from the game's
	// goroutine): full search or not, simulations.
	OnMove func(full bool, sims int)
	// RunResign, if set before Run, gives the run-wide resignation
	// threshold (NATS: the trainer's, calibrated over every worker's
	// games); while it reports ok, games starting use it instead of the
	// runner's own calibration.
	RunResign func() (threshold float64, ok bool)
	// Teacher, if set before Run, plays the run's first
	// Config.WarmStartGames games (by game index) instead of the search.
	Teacher Teacher
	// Playout, if set before Run, plays on the games the self-play cap
	// stops (Config.CappedPlayout); a run that asks for playouts without
	// one is refused when it starts.
	Playout Teacher
}

type evalRef struct {
	e    mcts.Evaluator
	name string
	step int64 // the network's training step (0: uniform or unknown)
}

// Stats counts what a runner has done.
type Stats struct {
	Games         int64
	Positions     int64 // samples written (full searches and the cheap share)
	FullSearches  int64
	Simulations   int64
	Plies         int64
	Results       map[string]int64 // by PGN result
	Reasons       map[string]int64 // by end reason
	Truncated     int64            // games stopped by the self-play ply cap
	Resigned      int64
	ResignChecked int64 // no-resign games in which a side would have resigned (at the game's threshold)
	ResignFalse   int64 // ... and did not lose
	Files         int64
}

// ResignFalsePositiveRate returns ResignFalse / ResignChecked (0 before
// any check).
func (s Stats) ResignFalsePositiveRate() float64 {
	if s.ResignChecked == 0 {
		return 0
	}
	return float64(s.ResignFalse) / float64(s.ResignChecked)
}

// New returns a runner; name labels the evaluator in the records.
func New(cfg Config, e mcts.Evaluator, name string) (*Runner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	rs, err := rules.New(cfg.Rules)
	if err != nil {
		return nil, err
	}
	spec, err := encode.NewSpec(cfg.Rules.Variant, cfg.Encode)
	if err != nil {
		return nil, err
	}
	r := &Runner{cfg: cfg, rules: rs, spec: spec, calib: resignCalibrator{window: cfg.ResignCalibrationGames,
		minGames: cfg.ResignMinGames, target: cfg.ResignTargetFalsePositive, ceiling: cfg.ResignCeiling}}
	r.threshold.Store(math.Float64bits(cfg.ResignThreshold))
	r.stats.Results, r.stats.Reasons = map[string]int64{}, map[string]int64{}
	r.SetEvaluator(e, name, 0)
	return r, nil
}

// SetEvaluator makes games that start from now on use e, the network of
// training step step (which sets their quiescence blend,
// Config.QuiescenceAt).
func (r *Runner) SetEvaluator(e mcts.Evaluator, name string, step int64) {
	r.eval.Store(&evalRef{e, name, step})
}

// ResignThreshold returns the live resignation threshold, which games
// starting now use: the run's (RunResign) if there is one; otherwise
// Config.ResignThreshold until ResignMinGames games without resignation
// have been written, then the calibrated value.
func (r *Runner) ResignThreshold() float64 {
	if r.RunResign != nil {
		if t, ok := r.RunResign(); ok {
			return t
		}
	}
	return math.Float64frombits(r.threshold.Load())
}

// SetFirstGame sets the index of the next game (to continue a run without
// repeating seeds).
func (r *Runner) SetFirstGame(i uint64) { r.next.Store(i) }

// Stats returns a copy of the counters.
func (r *Runner) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.stats
	s.Results, s.Reasons = map[string]int64{}, map[string]int64{}
	for k, v := range r.stats.Results {
		s.Results[k] = v
	}
	for k, v := range r.stats.Reasons {
		s.Reasons[k] = v
	}
	return s
}

// finished is a game ready to be written.
type finished struct {
	rec       *Record
	samples   []encode.Sample
	resignObs *[2]ResignObservation // games without resignation: for the calibration
}

// Run plays games until ctx is done or maxGames have finished (0: no
// limit), then writes what is finished and returns. Games in flight when
// ctx ends are discarded, never half-written.
func (r *Runner) Run(ctx context.Context, maxGames int) error {
	if r.cfg.CappedPlayout > 0 && r.Playout == nil {
		return errors.New("selfplay: capped_playout needs a playout player (Runner.Playout)")
	}
	pub := r.Publisher
	if pub == nil {
		d, err := transport.NewDir(r.cfg.Run)
		if err != nil {
			return err
		}
		pub = d
	}
	w := newWriter(pub, r.cfg.Rules.Variant, r.cfg.GamesPerFile, r.cfg.FlushInterval.D())
	gameCtx, stop := context.WithCancel(ctx)
	defer stop()
	out := make(chan finished, r.cfg.Games)
	var started atomic.Int64
	var wg sync.WaitGroup
	var errOnce sync.Once
	var runErr error
	for i := 0; i < r.cfg.Games; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for gameCtx.Err() == nil {
				if maxGames > 0 && started.Add(1) > int64(maxGames) {
					return
				}
				f, err := r.playGame(gameCtx, r.next.Add(1)-1)
				if err != nil {
					if gameCtx.Err() == nil {
						errOnce.Do(func() { runErr = err; stop() })
					}
					return
				}
				out <- f
			}
		}()
	}
	go func() { wg.Wait(); close(out) }()
	werr := w.run(out, func(f finished) {
		r.count(f)
		if r.OnGame != nil {
			r.OnGame(f.rec)
		}
	}, &r.stats.Files, &r.mu)
	if werr != nil {
		// nothing more can be written: stop the games, and let those
		// finishing now go (the error says why)
		stop()
		drain(out)
		werr = fmt.Errorf("%w: %d finished games: %w", ErrWrite, len(w.pending), werr)
	}
	if runErr != nil {
		return runErr
	}
	return werr
}

// count adds a written game to the statistics and, for a game without
// resignation, to the threshold calibration.
func (r *Runner) count(f finished) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := &r.stats
	s.Games++
	s.Positions += int64(len(f.samples))
	s.Plies += int64(f.rec.Plies)
	s.Simulations += int64(f.rec.Simulations)
	for _, full := range f.rec.Full {
		if full {
			s.FullSearches++
		}
	}
	s.Results[f.rec.Result]++
	s.Reasons[f.rec.Reason]++
	if f.rec.Reason == rules.ReasonResign.String() {
		s.Resigned++
	}
	if f.rec.Truncated {
		s.Truncated++
	}
	if f.resignObs != nil {
		if t, ok := r.calib.add(*f.resignObs); ok {
			r.threshold.Store(math.Float64bits(t))
		}
	}
	if f.rec.WouldResign != nil {
		s.ResignChecked++
		if f.rec.FalsePositive() {
			s.ResignFalse++
		}
	}
}

// GameSeed returns the seed of game index i of a run seeded with seed.
func GameSeed(seed, i uint64) uint64 {
	return rules.Mix64(seed ^ (i+1)*rules.Golden)
}
