package model

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"chuzero/encode"
	"chuzero/rules"
)

// ReplayConfig configures the replay window.
type ReplayConfig struct {
	// The window holds the most recent W(N) samples when N samples exist
	// (KataGo's schedule): W = min(N, WindowMax, WindowMin * (1 + WindowBeta *
	// ((N/WindowMin)^WindowExponent - 1) / WindowExponent)); it grows with
	// the data, sublinearly.
	WindowMin      int     `json:"window_min"`
	WindowMax      int     `json:"window_max"`
	WindowExponent float64 `json:"window_exponent"`
	WindowBeta     float64 `json:"window_beta"`
	// MirrorFraction of the minibatch positions are mirrored left-right.
	// The start positions of Chu and Sho are not symmetric, so a mirrored
	// position is one self-play never reaches: 0 by default.
	MirrorFraction float64 `json:"mirror_fraction"`
	// HoldOut is the fraction of games (chosen by a hash of the game id)
	// kept out of training; the newest HoldOutMax of their samples give
	// the held-out loss that shows overfitting.
	HoldOut    float64 `json:"hold_out"`
	HoldOutMax int     `json:"hold_out_max"`
	// Sample files whose samples all lie older than the window and
	// PruneMargin of it more (and than the held-out set) are deleted
	// (their counts kept in the samples directory's pruned.json), unless
	// KeepFiles is set.
	PruneMargin float64 `json:"prune_margin"`
	KeepFiles   bool    `json:"keep_sample_files"`
}

// DefaultReplayConfig returns a window from 20000 to 500000 samples,
// exponent 0.75, beta 0.4, no mirroring, 5% of games held out (the
// newest 4096 of their samples), and the sample files older than 1.5
// windows pruned.
func DefaultReplayConfig() ReplayConfig {
	return ReplayConfig{WindowMin: 20000, WindowMax: 500000, WindowExponent: 0.75, WindowBeta: 0.4,
		HoldOut: 0.05, HoldOutMax: 4096, PruneMargin: 0.5}
}

// Validate reports a problem with c.
func (c ReplayConfig) Validate() error {
	switch {
	case c.WindowMin < 1 || c.WindowMax < c.WindowMin || c.WindowExponent <= 0 || c.WindowBeta < 0 || c.WindowBeta > 1:
		return fmt.Errorf("model: bad replay window %+v", c)
	case c.MirrorFraction < 0 || c.MirrorFraction > 1 || c.HoldOut < 0 || c.HoldOut >= 1:
		return fmt.Errorf("model: mirror fraction %v and hold-out %v must be in [0, 1)", c.MirrorFraction, c.HoldOut)
	case c.HoldOut > 0 && c.HoldOutMax < 1:
		return errors.New("model: HoldOutMax must be positive")
	case !(c.PruneMargin >= 0):
		return fmt.Errorf("model: prune margin %v must be at least 0", c.PruneMargin)
	}
	return nil
}

// HeldOut reports whether the game with this id is held out of training.
func (c ReplayConfig) HeldOut(game uint64) bool {
	z := (game ^ game>>31) * rules.Golden // ids are seeds already; mix once more
	return float64(z>>11)/(1<<53) < c.HoldOut
}

// Replay is the training window over a run's sample files. Refresh loads
// the files that appeared since; files are read in name order, so the
// window is a function of the files present, and a restarted trainer
// rebuilds the same window.
type Replay struct {
	cfg     ReplayConfig
	spec    *encode.Spec
	dir     string
	files   map[string]fileStat // the loaded files
	samples []encode.Sample     // the newest training samples, at most the window
	held    []encode.Sample     // the newest held-out samples, at most HoldOutMax
	total   int64               // training samples ever loaded (pruned files included)
	games   int64               // training games ever loaded
	heldN   int64               // held-out samples ever loaded
	corrupt map[string]error
	// quarantined counts the files moved to QuarantineDir
	quarantined int64
	invalid     int64        // samples that failed validation, skipped
	badDraw     int64        // samples that failed to encode when drawn, skipped
	ledger      *pruneLedger // what pruning removed; nil until the first Refresh
	valueQ      float64      // weight of the search value in the value target (SetValueMix)
	residual    float64      // weight of the capture value taken off the value target (SetResidual)
	baseline    Baseline     // the capture value of a sample's position (SetResidual)
	reanalyse   ReanalyseStats
	// lastReanalyseErr is the latest reanalysis failure kept (Reanalyse)
	lastReanalyseErr error
}

// Baseline returns the capture search's value of a sample's position for
// its side to move, in [-1, 1], scaled as the search blends it.
type Baseline func(*encode.Sample) (float64, error)

// NewReplay returns an empty window over the sample files in dir.
func NewReplay(dir string, spec *encode.Spec, cfg ReplayConfig) (*Replay, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Replay{cfg: cfg, spec: spec, dir: dir, files: map[string]fileStat{}, corrupt: map[string]error{}}, nil
}

// Total returns the number of training samples loaded so far (the run's
// data size; held-out samples are not counted).
func (r *Replay) Total() int64 { return r.total }

// Games returns the number of training games loaded so far.
func (r *Replay) Games() int64 { return r.games }

// HeldOut returns the number of held-out samples at hand.
func (r *Replay) HeldOut() int { return len(r.held) }

// SetValueMix sets the weight q of the search's root value in the value
// target: (1-q)*result + q*root value, each as a win/draw/loss triple.
func (r *Replay) SetValueMix(q float64) { r.valueQ = max(0, min(1, q)) }

// SetResidual makes the value target a residual (model.Config.ValueResidual):
// the target less weight times the baseline's value of the position, as a
// win/draw/loss triple. Weight 0 turns it off.
func (r *Replay) SetResidual(weight float64, baseline Baseline) {
	r.residual, r.baseline = max(0, min(1, weight)), baseline
}

// Files returns how many sample files are loaded (and not pruned since).
func (r *Replay) Files() int { return len(r.files) }

// Invalid returns how many samples were skipped so far: those that failed
// validation as their file loaded, and those that failed to encode when a
// batch drew them.
func (r *Replay) Invalid() int64 { return r.invalid + r.badDraw }

// Corrupt returns the damaged files and why.
func (r *Replay) Corrupt() map[string]error { return r.corrupt }

// Window returns the current window size.
func (r *Replay) Window() int {
	return int(min(r.cfg.windowAt(r.total), int64(len(r.samples))))
}

// windowAt returns the window W(n) for n training samples. It never
// shrinks as n grows, and grows by less than one sample per sample, so the
// samples older than today's window are never in a later one.
func (c ReplayConfig) windowAt(total int64) int64 {
	n := float64(total)
	m := float64(c.WindowMin)
	w := n
	if n > m {
		a := c.WindowExponent
		w = m * (1 + c.WindowBeta*(math.Pow(n/m, a)-1)/a)
	}
	return int64(min(w, float64(c.WindowMax)))
}

// FillBatch fills b with n samples drawn uniformly from the window, a
// MirrorFraction of them mirrored. b's slices are reused.
func (r *Replay) FillBatch(rng *rand.Rand, b *Batch, n int) error {
	w := r.Window()
	if w == 0 {
		return errors.New("model: the replay window is empty")
	}
	return r.fill(rng, b, n, r.samples[len(r.samples)-w:], r.cfg.MirrorFraction)
}

// FillHeldOut fills b with n samples drawn from the held-out set, none
// mirrored.
func (r *Replay) FillHeldOut(rng *rand.Rand, b *Batch, n int) error {
	if len(r.held) == 0 {
		return errors.New("model: no held-out samples yet")
	}
	return r.fill(rng, b, n, r.held, 0)
}
