package model

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"chuzero/encode"
	"chuzero/rules"
)

// storedReplay returns a replay over games stored Sho games of 20 plies,
// none held out.
func storedReplay(t *testing.T, games uint64) *Replay {
	t.Helper()
	dir := t.TempDir()
	for i := range games {
		writeSampleFile(t, dir, rules.Sho, i, 20)
	}
	cfg := testLoopConfig(dir)
	cfg.Replay.HoldOut = 0
	r, err := NewReplay(dir, encode.MustSpec(rules.Sho, encode.DefaultOptions()), cfg.Replay)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Refresh(); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestReplayReanalyse: the reanalyser's targets replace the policy, root
// value and visits of the samples drawn (a cheap search's sample gains a
// policy target), the result stays; failures and malformed targets leave
// the sample as stored and are counted; "no network yet" stops the pass.
func TestReplayReanalyse(t *testing.T) {
	r := storedReplay(t, 3)
	before := append([]encode.Sample(nil), r.samples...)
	fresh := ReanalysedTargets{Policy: []encode.PolicyEntry{{Index: 7, Prob: 0.25}, {Index: 9, Prob: 0.75}}, RootValue: -0.5, RootVisits: 32}
	calls := 0
	n := r.Reanalyse(rand.New(rand.NewPCG(1, 2)), 10, func(s *encode.Sample) (ReanalysedTargets, bool, error) {
		calls++
		return fresh, true, nil
	})
	if n != 10 || calls != 10 {
		t.Fatalf("replaced %d in %d calls, want 10", n, calls)
	}
	changed := 0
	for i, s := range r.samples {
		b := before[i]
		if reflect.DeepEqual(s, b) {
			continue
		}
		changed++
		if !reflect.DeepEqual(s.Policy, fresh.Policy) || s.RootValue != -0.5 || s.RootVisits != 32 || !s.FullSearch {
			t.Errorf("sample %d: policy %v value %v visits %d full %v", i, s.Policy, s.RootValue, s.RootVisits, s.FullSearch)
		}
		if s.Outcome != b.Outcome || s.SFEN != b.SFEN || s.EndValue != b.EndValue || s.Aux != b.Aux {
			t.Errorf("sample %d: more than the search targets changed", i)
		}
	}
	if changed == 0 || changed > 10 {
		t.Errorf("%d samples changed", changed)
	}
	if st, err := r.ReanalyseStats(); st != (ReanalyseStats{Reanalysed: 10}) || err != nil {
		t.Errorf("stats %+v, %v", st, err)
	}

	snapshot := append([]encode.Sample(nil), r.samples...)
	bad := []ReanalysedTargets{
		{},
		{Policy: []encode.PolicyEntry{{Index: 7, Prob: 0.5}}},
		{Policy: []encode.PolicyEntry{{Index: 7, Prob: 0.5}, {Index: 7, Prob: 0.5}}},
		{Policy: []encode.PolicyEntry{{Index: 1 << 30, Prob: 1}}},
		{Policy: []encode.PolicyEntry{{Index: 7, Prob: 1}}, RootValue: 1.5},
	}
	k := 0
	r.Reanalyse(rand.New(rand.NewPCG(3, 4)), len(bad)+1, func(s *encode.Sample) (ReanalysedTargets, bool, error) {
		if k++; k > len(bad) {
			return ReanalysedTargets{}, false, errors.New("the search failed")
		}
		return bad[k-1], true, nil
	})
	if !reflect.DeepEqual(snapshot, r.samples) {
		t.Error("a failed or malformed reanalysis changed a sample")
	}
	if st, err := r.ReanalyseStats(); st.Failed != int64(len(bad)+1) || st.Reanalysed != 10 || err == nil {
		t.Errorf("after the failures: %+v, %v", st, err)
	}
	calls = 0
	if n := r.Reanalyse(rand.New(rand.NewPCG(5, 6)), 10, func(*encode.Sample) (ReanalysedTargets, bool, error) {
		calls++
		return ReanalysedTargets{}, false, nil
	}); n != 0 || calls != 1 {
		t.Errorf("no network: %d replaced in %d calls, want 0 in 1", n, calls)
	}
}

// TestLoopReanalyse: the loop re-searches LoopConfig.Reanalyse samples
// before each step and reports the counts.
func TestLoopReanalyse(t *testing.T) {
	store, log, cfg := loopFixture(t)
	cfg.Reanalyse = 2
	calls := 0
	cfg.Reanalyser = func(s *encode.Sample) (ReanalysedTargets, bool, error) {
		calls++
		return ReanalysedTargets{Policy: []encode.PolicyEntry{{Index: 3, Prob: 1}}, RootVisits: 1}, true, nil
	}
	l, err := NewLoop(cfg, store, log)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var last StepInfo
	l.OnStep = func(i StepInfo) { last = i }
	if err := l.Run(context.Background(), 3); err != nil {
		t.Fatal(err)
	}
	if calls != 6 || last.Reanalyse.Reanalysed != 6 {
		t.Errorf("%d calls, %d reported in 3 steps, want 6", calls, last.Reanalyse.Reanalysed)
	}
	cfg.Reanalyse = -1
	if err := cfg.Validate(); err == nil {
		t.Error("a negative reanalyse count was accepted")
	}
}
