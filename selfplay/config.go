package selfplay

import (
	"errors"
	"fmt"
	"math"
	"time"

	"chuzero/checkpoints"
	"chuzero/checkpoints/jsondur"
	"chuzero/encode"
	"chuzero/mcts"
	"chuzero/rules"
)

// Config configures self-play.
type Config struct {
	Rules  rules.Config   `json:"-"` // the game and its options
	Encode encode.Options `json:"-"` // the samples' encoding (history planes)
	Search mcts.Config    `json:"-"`

	Games int `json:"games"` // games played at the same time (one goroutine each)

	// Playout-cap randomization (KataGo): a move gets a full search of
	// FullSimulations (its policy becomes a training target) with
	// probability FullSearchFraction, otherwise a cheap search of
	// CheapSimulations whose move is recorded for the value target only.
	FullSimulations  int `json:"full_simulations"`
	CheapSimulations int `json:"cheap_simulations"`
	// A progressive playout budget (MiniZero): with SimulationRampSteps
	// > 0, a game played with the network of training step s searches
	// with the budgets above scaled by f = SimulationStartFraction +
	// (1-SimulationStartFraction)·min(1, s/SimulationRampSteps), at least
	// one playout: fewer playouts while the network knows little, all of
	// them once it has trained that long. 0 steps: the fixed budgets.
	SimulationStartFraction float64 `json:"simulation_start_fraction"`
	SimulationRampSteps     int64   `json:"simulation_ramp_steps"`
	FullSearchFraction      float64 `json:"full_search_fraction"`
	// Gumbel: full searches use the Gumbel root search (better at small
	// budgets); otherwise PUCT with Dirichlet noise and temperature.
	Gumbel bool `json:"gumbel"`
	// CheapSampleFraction is the share of cheap-search positions written as
	// value-only samples (no policy target), drawn per position from the
	// game's generator; every full-search position is written. Record
	// files keep every ply either way.
	CheapSampleFraction float64 `json:"cheap_sample_fraction"`

	// MaxPlies caps self-play games well below the rules' own MaxPlies (0:
	// the rules' cap only). A game reaching it is truncated: its record is
	// a draw by "max plies" marked truncated, and its samples are marked
	// Truncated, with Outcome draw and EndValue the final search's root
	// value (for each sample's side to move), blended with the material
	// by CappedMaterialWeight, as the value target.
	MaxPlies int `json:"max_plies"`
	// CappedMaterialWeight blends the material at the cap into a truncated
	// game's value target: (1-w)·search + w·tanh(CappedMaterialScale·m), m
	// the material balance for the side (piece-table values, the ones the
	// greedy player and the material head use, divided by one side's
	// starting army). 0 keeps the search value alone, which early in a run
	// is the untrained network's guess: in Sho three positions in four come
	// from capped games. This is the one place the piece table enters a
	// value target; it is a bootstrap, not a rule. Default 1.
	CappedMaterialWeight float64 `json:"capped_material_weight"`
	// CappedMaterialScale maps a material balance to a value (3: a fifth
	// of the army ahead is worth 0.54; in the decisive games of a 45-minute
	// Sho run a lead of more than 15 % of the army at the end won 77 % and
	// lost 13 %, an expected value of 0.64).
	CappedMaterialScale float64 `json:"capped_material_scale"`
	// CappedQuiescence resolves the material at the cap by the capture
	// search (qsearch, to the search's quiescence_depth and budget) before
	// it becomes a value: tanh(CappedMaterialScale·qs/army), ±1 for a
	// mate found in the exchanges. False counts the pieces on the board
	// as they stand, so a piece hanging at the cap counts for the side
	// about to lose it. Default true.
	CappedQuiescence bool `json:"capped_quiescence"`
	// CappedPlayout plays a game the cap stopped on for up to this many
	// more plies (and at most to the rules' cap) with the playout player
	// (Runner.Playout; in a command, the alpha-beta player at
	// CappedPlayoutDepth) on both sides, no search and no samples: if the
	// rules end it there (a mate, a repetition), its samples are labelled
	// by that result as a finished game's; if not, by the capped label
	// above at the cap. The record stays the capped game, with the
	// playout's moves and result beside it (Record.Playout). An outcome
	// signal for Sho, where nine games in ten stop at the cap; it costs
	// the playout's moves (about 3 ms each at depth 3 in Sho). 0 (the
	// default): none.
	CappedPlayout      int `json:"capped_playout"`
	CappedPlayoutDepth int `json:"capped_playout_depth"`

	// The quiescence blend of the games' searches (mcts.Config.Quiescence,
	// the section's "quiescence" key, is its value at step 0) anneals
	// linearly to QuiescenceFinal over the first QuiescenceSteps training
	// steps of the network a game plays with, and stays there (0 steps:
	// constant).
	QuiescenceFinal float64 `json:"quiescence_final"`
	QuiescenceSteps int64   `json:"quiescence_steps"`

	// WarmStartGames: the run's first games (by index) are played by a
	// teacher (Runner.Teacher; in a command, the alpha-beta player at
	// WarmStartDepth), whose moves are their positions' policy targets
	// and whose scores their root values: an opt-in warm start from a
	// classical player, knowledge beyond the rules. 0 (the default): none.
	WarmStartGames int `json:"warm_start_games"`
	WarmStartDepth int `json:"warm_start_depth"`

	// Resignation: a side resigns when the value (Q, for the side to
	// move) of the move it chose has stayed below the live threshold for
	// ResignConsecutive of its searches in a row. In a fraction
	// NoResignFraction of games nobody may resign; they measure how often
	// a resignation would have been wrong and calibrate the threshold.
	//
	// The live threshold starts at ResignThreshold. Once ResignMinGames
	// no-resign games have finished, it becomes the highest (most eager)
	// threshold, at most ResignCeiling, under which the would-be
	// resignations of the last ResignCalibrationGames no-resign games were
	// wrong (the side did not lose) less than ResignTargetFalsePositive of
	// the time. See CalibrateResign.
	ResignThreshold           float64 `json:"resign_threshold"`
	ResignConsecutive         int     `json:"resign_consecutive"`
	NoResignFraction          float64 `json:"no_resign_fraction"`
	ResignCeiling             float64 `json:"resign_ceiling"`
	ResignTargetFalsePositive float64 `json:"resign_target_false_positive"`
	ResignCalibrationGames    int     `json:"resign_calibration_games"`
	ResignMinGames            int     `json:"resign_min_games"`

	Seed uint64 `json:"-"` // every game's seed derives from it and the game's index

	// Output: every GamesPerFile finished games (or every FlushInterval)
	// go into one sample file in the run's samples/ and one record file
	// in its games/, both written atomically.
	Run           checkpoints.Run  `json:"-"`
	GamesPerFile  int              `json:"games_per_file"`
	FlushInterval jsondur.Duration `json:"flush_interval"`

	// The network evaluator a command builds for the games: batches of
	// up to Batch positions, waiting at most BatchWait for one to fill, a
	// cache of Cache answers (0: none), Threads goroutines per network
	// layer (0: every core), BatchWorkers batches evaluated at once (each
	// with Threads goroutines: while one waits for its slowest thread at
	// the end of a layer, the other computes).
	Batch        int              `json:"batch"`
	BatchWait    jsondur.Duration `json:"batch_wait"`
	Cache        int              `json:"cache"`
	Threads      int              `json:"threads"`
	BatchWorkers int              `json:"batch_workers"`
}

