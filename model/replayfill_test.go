package model

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"chuzero/encode"
	"chuzero/rules"
)

// The value target: the result one-hot (or, for a game stopped by the
// self-play cap, the search's estimate of it), mixed with the root value.
func TestValueTarget(t *testing.T) {
	r := &Replay{}
	for _, c := range []struct {
		name string
		s    encode.Sample
		q    float64
		want [3]float32
	}{
		{"result only", encode.Sample{Outcome: encode.Win, RootValue: -0.5}, 0, [3]float32{1, 0, 0}},
		{"half and half", encode.Sample{Outcome: encode.Win, RootValue: -0.5}, 0.5, [3]float32{0.5, 0.25, 0.25}},
		{"draw and a winning search", encode.Sample{Outcome: encode.Draw, RootValue: 1}, 0.25, [3]float32{0.25, 0.75, 0}},
		{"truncated", encode.Sample{Outcome: encode.Draw, Truncated: true, EndValue: 0.6, RootValue: 0.2}, 0, [3]float32{0.6, 0.4, 0}},
		{"truncated, mixed", encode.Sample{Outcome: encode.Draw, Truncated: true, EndValue: -1, RootValue: 0}, 0.5, [3]float32{0, 0.5, 0.5}},
		{"search only", encode.Sample{Outcome: encode.Loss, RootValue: -0.25}, 1, [3]float32{0, 0.75, 0.25}},
	} {
		r.SetValueMix(c.q)
		got, err := r.valueTarget(&c.s)
		if err != nil {
			t.Fatal(err)
		}
		for k := range got {
			if math.Abs(float64(got[k]-c.want[k])) > 1e-6 {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
				break
			}
		}
		if sum := got[0] + got[1] + got[2]; math.Abs(float64(sum)-1) > 1e-6 {
			t.Errorf("%s: target sums to %v", c.name, sum)
		}
	}
	cfg := DefaultLoopConfig(rules.Sho)
	cfg.ValueQStart, cfg.ValueQEnd, cfg.ValueQSteps = 0.1, 0.5, 100
	for _, c := range []struct {
		step int64
		want float64
	}{{0, 0.1}, {50, 0.3}, {100, 0.5}, {1000, 0.5}} {
		if got := cfg.ValueQ(c.step); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("ValueQ(%d) = %v, want %v", c.step, got, c.want)
		}
	}
}

