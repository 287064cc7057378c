package training

import (
	"context"
	"strings"
	"testing"
	"time"

	"chuzero/checkpoints"
	"chuzero/checkpoints/jsondur"
	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay/runconfig"
)

// fakeNets plays every checkpoint with a random evaluator of its own.
type fakeNets struct{ opened, closed *int }

func (n fakeNets) Evaluator(e checkpoints.Entry) (mcts.Evaluator, error) {
	return mcts.Random{Seed: uint64(e.Step)}, nil
}

func (n fakeNets) Close() { *n.closed++ }

// testJudge returns a judge over a Sho run with checkpoints at steps.
func testJudge(t *testing.T, steps ...int64) (*Judge, *int) {
	t.Helper()
	run := checkpoints.Run{Dir: t.TempDir()}
	store, err := run.Store()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		if _, err := store.Save(&checkpoints.Checkpoint{Meta: checkpoints.Meta{Variant: "sho", Step: s, Created: time.Now().UTC()}}); err != nil {
			t.Fatal(err)
		}
	}
	var opened, closed int
	rc := rules.DefaultConfig(rules.Sho)
	rc.MaxPlies = 60
	j := &Judge{Eval: runconfig.EvalConfig{Interval: jsondur.Duration(time.Hour), Games: 2, Simulations: 4,
		Anchors: []string{"first", "previous", "greedy", "random", "ab1", "hachu"}, Concurrency: 2, OpeningPly: 2},
		Gating: runconfig.GatingConfig{Enabled: true, Games: 6, Simulations: 4, Elo1: 300, Alpha: 0.1, Beta: 0.1, Concurrency: 2},
		Rules:  rc, Dir: run, Store: store, LastEvaluated: -1,
		Networks: func(int, int) (MatchNetworks, error) { opened++; return fakeNets{&opened, &closed}, nil }}
	if err := j.Open(); err != nil {
		t.Fatal(err)
	}
	return j, &closed
}

// The judge, synchronously: Init pins the first checkpoint and makes the
// latest the best; an evaluation plays every anchor that applies and pins
// "previous"; a gating decision is reported, and a promotion changes
// best.json and is handed on.
func TestJudge(t *testing.T) {
	j, closed := testJudge(t, 0, 5)
	var evals []EvalResult
	var gates []GateResult
	var promoted []int64
	j.OnEval = func(r EvalResult) error { evals = append(evals, r); return nil }
	j.OnGate = func(r GateResult) error { gates = append(gates, r); return nil }
	j.Promote = func(e checkpoints.Entry) error { promoted = append(promoted, e.Step); return nil }
	if err := j.Init(); err != nil {
		t.Fatal(err)
	}
	if best, ok := j.Best(); !ok || best.Step != 5 || best.Path != j.Dir.BestCheckpoint() {
		t.Fatalf("initial best %+v %v: want the latest, step 5, as best.ckpt", best, ok)
	}
	if first, err := j.Dir.Pinned("first"); err != nil || first.Step != 0 {
		t.Fatalf("first anchor %+v %v", first, err)
	}
	latest, _ := j.Store.Find("5")
	ctx := context.Background()
	if err := j.evaluate(ctx, latest); err != nil {
		t.Fatal(err)
	}
	var opps []string
	for _, e := range evals {
		opps = append(opps, e.Opponent)
		if e.Checkpoint.Step != 5 || e.Score.Games() != 2 || e.EloLow > e.Elo || e.Elo > e.EloHigh {
			t.Errorf("result %+v", e)
		}
	}
	// no "previous" yet; HaChu plays Chu only
	if strings.Join(opps, ",") != "first,greedy,random,ab-d1" {
		t.Errorf("anchors %v", opps)
	}
	if prev, err := j.Dir.Pinned("previous"); err != nil || prev.Step != 5 || j.LastEvaluated != 5 {
		t.Errorf("previous anchor %+v %v, last evaluated %d", prev, err, j.LastEvaluated)
	}
	cand, err := j.Store.Save(&checkpoints.Checkpoint{Meta: checkpoints.Meta{Variant: "sho", Step: 20}})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.gate(ctx, cand); err != nil {
		t.Fatal(err)
	}
	if len(gates) != 1 || gates[0].Candidate.Name != cand.Name || gates[0].Best.Step != 5 || gates[0].Score.Games() < 1 {
		t.Fatalf("gating results %+v", gates)
	}
	best, _ := j.Best()
	again, _, _ := j.Dir.ReadBest()
	if gates[0].Promoted() != (best.Step == 20) || gates[0].Promoted() != (len(promoted) == 1) || again.Step != best.Step {
		t.Errorf("decision %+v, best %+v (best.json %+v), promoted %v", gates[0], best, again, promoted)
	}
	// an older checkpoint is not gated
	if err := j.gate(ctx, latest); err != nil || len(gates) != 1 {
		t.Errorf("an older candidate was gated: %v, %d results", err, len(gates))
	}
	if *closed != 2 {
		t.Errorf("%d match networks closed, want 2", *closed)
	}
}

func TestEvalConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		mod func(*runconfig.EvalConfig)
		ok  bool
	}{
		{func(*runconfig.EvalConfig) {}, true},
		{func(c *runconfig.EvalConfig) { c.Anchors = []string{"ab9", "previous"} }, true},
		{func(c *runconfig.EvalConfig) { c.Anchors = []string{"ab10"} }, false},
		{func(c *runconfig.EvalConfig) { c.Anchors = []string{"stockfish"} }, false},
		{func(c *runconfig.EvalConfig) { c.Games = 1 }, false},
		{func(c *runconfig.EvalConfig) { c.Interval = 0; c.Games = 0 }, true},
		{func(c *runconfig.EvalConfig) { c.Threads = -1 }, false},
	} {
		c := runconfig.DefaultEvalConfig()
		tc.mod(&c)
		if err := c.Validate(); (err == nil) != tc.ok {
			t.Errorf("%+v: %v, want ok %v", c, err, tc.ok)
		}
	}
	g := runconfig.DefaultGatingConfig()
	g.Enabled, g.Elo0 = true, 50
	if validateGating(g) == nil {
		t.Error("an SPRT with elo0 above elo1 was accepted")
	}
}
