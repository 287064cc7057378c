package model

import (
	"testing"

	"chuzero/rules"
)

func TestLossFallsOnFixedBatch(t *testing.T) {
	for _, v := range rules.Variants {
		b, spec := testBatch(t, v, 8, 1)
		w := tinyWeights(t, spec, 1)
		cfg := DefaultTrainConfig()
		cfg.Batch = 8
		tr, err := NewTrainer(w, cfg)
		if err != nil {
			t.Fatal(err)
		}
		first, err := tr.Step(b, 1e-2)
		if err != nil {
			t.Fatal(err)
		}
		var last StepStats
		for i := 0; i < 30; i++ {
			if last, err = tr.Step(b, 1e-2); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: loss %.3f -> %.3f (policy %.3f -> %.3f, value %.3f -> %.3f), grad norm %.3f",
			v, first.Loss, last.Loss, first.PolicyLoss, last.PolicyLoss, first.ValueLoss, last.ValueLoss, last.GradNorm)
		if !(last.Loss < first.Loss*0.8) {
			t.Errorf("%s: loss did not fall: %.4f -> %.4f", v, first.Loss, last.Loss)
		}
		tr.Close()
	}
}