// A residual value target (issue 40): the target's value less the
// residual weight times the capture value of the position, clamped, as the
// least-draw triple; a baseline's error is the sample's, and a residual
// without a baseline is an error.
func TestResidualValueTarget(t *testing.T) {
	base := map[uint32]float64{1: 0.8, 2: -0.5, 3: 1, 4: -1}
	baseline := func(s *encode.Sample) (float64, error) {
		b, ok := base[s.Ply]
		if !ok {
			return 0, errors.New("no position")
		}
		return b, nil
	}
	for _, c := range []struct {
		name     string
		s        encode.Sample
		mix, res float64
		want     [3]float32
	}{
		{"a win the capture search foresaw", encode.Sample{Ply: 1, Outcome: encode.Win}, 0, 0.75, [3]float32{0.4, 0.6, 0}},
		{"a win from behind", encode.Sample{Ply: 2, Outcome: encode.Win}, 0, 0.75, [3]float32{1, 0, 0}},
		{"a loss from ahead", encode.Sample{Ply: 3, Outcome: encode.Loss}, 0, 1, [3]float32{0, 0, 1}},
		{"a draw from behind", encode.Sample{Ply: 4, Outcome: encode.Draw}, 0, 0.5, [3]float32{0.5, 0.5, 0}},
		{"capped at the material it had", encode.Sample{Ply: 1, Outcome: encode.Draw, Truncated: true, EndValue: 0.8}, 0, 1, [3]float32{0, 1, 0}},
		{"mixed with the root value", encode.Sample{Ply: 2, Outcome: encode.Loss, RootValue: -0.5}, 0.5, 0.5, [3]float32{0, 0.5, 0.5}},
		{"no residual", encode.Sample{Ply: 9, Outcome: encode.Win}, 0, 0, [3]float32{1, 0, 0}},
	} {
		r := &Replay{}
		r.SetValueMix(c.mix)
		r.SetResidual(c.res, baseline)
		got, err := r.valueTarget(&c.s)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for k := range got {
			if math.Abs(float64(got[k]-c.want[k])) > 1e-6 {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
	r := &Replay{}
	r.SetResidual(0.75, baseline)
	if _, err := r.valueTarget(&encode.Sample{Ply: 7}); err == nil {
		t.Error("a baseline's error was not the sample's")
	}
	r.SetResidual(0.75, nil)
	if _, err := r.valueTarget(&encode.Sample{Ply: 1}); err == nil {
		t.Error("a residual without a baseline gave a target")
	}
}

// Held-out games never reach the training window, and FillHeldOut draws
// from them only.
func TestHoldOut(t *testing.T) {
	dir := t.TempDir()
	const games = 40
	for i := uint64(0); i < games; i++ {
		writeSampleFile(t, dir, rules.Sho, i, 6)
	}
	cfg := DefaultReplayConfig()
	cfg.HoldOut = 0.3
	r, err := NewReplay(dir, encode.MustSpec(rules.Sho, encode.DefaultOptions()), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Refresh(); err != nil {
		t.Fatal(err)
	}
	held := map[uint64]bool{}
	for _, s := range r.held {
		held[s.GameID] = true
		if !cfg.HeldOut(s.GameID) {
			t.Errorf("game %d held out against the rule", s.GameID)
		}
	}
	for _, s := range r.samples {
		if held[s.GameID] || cfg.HeldOut(s.GameID) {
			t.Errorf("held-out game %d in the training window", s.GameID)
		}
	}
	if len(held) < 4 || len(held) > 20 || r.Games()+int64(len(held)) != games {
		t.Errorf("%d games held out, %d training, of %d", len(held), r.Games(), games)
	}
	if r.Total() != int64(len(r.samples)) {
		t.Errorf("Total %d counts held-out samples (%d in the window)", r.Total(), len(r.samples))
	}
	var b Batch
	if err := r.FillHeldOut(rand.New(rand.NewPCG(1, 2)), &b, 16); err != nil {
		t.Fatal(err)
	}
	if b.N != 16 || len(b.WDL) != 16 || len(b.Ownership) != 16*81 {
		t.Errorf("held-out batch of %d (WDL %d, ownership %d)", b.N, len(b.WDL), len(b.Ownership))
	}
}

// The loop waits for enough games, and keeps the reuse cap at EarlyReuse
// while the data are below the window's minimum.
func TestLoopReady(t *testing.T) {
	r := storedReplay(t, 6)
	cfg := testLoopConfig(t.TempDir())
	total := r.Total() // 120 samples, 6 games
	for _, c := range []struct {
		name       string
		minGames   int64
		windowMin  int
		early, max float64
		seen       int64
		want       bool
	}{
		{"enough games", 6, 50, 2, 4, 0, true},
		{"too few games", 7, 50, 2, 4, 0, false},
		{"past the window: max reuse", 0, 50, 1, 4, 3*total - 8, true},
		{"below the window: early reuse", 0, 1000, 1, 4, total - 7, false},
		{"below the window, within early reuse", 0, 1000, 1, 4, total - 8, true},
		{"early reuse 0 is off", 0, 1000, 0, 4, 3 * total, true},
	} {
		cfg.MinGames, cfg.Replay.WindowMin, cfg.EarlyReuse, cfg.MaxReuse = c.minGames, c.windowMin, c.early, c.max
		l := &Loop{cfg: cfg, replay: r, seen: c.seen}
		if got := l.ready(); got != c.want {
			t.Errorf("%s: ready %v, want %v", c.name, got, c.want)
		}
	}
}
