package model

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"

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
}

// DefaultReplayConfig returns a window from 20000 to 500000 samples,
// exponent 0.75, beta 0.4, no mirroring, 5% of games held out (the
// newest 4096 of their samples).
func DefaultReplayConfig() ReplayConfig {
	return ReplayConfig{WindowMin: 20000, WindowMax: 500000, WindowExponent: 0.75, WindowBeta: 0.4,
		HoldOut: 0.05, HoldOutMax: 4096}
}

// Validate reports a problem with c.
func (c ReplayConfig) Validate() error {
	switch {
	case c.WindowMin < 1 || c.WindowMax < c.WindowMin || c.WindowExponent <= 0 || c.WindowBeta < 0:
		return fmt.Errorf("model: bad replay window %+v", c)
	case c.MirrorFraction < 0 || c.MirrorFraction > 1 || c.HoldOut < 0 || c.HoldOut >= 1:
		return fmt.Errorf("model: mirror fraction %v and hold-out %v must be in [0, 1)", c.MirrorFraction, c.HoldOut)
	case c.HoldOut > 0 && c.HoldOutMax < 1:
		return errors.New("model: HoldOutMax must be positive")
	}
	return nil
}

// heldOut reports whether the game with this id is held out of training.
func (c ReplayConfig) heldOut(game uint64) bool {
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
	loaded  map[string]bool
	samples []encode.Sample // the newest samples, at most WindowMax
	held    []encode.Sample // the newest held-out samples, at most HoldOutMax
	total   int64           // training samples ever loaded
	games   int64           // training games ever loaded
	corrupt map[string]error
	valueQ  float64 // weight of the search value in the value target (SetValueMix)
}

// NewReplay returns an empty window over the sample files in dir.
func NewReplay(dir string, spec *encode.Spec, cfg ReplayConfig) (*Replay, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Replay{cfg: cfg, spec: spec, dir: dir, loaded: map[string]bool{}, corrupt: map[string]error{}}, nil
}

// Refresh loads new sample files. A damaged file is reported (in the
// returned error and Corrupt) and skipped; the rest still load.
func (r *Replay) Refresh() (added int, err error) {
	names, err := filepath.Glob(filepath.Join(r.dir, "*"+encode.SampleFileExt))
	if err != nil {
		return 0, err
	}
	sort.Strings(names)
	var errs []error
	for _, name := range names {
		if r.loaded[name] || r.corrupt[name] != nil {
			continue
		}
		s, err := encode.ReadSampleFile(name)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue // removed meanwhile
			}
			r.corrupt[name] = err
			errs = append(errs, err)
			continue
		}
		if len(s) > 0 && s[0].Config.Variant != r.spec.Variant {
			err := fmt.Errorf("model: %s holds %s samples, this run trains %s", name, s[0].Config.Variant, r.spec.Variant)
			r.corrupt[name] = err
			errs = append(errs, err)
			continue
		}
		r.loaded[name] = true
		added += r.add(s)
	}
	if over := len(r.samples) - r.cfg.WindowMax; over > 0 {
		r.samples = append(r.samples[:0], r.samples[over:]...)
	}
	if over := len(r.held) - r.cfg.HoldOutMax; over > 0 {
		r.held = append(r.held[:0], r.held[over:]...)
	}
	return added, errors.Join(errs...)
}

// add files the samples of one file into the window or the held-out set
// and returns how many went to training.
func (r *Replay) add(s []encode.Sample) int {
	n := 0
	for i := range s {
		if r.cfg.heldOut(s[i].GameID) {
			r.held = append(r.held, s[i])
			continue
		}
		if i == 0 || s[i].GameID != s[i-1].GameID {
			r.games++
		}
		r.samples = append(r.samples, s[i])
		n++
	}
	r.total += int64(n)
	return n
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

// Files returns how many sample files are loaded.
func (r *Replay) Files() int { return len(r.loaded) }

// Corrupt returns the damaged files and why.
func (r *Replay) Corrupt() map[string]error { return r.corrupt }

// Window returns the current window size.
func (r *Replay) Window() int {
	n := float64(r.total)
	c := float64(r.cfg.WindowMin)
	w := n
	if n > c {
		a := r.cfg.WindowExponent
		w = c * (1 + r.cfg.WindowBeta*(math.Pow(n/c, a)-1)/a)
	}
	return int(min(w, float64(r.cfg.WindowMax), float64(len(r.samples))))
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
