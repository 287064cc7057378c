package training

import (
	"math"
	"reflect"
	"testing"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/model"
	"chuzero/rules"
	"chuzero/selfplay"
)

// storedSample returns the sample of a Sho game after plies moves (the
// first legal move each time) with a stale one-move policy target, as a
// cheap search would have left it.
func storedSample(t *testing.T, v rules.VariantID, plies int) encode.Sample {
	t.Helper()
	g := rules.NewGame(rules.MustNew(rules.DefaultConfig(v)).StartPosition())
	for range plies {
		if err := g.Play(g.LegalMoves()[0]); err != nil {
			t.Fatal(err)
		}
	}
	s := encode.NewSample(g, 0x5eed)
	s.RootValue, s.RootVisits = 0.9, 2
	return s
}

func reanalyseWeights(t *testing.T, v rules.VariantID, seed uint64) *model.Weights {
	t.Helper()
	w, err := model.NewWeights(model.Presets["tiny"], encode.MustSpec(v, encode.DefaultOptions()), seed)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestReanalyseStoredPosition: reanalysis of a stored position (Gote to
// move, so the policy is indexed in Gote's frame) searches it with the
// newest network as a self-play full search does: a policy over exactly
// the position's legal moves summing to 1, the root value of the side to
// move, the playouts' visits; the same network gives the same targets, a
// newer one other targets; a sample of another variant is refused.
func TestReanalyseStoredPosition(t *testing.T) {
	sp := selfplay.DefaultConfig(rules.Sho)
	sp.FullSimulations = 16
	ra := newReanalyser(sp, 1)
	s := storedSample(t, rules.Sho, 5)
	if _, ok, err := ra.reanalyse(&s); ok || err != nil {
		t.Fatalf("before any network: ok %v, %v", ok, err)
	}
	ra.set(0, reanalyseWeights(t, rules.Sho, 1))
	got, ok, err := ra.reanalyse(&s)
	if !ok || err != nil {
		t.Fatalf("reanalyse: ok %v, %v", ok, err)
	}
	pos, _, err := s.Position(nil)
	if err != nil {
		t.Fatal(err)
	}
	if pos.SideToMove() != rules.Gote {
		t.Fatal("the fixture should have Gote to move")
	}
	spec := encode.MustSpec(rules.Sho, encode.DefaultOptions())
	legal := map[uint32]bool{}
	for _, m := range rules.NewGame(pos).LegalMoves() {
		legal[uint32(spec.Index(&pos, m))] = true
	}
	sum := 0.0
	for _, e := range got.Policy {
		if !legal[e.Index] {
			t.Errorf("policy index %d is no legal move of the position", e.Index)
		}
		sum += float64(e.Prob)
	}
	if len(got.Policy) != len(legal) || math.Abs(sum-1) > 1e-4 {
		t.Errorf("policy over %d moves summing to %v; the position has %d legal moves", len(got.Policy), sum, len(legal))
	}
	if got.RootVisits == 0 || got.RootVisits > 16 || got.RootValue < -1 || got.RootValue > 1 || got.RootValue == s.RootValue {
		t.Errorf("root value %v, visits %d", got.RootValue, got.RootVisits)
	}
	again, _, _ := ra.reanalyse(&s)
	if !reflect.DeepEqual(again, got) {
		t.Error("the same network and sample gave other targets")
	}
	ra.set(200, reanalyseWeights(t, rules.Sho, 2))
	if newer, _, _ := ra.reanalyse(&s); reflect.DeepEqual(newer.Policy, got.Policy) {
		t.Error("a newer network gave the same policy target")
	}
	chu := storedSample(t, rules.Chu, 2)
	if _, _, err := ra.reanalyse(&chu); err == nil {
		t.Error("a Chu sample was reanalysed with a Sho network")
	}
}

// TestReanalyseConfig: train.reanalyse turns the reanalyser on in the
// loop's configuration; 0 leaves it off.
func TestReanalyseConfig(t *testing.T) {
	run := checkpoints.Run{Dir: t.TempDir()}
	for _, n := range []int{0, 4} {
		cfg := Default(rules.Sho)
		cfg.Train.Reanalyse = n
		lc, err := cfg.LoopConfig(run)
		if err != nil {
			t.Fatal(err)
		}
		ra, err := cfg.reanalyser(run, &lc)
		if err != nil || (ra != nil) != (n > 0) || (lc.Reanalyser != nil) != (n > 0) || lc.Reanalyse != n {
			t.Errorf("reanalyse %d: reanalyser %v, loop's %v, %v", n, ra != nil, lc.Reanalyser != nil, err)
		}
	}
}
