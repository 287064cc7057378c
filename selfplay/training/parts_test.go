package training

import (
	"context"
	"log/slog"
	"math"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"chuzero/checkpoints"
	"chuzero/encode"
	cmodel "chuzero/model"
	"chuzero/model/modeltest"
	"chuzero/rules"
	"chuzero/selfplay/arena"
)

// newTestRegistry returns a registry with the run's metrics.
func newTestRegistry() (*prometheus.Registry, *Metrics) {
	reg := prometheus.NewRegistry()
	return reg, NewMetrics(reg)
}

func slogDiscard() *slog.Logger { return slog.New(slog.DiscardHandler) }

// Under gating, self-play follows best.json; otherwise the newest
// checkpoint.
func TestPlayNetwork(t *testing.T) {
	dir := modeltest.FakeRun(t, rules.Sho, 0, 5, 10)
	store, _ := checkpoints.Open(filepath.Join(dir, "checkpoints"))
	if e, err := playNetwork(checkpoints.Run{Dir: dir}, store, true); err != nil || e.Step != 10 {
		t.Errorf("gating without best.json: %+v %v", e, err)
	}
	five, _ := store.Find("5")
	if _, err := (checkpoints.Run{Dir: dir}).SetBest(five); err != nil {
		t.Fatal(err)
	}
	e, err := playNetwork(checkpoints.Run{Dir: dir}, store, true)
	if err != nil || e.Step != 5 || e.Path != (checkpoints.Run{Dir: dir}).BestCheckpoint() {
		t.Errorf("gating: %+v %v", e, err)
	}
	if _, err := checkpoints.ReadFile(e.Path); err != nil {
		t.Error(err)
	}
	if e, _ := playNetwork(checkpoints.Run{Dir: dir}, store, false); e.Step != 10 {
		t.Errorf("no gating: %+v", e)
	}
}

// The judge's wiring: the run's logs and metrics get what the judge
// reports (arena's TestJudge plays the matches), and a restarted judge
// does not evaluate the last evaluated checkpoint again.
func TestJudgeWiring(t *testing.T) {
	dir := modeltest.FakeRun(t, rules.Sho, 0, 5, 20)
	store, _ := checkpoints.Open(filepath.Join(dir, "checkpoints"))
	reg, m := newTestRegistry()
	j, err := newJudge(Default(rules.Sho), checkpoints.Run{Dir: dir}, store, m, slogDiscard())
	if err != nil {
		t.Fatal(err)
	}
	five, _ := store.Find("5")
	cand, _ := store.Find("20")
	if err := j.OnEval(EvalResult{Checkpoint: five, Opponent: "greedy", Score: arena.Score{Wins: 3, Draws: 1}, Elo: math.Inf(1), EloLow: 10, EloHigh: math.Inf(1)}); err != nil {
		t.Fatal(err)
	}
	if err := j.OnGate(GateResult{Candidate: cand, Best: five, Score: arena.Score{Wins: 4}, LLR: 3, Decision: "accept"}); err != nil {
		t.Fatal(err)
	}
	evals, _, _ := checkpoints.ReadLog[checkpoints.EvalEntry](checkpoints.Run{Dir: dir}, checkpoints.EvalLog)
	gates, _, _ := checkpoints.ReadLog[checkpoints.GatingEntry](checkpoints.Run{Dir: dir}, checkpoints.GatingLog)
	if len(evals) != 1 || evals[0].Step != 5 || evals[0].Games != 4 || evals[0].Elo != 1e9 {
		t.Errorf("eval log %+v", evals)
	}
	if len(gates) != 1 || !gates[0].Promoted || gates[0].Candidate != cand.Name || gates[0].Games != 4 {
		t.Errorf("gating log %+v", gates)
	}
	var out strings.Builder
	fams, _ := reg.Gather()
	for _, f := range fams {
		out.WriteString(f.GetName() + "\n")
	}
	for _, want := range []string{"chuzero_eval_elo", "chuzero_eval_games_total", "chuzero_gating_decisions_total", "chuzero_gating_best_step"} {
		if !strings.Contains(out.String(), want+"\n") {
			t.Errorf("metric %s not exported", want)
		}
	}
	again, err := newJudge(Default(rules.Sho), checkpoints.Run{Dir: dir}, store, m, slogDiscard())
	if err != nil || again.LastEvaluated != 5 {
		t.Errorf("a restarted judge: last evaluated %d, %v; want 5", again.LastEvaluated, err)
	}
}

// TestNetworkSwitchesFreeMemory switches self-play to a new network 50
// times, as a long run does at every checkpoint, while games in flight
// keep the evaluators of the old networks (as they do until they end),
// and checks that the heap stays bounded: the networks share one
// evaluation cache (about 3 MB here) instead of one each.
func TestNetworkSwitchesFreeMemory(t *testing.T) {
	cfg := Default(rules.Sho)
	cfg.Model.Preset = "tiny"
	cfg.Self.Cache = 50000
	mc, err := cfg.ModelConfig()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := encode.NewSpec(rules.Sho, encode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := cmodel.NewWeights(mc, spec, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, m := newTestRegistry()
	s, err := newSelfPlayer(cfg, checkpoints.Run{Dir: t.TempDir()}, cmodel.NewNet(w), "n0", 0, m, nil, slogDiscard())
	if err != nil {
		t.Fatal(err)
	}
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	var at10 uint64
	var inFlight []any // what games started under the old networks hold
	for i := int64(1); i <= 50; i++ {
		net := cmodel.NewNet(w)
		if err := s.use(net, "n", i); err != nil {
			t.Fatal(err)
		}
		inFlight = append(inFlight, s.evaluator(net))
		if i == 10 {
			at10 = heap()
		}
	}
	at50 := heap()
	runtime.KeepAlive(s) // the self-player and its metrics live on in a run
	runtime.KeepAlive(m)
	runtime.KeepAlive(inFlight)
	const bound = 24 << 20 // far below 40 more caches
	if at50 > at10+bound {
		t.Fatalf("heap grew from %d MB after 10 switches to %d MB after 50: each network has a cache of its own",
			at10>>20, at50>>20)
	}
	t.Logf("heap after 10 switches %d MB, after 50 %d MB", at10>>20, at50>>20)
}

// TestNatsPublishesPromotion: under gating the trainer publishes the new
// best as the judge promotes it, after the judge's earlier Promote, and a
// network already published is not published again.
func TestNatsPublishesPromotion(t *testing.T) {
	var order []string
	n := &natsTrainer{published: -1, publishCkpt: func(_ context.Context, e checkpoints.Entry) error {
		order = append(order, "publish "+e.Name)
		return nil
	}}
	judge := &Judge{Promote: func(e checkpoints.Entry) error { order = append(order, "self-play "+e.Name); return nil }}
	n.p, n.ctx = &proc{log: slog.New(slog.DiscardHandler)}, context.Background()
	n.publishPromotions(judge)
	for _, step := range []int64{10, 10, 20} {
		if err := judge.Promote(checkpoints.Entry{Name: checkpoints.Name(step), Step: step}); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"self-play step-000000010", "publish step-000000010", "self-play step-000000010",
		"self-play step-000000020", "publish step-000000020"}
	if !reflect.DeepEqual(order, want) {
		t.Errorf("calls %q, want %q", order, want)
	}
}
