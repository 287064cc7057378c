package training

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/mcts/qsearch"
	"chuzero/rules"
)

// TestResidualConfig: model.value_residual reaches the network's config,
// the loop's baseline is the capture value the self-play search blends
// (a hanging gold counts for the side that takes it; a damaged sample is
// an error), and a residual without the capture value in self-play is
// refused.
func TestResidualConfig(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.yaml")
	os.WriteFile(p, []byte("variant: sho\nmodel: {value_residual: 0.75}\n"), 0o644)
	run := checkpoints.Run{Dir: filepath.Join(dir, "run")}
	cfg, err := Load("", run, p)
	if err != nil {
		t.Fatal(err)
	}
	lc, err := cfg.LoopConfig(run)
	if err != nil {
		t.Fatal(err)
	}
	if lc.Model.ValueResidual != 0.75 || lc.Baseline == nil {
		t.Fatalf("residual %v, baseline set %v", lc.Model.ValueResidual, lc.Baseline != nil)
	}
	const sfen = "4k4/9/9/9/2g6/9/9/2R6/4K4 b - 1" // Sente's rook takes a hanging gold
	r, err := rules.New(rules.DefaultConfig(rules.Sho))
	if err != nil {
		t.Fatal(err)
	}
	pos, err := r.ParseSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	g := rules.NewGame(pos)
	sp, _ := cfg.SelfPlayConfig(run)
	want := qsearch.New(r, sp.Search.QuiescenceDepth).Scaled(g, sp.Search.QuiescenceScale)
	s := encode.NewSample(g, 1)
	got, err := lc.Baseline(&s)
	if err != nil || math.Abs(got-want) > 1e-9 || !(got > 0.3) {
		t.Fatalf("baseline %v (%v), want the capture value %v", got, err, want)
	}
	s.SFEN = "not a position"
	if _, err := lc.Baseline(&s); err == nil {
		t.Error("a damaged sample had a baseline")
	}
	os.WriteFile(p, []byte("variant: sho\nmodel: {value_residual: 0.75}\nselfplay: {quiescence: 0, quiescence_final: 0}\n"), 0o644)
	if cfg, err = Load("", run, p); err == nil {
		_, err = cfg.LoopConfig(run)
	}
	if err == nil {
		t.Error("a residual head without the capture value in self-play was accepted")
	}
}
