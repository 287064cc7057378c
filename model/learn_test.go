package model

import (
	"testing"

	"chuzero/rules"
)

// TestLearnsSyntheticPositions: a fixed set of positions with one-hot
// policy targets (one legal move each) and fixed outcomes is learned to
// near-zero loss, the minimum of both cross-entropies.
func TestLearnsSyntheticPositions(t *testing.T) {
	b, spec := testBatch(t, rules.Sho, 8, 21)
	for i := range b.Policy {
		for j := range b.Policy[i] {
			b.Policy[i][j] = 0
		}
		b.Policy[i][(i*7)%len(b.Policy[i])] = 1
		b.WDL[i] = [3]float32{}
		b.WDL[i][i%3] = 1
	}
	w := tinyWeights(t, spec, 21)
	cfg := DefaultTrainConfig()
	cfg.Batch = 8
	cfg.L2 = 0
	tr, err := NewTrainer(w, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var st StepStats
	for i := 0; i < 300; i++ {
		if st, err = tr.Step(b, 1e-2); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("after 300 steps: policy %.4f, value %.4f", st.PolicyLoss, st.ValueLoss)
	if st.PolicyLoss > 0.05 || st.ValueLoss > 0.05 {
		t.Errorf("not learned: policy loss %.4f, value loss %.4f", st.PolicyLoss, st.ValueLoss)
	}
	// inference uses the running statistics the training kept: the
	// folded network predicts the same targets
	net := NewNet(w)
	ws := net.NewWorkspace(8)
	if err := net.Forward(ws, b.Planes, 8); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 8; i++ {
		pri := make([]float32, len(b.Legal[i]))
		net.Priors(ws, i, b.Legal[i], pri)
		want := (i * 7) % len(pri)
		if pri[want] < 0.9 {
			t.Errorf("position %d: inference prior %.3f on the target move", i, pri[want])
		}
		if wdl := net.WDL(ws, i); wdl[i%3] < 0.9 {
			t.Errorf("position %d: inference WDL %v, target %d", i, wdl, i%3)
		}
	}
}