// DefaultConfig returns defaults for a CPU run of variant v: 64 games at a
// time with mcts.DefaultLeavesPerBatch leaves in flight each (network
// batches filled from many games rather than by running one search wide),
// the quiescence blend at 1 annealed to mcts.DefaultQuiescence over 1000
// steps (the untrained network's value knows nothing; the capture search
// is the leaves' value until it learns), Gumbel full searches of 32
// playouts on a quarter of the moves (measured against 64 in 20-minute Sho
// runs: twice the games and training rows per hour, and the stronger
// network), cheap searches of 8 with a tenth of them written as value-only
// samples,
// games capped at DefaultMaxPlies(v) with the material at the cap as the
// value target of a capped game (capped_material_weight 1: in a paired
// 60-minute Sho run, with the 150-ply cap, a 3-minute checkpoint interval
// and the fast value anneal, 58.8 % (+61 [+8, +118]) against the old
// defaults), resignation below -0.95 for 4 moves
// in a row with 10% of games forbidden to resign, the threshold calibrated
// (from 20 games on, over the last 200, ceiling -0.8) to 5% false
// positives, 8 games per file; a network evaluator of batches of 64
// waiting 2 ms, with a cache of 200,000 answers.
func DefaultConfig(v rules.VariantID) Config {
	sc := mcts.DefaultConfig()
	sc.Quiescence = 1
	return Config{Rules: rules.DefaultConfig(v), Encode: encode.DefaultOptions(), Search: sc, Games: 64,
		FullSimulations: 32, CheapSimulations: 8, FullSearchFraction: 0.25, Gumbel: true,
		CheapSampleFraction: 0.1, MaxPlies: DefaultMaxPlies(v), CappedMaterialWeight: 1, CappedMaterialScale: 3,
		CappedQuiescence: true, CappedPlayoutDepth: 3, QuiescenceFinal: mcts.DefaultQuiescence, QuiescenceSteps: 1000, WarmStartDepth: 2,
		ResignThreshold: -0.95, ResignConsecutive: 4, NoResignFraction: 0.1,
		ResignCeiling: -0.8, ResignTargetFalsePositive: 0.05, ResignCalibrationGames: 200, ResignMinGames: 20,
		Seed: 1, GamesPerFile: 8, FlushInterval: jsondur.Duration(5 * time.Minute),
		Batch: 64, BatchWait: jsondur.Duration(2 * time.Millisecond), Cache: 200000, BatchWorkers: 1}
}

// DefaultMaxPlies is the default self-play ply cap of variant v: Sho 150
// (measured against 300 with capped games labelled by material: twice the
// games, and the stronger network), Chu 500, Heian 600 (0, the rules' own
// cap, for anything else).
func DefaultMaxPlies(v rules.VariantID) int {
	switch v {
	case rules.Sho:
		return 150
	case rules.Chu:
		return 500
	case rules.Heian:
		return 600
	}
	return 0
}

