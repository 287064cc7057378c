package model

import (
	"fmt"
	"math"
	"math/rand/v2"

	"chuzero/encode"
)

// Reanalyser re-searches a stored sample's position with the newest
// network (MuZero's Reanalyse) and returns its fresh search targets: the
// policy over the position's legal moves (indexed in the sample's own
// frame, summing to 1), the root value for the side to move and the root
// visits. ok false means it cannot search yet (no network): the sample is
// left as it is. It is called from the training goroutine only.
type Reanalyser func(s *encode.Sample) (t ReanalysedTargets, ok bool, err error)

// ReanalysedTargets are the search targets a Reanalyser found for a sample.
type ReanalysedTargets struct {
	Policy     []encode.PolicyEntry
	RootValue  float32
	RootVisits uint32
}

// ReanalyseStats counts what reanalysis did over a replay's life.
type ReanalyseStats struct {
	Reanalysed int64 // samples whose targets were replaced
	Failed     int64 // samples the reanalyser failed on, left as they were (counted, never fatal)
}

// Reanalyse draws n samples uniformly from the training window (never the
// held-out games) and replaces their search targets with fn's: the policy
// target (a cheap search's sample gains one: FullSearch becomes true), the
// root value (and so the search-value part of the value target) and the
// visits. The game's result and the auxiliary targets stay. A sample fn
// fails on, or whose targets are malformed, is left as it was and counted;
// the targets live in memory only (a resumed run starts again from the
// files'). It returns how many samples it replaced.
func (r *Replay) Reanalyse(rng *rand.Rand, n int, fn Reanalyser) int {
	done := 0
	if fn == nil || len(r.samples) == 0 {
		return 0
	}
	for range n {
		s := &r.samples[rng.IntN(len(r.samples))]
		t, ok, err := fn(s)
		if err == nil && ok {
			err = t.validate(r.spec)
		}
		switch {
		case err != nil:
			r.reanalyse.Failed++
			r.lastReanalyseErr = fmt.Errorf("model: reanalysis of game %x ply %d: %w", s.GameID, s.Ply, err)
			continue
		case !ok:
			return done
		}
		s.Policy, s.RootValue, s.RootVisits, s.FullSearch = t.Policy, t.RootValue, t.RootVisits, true
		r.reanalyse.Reanalysed++
		done++
	}
	return done
}

// ReanalyseStats returns the reanalysis counts and the latest failure
// (nil if none).
func (r *Replay) ReanalyseStats() (ReanalyseStats, error) { return r.reanalyse, r.lastReanalyseErr }

// validate checks reanalysed targets: a non-empty policy over distinct
// indices of the encoding, summing to 1, and a finite value in [-1, 1].
func (t ReanalysedTargets) validate(spec *encode.Spec) error {
	if len(t.Policy) == 0 {
		return fmt.Errorf("an empty policy")
	}
	if math.IsNaN(float64(t.RootValue)) || t.RootValue < -1 || t.RootValue > 1 {
		return fmt.Errorf("root value %v outside [-1, 1]", t.RootValue)
	}
	seen := make(map[uint32]bool, len(t.Policy))
	sum := 0.0
	for _, e := range t.Policy {
		if int(e.Index) >= spec.PolicySize || seen[e.Index] {
			return fmt.Errorf("policy index %d out of range or repeated", e.Index)
		}
		if !(e.Prob >= 0) {
			return fmt.Errorf("policy probability %v", e.Prob)
		}
		seen[e.Index] = true
		sum += float64(e.Prob)
	}
	if math.Abs(sum-1) > 1e-3 {
		return fmt.Errorf("policy sums to %v", sum)
	}
	return nil
}
