package selfplay

import (
	"context"
	"math"
	"testing"

	"chuzero/mcts"
	"chuzero/rules"
)

// TestQuiescenceAnneal: a game's quiescence blend follows its network's
// step, from the section's quiescence to quiescence_final, and the record
// says which it played with.
func TestQuiescenceAnneal(t *testing.T) {
	cfg := testConfig(t, rules.Sho)
	cfg.Search.Quiescence, cfg.QuiescenceFinal, cfg.QuiescenceSteps = 0.8, 0.2, 100
	for step, want := range map[int64]float64{0: 0.8, 50: 0.5, 100: 0.2, 1000: 0.2} {
		if got := cfg.QuiescenceAt(step); math.Abs(got-want) > 1e-12 {
			t.Errorf("QuiescenceAt(%d) = %v, want %v", step, got, want)
		}
	}
	cfg.Games, cfg.GamesPerFile = 1, 1
	cfg.Rules.MaxPlies = 6
	r, err := New(cfg, mcts.Uniform{}, "uniform")
	if err != nil {
		t.Fatal(err)
	}
	r.SetEvaluator(mcts.Uniform{}, "step-50", 50)
	if err := r.Run(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	_, recs := readRun(t, cfg.Run.Dir)
	if len(recs) != 1 || math.Abs(recs[0].Quiescence-0.5) > 1e-12 {
		t.Fatalf("records %+v: want one game at quiescence 0.5", recs)
	}
	cfg.QuiescenceFinal = 1.5
	if cfg.Validate() == nil {
		t.Error("quiescence_final 1.5 validates")
	}
}

// TestSimulationRamp: the progressive budget scales both playout counts
// with the network's step, from the start fraction to the full budgets.
func TestSimulationRamp(t *testing.T) {
	cfg := testConfig(t, rules.Sho)
	cfg.FullSimulations, cfg.CheapSimulations = 32, 8
	if f, c := cfg.SimulationsAt(0); f != 32 || c != 8 {
		t.Errorf("no ramp: %d/%d", f, c)
	}
	cfg.SimulationStartFraction, cfg.SimulationRampSteps = 0.25, 400
	for step, want := range map[int64][2]int{0: {8, 2}, 200: {20, 5}, 400: {32, 8}, 9000: {32, 8}} {
		if f, c := cfg.SimulationsAt(step); f != want[0] || c != want[1] {
			t.Errorf("step %d: %d/%d, want %v", step, f, c, want)
		}
	}
	cfg.SimulationStartFraction = 0
	if cfg.Validate() == nil {
		t.Error("a ramp from 0 playouts validates")
	}
}

// noQuiescence turns the quiescence blend off, for the tests whose values
// are their evaluator's alone.
func noQuiescence(cfg *Config) {
	cfg.Search.Quiescence, cfg.QuiescenceFinal, cfg.QuiescenceSteps = 0, 0, 0
}