// QuiescenceAt returns the quiescence blend of a game played with the
// network of training step step: Search.Quiescence annealed linearly to
// QuiescenceFinal over QuiescenceSteps steps.
func (c *Config) QuiescenceAt(step int64) float64 {
	if c.QuiescenceSteps <= 0 {
		return c.Search.Quiescence
	}
	f := min(1, float64(max(step, 0))/float64(c.QuiescenceSteps))
	return c.Search.Quiescence + f*(c.QuiescenceFinal-c.Search.Quiescence)
}

// SimulationsAt returns the full and cheap playouts of a game played with
// the network of training step step (the progressive budget).
func (c *Config) SimulationsAt(step int64) (full, cheap int) {
	if c.SimulationRampSteps <= 0 {
		return c.FullSimulations, c.CheapSimulations
	}
	f := c.SimulationStartFraction + (1-c.SimulationStartFraction)*min(1, float64(max(step, 0))/float64(c.SimulationRampSteps))
	return max(1, int(math.Round(f*float64(c.FullSimulations)))), max(1, int(math.Round(f*float64(c.CheapSimulations))))
}

// plyCap returns the ply at which self-play stops a game: MaxPlies, or
// the rules' cap when that is lower or MaxPlies is 0.
func (c *Config) plyCap() int {
	if c.MaxPlies <= 0 || c.MaxPlies > c.Rules.MaxPlies {
		return c.Rules.MaxPlies
	}
	return c.MaxPlies
}

// Validate reports a problem with c.
func (c Config) Validate() error {
	if err := c.Rules.Validate(); err != nil {
		return err
	}
	if err := c.Encode.Validate(); err != nil {
		return err
	}
	if err := c.Search.Validate(); err != nil {
		return err
	}
	switch {
	case c.Games < 1:
		return fmt.Errorf("selfplay: %d concurrent games", c.Games)
	case c.FullSimulations < 1 || c.CheapSimulations < 1:
		return errors.New("selfplay: simulations must be at least 1")
	case !unit(c.FullSearchFraction) || !unit(c.NoResignFraction) || !unit(c.CheapSampleFraction) ||
		!unit(c.ResignTargetFalsePositive) || !unit(c.CappedMaterialWeight):
		return errors.New("selfplay: fractions must be in [0, 1]")
	case c.WarmStartGames < 0 || (c.WarmStartGames > 0 && c.WarmStartDepth < 1):
		return fmt.Errorf("selfplay: warm_start_games %d needs a warm_start_depth of at least 1, not %d", c.WarmStartGames, c.WarmStartDepth)
	case c.SimulationRampSteps < 0 || (c.SimulationRampSteps > 0 && !(c.SimulationStartFraction > 0 && c.SimulationStartFraction <= 1)):
		return fmt.Errorf("selfplay: simulation_ramp_steps %d needs simulation_start_fraction in (0, 1], not %v",
			c.SimulationRampSteps, c.SimulationStartFraction)
	case !unit(c.QuiescenceFinal) || c.QuiescenceSteps < 0:
		return fmt.Errorf("selfplay: quiescence_final %v must be in [0, 1], quiescence_steps %d not negative",
			c.QuiescenceFinal, c.QuiescenceSteps)
	case c.MaxPlies < 0:
		return fmt.Errorf("selfplay: MaxPlies %d (0 means the rules' cap)", c.MaxPlies)
	case c.CappedPlayout < 0 || (c.CappedPlayout > 0 && c.CappedPlayoutDepth < 1):
		return fmt.Errorf("selfplay: capped_playout %d must not be negative, and needs a capped_playout_depth of at least 1, not %d",
			c.CappedPlayout, c.CappedPlayoutDepth)
	case c.CappedMaterialWeight > 0 && !(c.CappedMaterialScale > 0):
		return fmt.Errorf("selfplay: capped_material_scale %v must be positive", c.CappedMaterialScale)
	case c.ResignConsecutive < 1:
		return errors.New("selfplay: ResignConsecutive must be at least 1")
	case c.ResignThreshold > c.ResignCeiling:
		return fmt.Errorf("selfplay: ResignThreshold %v above ResignCeiling %v", c.ResignThreshold, c.ResignCeiling)
	case c.ResignCalibrationGames < 1 || c.ResignMinGames < 1:
		return errors.New("selfplay: ResignCalibrationGames and ResignMinGames must be at least 1")
	case c.GamesPerFile < 1:
		return errors.New("selfplay: GamesPerFile must be at least 1")
	case c.Run.Dir == "":
		return errors.New("selfplay: no output directory")
	case c.Batch < 1 || c.BatchWait < 0 || c.Cache < 0 || c.Threads < 0 || c.BatchWorkers < 1:
		return errors.New("selfplay: batch and batch workers must be positive; batch wait, threads and cache not negative")
	}
	return nil
}

func unit(x float64) bool { return x >= 0 && x <= 1 }
