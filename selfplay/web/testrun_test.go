package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/mcts/eval"
	"chuzero/rules"
	"chuzero/selfplay"
	"chuzero/selfplay/arena"
)

// The runs of the tests: made once per variant by the real code, shared
// read-only; a test that changes a run copies it first (copyRun).
var (
	runsMu  sync.Mutex
	runs    = map[rules.VariantID]string{}
	runsDir string
)

// Sizes of the test runs: games played, the self-play ply cap.
const (
	testSelfPlayGames = 6
	testMaxPlies      = 48
	testMatchGames    = 2
)

// testRun returns the finished run of variant v, making it on first use.
func testRun(t testing.TB, v rules.VariantID) string {
	t.Helper()
	runsMu.Lock()
	defer runsMu.Unlock()
	if dir, ok := runs[v]; ok {
		return dir
	}
	if runsDir == "" {
		d, err := os.MkdirTemp("", "chuzero-web-test-")
		if err != nil {
			t.Fatal(err)
		}
		runsDir = d
	}
	dir := filepath.Join(runsDir, v.String())
	if err := makeRun(dir, v); err != nil {
		t.Fatalf("making the %s test run: %v", v, err)
	}
	runs[v] = dir
	return dir
}

// removeTestRuns deletes the test runs (after the tests).
func removeTestRuns() {
	if runsDir != "" {
		os.RemoveAll(runsDir)
	}
}

// makeRun writes a small finished run of variant v into dir the way the
// commands do: config.json; self-play games of the selfplay runner with
// the hash-seeded mcts.Random evaluator; evaluation, gating and arena
// matches of the arena package (greedy against random) with the log lines
// the judge appends; training log lines; and three checkpoints (their
// metadata only: the tests evaluate positions with mcts.Random).
func makeRun(dir string, v rules.VariantID) error {
	run := checkpoints.Run{Dir: dir}
	rc := rules.DefaultConfig(v)
	rc.MaxPlies = testMaxPlies
	cfg, _ := json.MarshalIndent(map[string]any{"variant": v.String(), "rules": map[string]string{"MaxPlies": fmt.Sprint(testMaxPlies)}, "seed": 1}, "", "  ")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(run.Config(), cfg, 0o644); err != nil {
		return err
	}
	sp := selfplay.DefaultConfig(v)
	sp.Rules, sp.Run, sp.Games, sp.GamesPerFile = rc, checkpoints.Run{Dir: dir}, 2, 2
	sp.FullSimulations, sp.CheapSimulations, sp.MaxPlies = 8, 2, testMaxPlies
	r, err := selfplay.New(sp, mcts.Random{Seed: 1}, "random")
	if err != nil {
		return err
	}
	if err := r.Run(context.Background(), testSelfPlayGames); err != nil {
		return err
	}
	store, err := run.Store()
	if err != nil {
		return err
	}
	for _, step := range []int64{0, 2, 4} {
		c := &checkpoints.Checkpoint{Meta: checkpoints.Meta{Variant: v.String(), Rules: rc.String(), Step: step, Created: time.Now().UTC()}}
		if _, err := store.Save(c); err != nil {
			return err
		}
	}
	return writeMatches(run, rc)
}

// writeMatches plays an evaluation, a gating and an arena match and logs
// them, with a few training steps.
func writeMatches(run checkpoints.Run, rc rules.Config) error {
	eval := checkpoints.Run{Dir: run.Dir}.Appender(checkpoints.EvalLog)
	gating := checkpoints.Run{Dir: run.Dir}.Appender(checkpoints.GatingLog)
	train := checkpoints.Run{Dir: run.Dir}.Appender(checkpoints.TrainLog)
	for step := int64(1); step <= 4; step++ {
		e := checkpoints.TrainEntry{Time: time.Now().UTC(), Step: step, PolicyLoss: 4 - 0.1*float64(step), ValueLoss: 1, Loss: 5 - 0.1*float64(step), LR: 0.002, Samples: 100 * step}
		if err := train.Append(e); err != nil {
			return err
		}
	}
	matches := []struct{ dir, event string }{
		{run.Eval("step-000000004-vs-first"), "evaluation"},
		{run.Gating("step-000000004"), "gating"},
		{filepath.Join(run.Arena(), "20260101-000000"), "arena"},
	}
	for i, m := range matches {
		match, err := arena.New(arena.Config{Rules: rc, Games: testMatchGames, Seed: uint64(i + 1), Dir: m.dir, Event: m.event}, arena.Greedy{}, arena.Random{})
		if err != nil {
			return err
		}
		st, err := match.Run(context.Background())
		if err != nil {
			return err
		}
		sc := st.Score(0, 1)
		elo, lo, hi := arena.EloInterval(sc)
		elo, lo, hi = finite(elo), finite(lo), finite(hi)
		switch m.event {
		case "evaluation":
			err = eval.Append(checkpoints.EvalEntry{Time: time.Now().UTC(), Step: 4, Checkpoint: "step-000000004", Opponent: "first",
				Games: sc.Games(), Wins: sc.Wins, Draws: sc.Draws, Losses: sc.Losses, Elo: elo, EloLow: lo, EloHigh: hi})
		case "gating":
			err = gating.Append(checkpoints.GatingEntry{Time: time.Now().UTC(), Candidate: "step-000000004", Best: "step-000000002",
				Games: sc.Games(), Wins: sc.Wins, Draws: sc.Draws, Losses: sc.Losses, Decision: "inconclusive"})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// copyRun copies the run of variant v into a fresh directory the test
// may change.
func copyRun(t *testing.T, v rules.VariantID) string {
	t.Helper()
	src := testRun(t, v)
	dst := filepath.Join(t.TempDir(), "run")
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(target)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// randomNetworks evaluates with mcts.Random seeded by the checkpoint's
// step: the search's hash-seeded test evaluator in place of a network
// (cmd/chuzero's tests load real ones).
type randomNetworks struct{}

func (randomNetworks) Evaluate(ctx context.Context, e checkpoints.Entry, req *eval.Request) error {
	return mcts.Random{Seed: uint64(e.Step) + 1}.Evaluate(ctx, []*eval.Request{req})
}

// finite maps ±Inf to ±1e9, as the judge writes a clean sweep's Elo.
func finite(x float64) float64 { return math.Max(-1e9, math.Min(1e9, x)) }
