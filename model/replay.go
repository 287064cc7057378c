package model

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"chuzero/encode"
)

// ReplayConfig configures the replay window.
type ReplayConfig struct {
	// The window holds the most recent W(N) samples when N samples exist
	// (KataGo's schedule): W = min(N, WindowMax, WindowMin * (1 + WindowBeta *
	// ((N/WindowMin)^WindowExponent - 1) / WindowExponent)); it grows with
	// the data, sublinearly.
	WindowMin      int
	WindowMax      int
	WindowExponent float64
	WindowBeta     float64
	Mirror         bool // augment minibatches with left-right mirroring (half of the samples)
}

// DefaultReplayConfig returns a window from 20000 to 500000 samples,
// exponent 0.75, beta 0.4, with mirroring.
func DefaultReplayConfig() ReplayConfig {
	return ReplayConfig{WindowMin: 20000, WindowMax: 500000, WindowExponent: 0.75, WindowBeta: 0.4, Mirror: true}
}

// Validate reports a problem with c.
func (c ReplayConfig) Validate() error {
	if c.WindowMin < 1 || c.WindowMax < c.WindowMin || c.WindowExponent <= 0 || c.WindowBeta < 0 {
		return fmt.Errorf("model: bad replay window %+v", c)
	}
	return nil
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
	total   int64           // samples ever loaded
	corrupt map[string]error
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
		r.samples = append(r.samples, s...)
		r.total += int64(len(s))
		added += len(s)
	}
	if over := len(r.samples) - r.cfg.WindowMax; over > 0 {
		r.samples = append(r.samples[:0], r.samples[over:]...)
	}
	return added, errors.Join(errs...)
}

// Total returns the number of samples loaded so far (the run's data size).
func (r *Replay) Total() int64 { return r.total }

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

// FillBatch fills b with n samples drawn uniformly from the window, half
// of them mirrored when the config asks for it. b's slices are reused.
func (r *Replay) FillBatch(rng *rand.Rand, b *Batch, n int) error {
	w := r.Window()
	if w == 0 {
		return errors.New("model: the replay window is empty")
	}
	ps := r.spec.PlaneSize()
	b.N = n
	if cap(b.Planes) < n*ps {
		b.Planes = make([]float32, n*ps)
	}
	b.Planes = b.Planes[:n*ps]
	b.Legal, b.Policy, b.WDL = resizeLegal(b.Legal, n), resizePolicy(b.Policy, n), resizeWDL(b.WDL, n)
	base := len(r.samples) - w
	for i := 0; i < n; i++ {
		s := &r.samples[base+rng.IntN(w)]
		mirror := r.cfg.Mirror && rng.IntN(2) == 1
		if err := r.spec.EncodeSample(s, b.Planes[i*ps:(i+1)*ps], mirror); err != nil {
			return fmt.Errorf("model: sample of game %x ply %d: %w", s.GameID, s.Ply, err)
		}
		b.WDL[i] = s.Outcome.WDL()
		if !s.FullSearch || len(s.Policy) == 0 {
			b.Legal[i], b.Policy[i] = b.Legal[i][:0], nil
			continue
		}
		legal, probs := b.Legal[i][:0], b.Policy[i][:0]
		if probs == nil {
			probs = make([]float32, 0, len(s.Policy))
		}
		for _, e := range s.Policy {
			idx := int32(e.Index)
			if mirror {
				idx = int32(r.spec.MirrorIndex(int(e.Index)))
			}
			legal = append(legal, idx)
			probs = append(probs, e.Prob)
		}
		b.Legal[i], b.Policy[i] = legal, probs
	}
	return nil
}

func resizeLegal(a [][]int32, n int) [][]int32 {
	for len(a) < n {
		a = append(a, nil)
	}
	return a[:n]
}

func resizePolicy(a [][]float32, n int) [][]float32 {
	for len(a) < n {
		a = append(a, nil)
	}
	return a[:n]
}

func resizeWDL(a [][3]float32, n int) [][3]float32 {
	if cap(a) < n {
		return make([][3]float32, n)
	}
	return a[:n]
}

// SampleFileCount counts the sample files in dir (for progress reports).
func SampleFileCount(dir string) int {
	des, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, d := range des {
		if strings.HasSuffix(d.Name(), encode.SampleFileExt) && !strings.HasPrefix(d.Name(), ".") {
			n++
		}
	}
	return n
}
