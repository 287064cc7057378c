package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"chuzero/checkpoints"
	"chuzero/checkpoints/atomicfile"
	"chuzero/encode"
	cmodel "chuzero/model"
	"chuzero/rules"
	"chuzero/selfplay"
	"chuzero/selfplay/training"
	"chuzero/selfplay/training/trainingtest"
	"chuzero/selfplay/transport/natsjs"
)

// TestMain lets the test binary act as chuzero itself, for the tests that
// need a real process (the kill test): CHUZERO_MAIN=1 runs main. Otherwise
// it runs the tests and then checks that no goroutine outlived them.
func TestMain(m *testing.M) {
	if os.Getenv("CHUZERO_MAIN") == "1" {
		killAtWrite(os.Getenv("CHUZERO_KILL_AT"))
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	// no command may leave a goroutine behind (a watcher, a reader, a
	// server): checked after all the tests, but for nats.go's own
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction(natsjs.UpstreamLeak))
}

// killAtWrite makes the process SIGKILL itself in the middle of an atomic
// write: spec "EXT STAGE N" is the N-th write stage STAGE ("write": the
// temporary file partly written; "commit": written and synced, not yet
// renamed into place) of a file ending in EXT (atomicfile.WriteHook).
func killAtWrite(spec string) {
	var ext, stage string
	var n int
	if _, err := fmt.Sscanf(spec, "%s %s %d", &ext, &stage, &n); err != nil {
		return
	}
	var mu sync.Mutex
	atomicfile.WriteHook = func(path, st string) {
		if st != stage || !strings.HasSuffix(path, ext) {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if n--; n == 0 {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
	}
}

// writeQuickConfig writes the tests' run config (trainingtest.QuickConfig).
func writeQuickConfig(t *testing.T) string { return trainingtest.WriteQuickConfig(t, "") }

// checkRun verifies a run directory: every checkpoint loads, every sample
// and record file reads in full, and returns the newest step.
func checkRun(t *testing.T, dir string) (step int64, samples, games int) {
	t.Helper()
	store, err := checkpoints.Open(filepath.Join(dir, "checkpoints"))
	if err != nil {
		t.Fatal(err)
	}
	list, err := store.List()
	if err != nil {
		t.Fatal(err)
	}
	step = -1
	for _, e := range list {
		if _, _, err := cmodel.LoadWeights(e.Path, rules.Sho); err != nil {
			t.Errorf("checkpoint %s does not load: %v", e.Name, err)
		}
		step = max(step, e.Step)
	}
	files, _ := filepath.Glob(filepath.Join(dir, checkpoints.SamplesDir, "*"+encode.SampleFileExt))
	for _, f := range files {
		s, err := encode.ReadSampleFile(f)
		if err != nil {
			t.Errorf("sample file damaged: %v", err)
		}
		samples += len(s)
	}
	files, _ = filepath.Glob(filepath.Join(dir, checkpoints.GamesDir, "*.jsonl"))
	for _, f := range files {
		recs, err := selfplay.ReadRecords(f)
		if err != nil {
			t.Errorf("game file damaged: %v", err)
		}
		games += len(recs)
	}
	return step, samples, games
}

// TestTrainEndToEnd trains the tiny network on Sho for six steps and gets
// games and at least two checkpoints; a second run resumes.
func TestTrainEndToEnd(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := writeQuickConfig(t)
	code, out, errs := runCmd("train", "-run", dir, "-config", cfg, "-max-steps", "6", "-metrics-addr", "off", "-quiet")
	if code != 0 {
		t.Fatalf("train: exit %d\n%s\n%s", code, out, errs)
	}
	step, samples, games := checkRun(t, dir)
	list, _ := (&checkpoints.Store{Dir: filepath.Join(dir, "checkpoints")}).List()
	t.Logf("%d games, %d samples, step %d, %d checkpoints", games, samples, step, len(list))
	if games == 0 || samples == 0 || len(list) < 2 || step != 6 {
		t.Fatalf("after 6 steps: %d games, %d samples, %d checkpoints (step %d)", games, samples, len(list), step)
	}
	// the effective config was written, and a second run resumes from it
	if _, err := os.Stat(filepath.Join(dir, "config.json")); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCmd("train", "-run", dir, "-max-steps", fmt.Sprint(step+3), "-metrics-addr", "off", "-quiet")
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, fmt.Sprintf("stopped at step %d", step+3)) {
		t.Errorf("resume did not reach step %d: %s", step+3, out)
	}
	if !strings.Contains(out, "% of one core)") {
		t.Errorf("the last line does not give the CPU time used: %s", out)
	}
	// changing the variant of an existing run is refused
	if code, _, errs := runCmd("train", "-run", dir, "-variant", "chu", "-duration", "1s", "-metrics-addr", "off"); code == 0 || !strings.Contains(errs, "plays sho") {
		t.Errorf("a variant change was not refused: %d %s", code, errs)
	}
}

// TestTrainKilled starts chuzero train as a subprocess, kills it with
// SIGKILL at random moments several times, and checks after each restart
// that every checkpoint loads, no sample file is damaged and the step never
// goes back.
func TestTrainKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("kill test skipped with -short")
	}
	dir := filepath.Join(t.TempDir(), "run")
	cfg := writeQuickConfig(t)
	rng := rand.New(rand.NewPCG(7, 7))
	last := int64(-1)
	for round := 0; round < 4; round++ {
		cmd := exec.Command(os.Args[0], "train", "-run", dir, "-config", cfg, "-metrics-addr", "off", "-quiet")
		cmd.Env = append(os.Environ(), "CHUZERO_MAIN=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		started := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// at a random one of the run's first writes (a sample file or a
		// checkpoint): the games in flight and the trainer's step go down
		// with it
		waitForWrites(t, dir, started, 2+rng.IntN(6))
		cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("round %d: the process ended by itself: %v\n%s", round, err, stderr.String())
		}
		step, samples, games := checkRun(t, dir)
		t.Logf("round %d: killed; step %d, %d samples, %d games", round, step, samples, games)
		if step < last {
			t.Fatalf("round %d: the step went back from %d to %d", round, last, step)
		}
		last = step
	}
	// kills that land in the middle of checkpoint and sample writes (the
	// random ones above land mostly in self-play)
	for _, at := range []string{".ckpt write 1", ".samples commit 2", ".ckpt commit 2", ".samples write 3"} {
		cmd := exec.Command(os.Args[0], "train", "-run", dir, "-config", cfg, "-metrics-addr", "off", "-quiet")
		cmd.Env = append(os.Environ(), "CHUZERO_MAIN=1", "CHUZERO_KILL_AT="+at)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var err error
		select {
		case err = <-done:
		case <-time.After(2 * time.Minute): // a guard: the write comes within seconds
			cmd.Process.Kill()
			<-done
			t.Fatalf("%s: the process never reached that write\n%s", at, stderr.String())
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("%s: the process did not die at the write: %v\n%s", at, err, stderr.String())
		}
		step, samples, games := checkRun(t, dir)
		t.Logf("killed at %s: step %d, %d samples, %d games", at, step, samples, games)
		if step < last {
			t.Fatalf("%s: the step went back from %d to %d", at, last, step)
		}
		last = step
	}
	// SIGTERM stops it cleanly: exit status 0 and a final checkpoint
	cmd := exec.Command(os.Args[0], "train", "-run", dir, "-metrics-addr", "off", "-quiet")
	cmd.Env = append(os.Environ(), "CHUZERO_MAIN=1")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForWrites(t, dir, time.Now(), 1)
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("SIGTERM: %v\n%s", err, out.String())
	}
	step, _, _ := checkRun(t, dir)
	if step < last || !strings.Contains(out.String(), fmt.Sprintf("stopped at step %d", step)) {
		t.Fatalf("after SIGTERM: newest checkpoint %d (before %d); output %q", step, last, out.String())
	}
}

// syncBuffer is a buffer safe for a command writing while a test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRunConfigFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("variant: sho\nmodel: {presett: tiny}\n"), 0o644)
	if code, _, errs := runCmd("train", "-run", dir, "-config", bad, "-duration", "1s", "-metrics-addr", "off"); code == 0 || !strings.Contains(errs, "presett") {
		t.Errorf("an unknown key was accepted: %d %s", code, errs)
	}
	js := filepath.Join(t.TempDir(), "c.json")
	os.WriteFile(js, []byte(`{"variant": "heian", "model": {"preset": "tiny"}, "train": {"batch": 16}}`), 0o644)
	cfg, err := training.Load("", checkpoints.Run{Dir: dir}, js)
	if err != nil || cfg.Variant != "heian" || cfg.Train.Batch != 16 || cfg.Self.Games != 64 {
		t.Errorf("JSON config: %+v, %v", cfg, err)
	}
}

// TestTrainEvalGating: with gating on and a fast evaluation interval, a
// short run logs its training, evaluates its latest checkpoint against the
// anchors, gates each new checkpoint by SPRT and keeps best.json; the
// report draws it all.
func TestTrainEvalGating(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	// short games (the rules' cap at 80 plies) so that a gating match
	// decides within the run even on a loaded machine
	cfg := trainingtest.WriteQuickConfig(t, `
rules: {MaxPlies: "80"}
eval: {interval: 2s, games: 2, simulations: 4, anchors: [greedy, random, first]}
gating: {enabled: true, games: 4, simulations: 4, elo0: 0, elo1: 200}
`)
	args := []string{"train", "-run", dir, "-config", cfg, "-metrics-addr", "off", "-quiet"}
	code, out, errs := runUntil(t, args, 3000, func(string) bool {
		evals, _, _ := checkpoints.ReadLog[checkpoints.EvalEntry](checkpoints.Run{Dir: dir}, checkpoints.EvalLog)
		gates, _, _ := checkpoints.ReadLog[checkpoints.GatingEntry](checkpoints.Run{Dir: dir}, checkpoints.GatingLog)
		return len(evals) > 0 && len(gates) > 0
	})
	if code != 0 {
		t.Fatalf("train: exit %d\n%s\n%s", code, out, errs)
	}
	trains, _, err := checkpoints.ReadLog[checkpoints.TrainEntry](checkpoints.Run{Dir: dir}, checkpoints.TrainLog)
	if err != nil || len(trains) == 0 || trains[len(trains)-1].Loss <= 0 {
		t.Errorf("train log: %d entries, %v", len(trains), err)
	}
	evals, _, err := checkpoints.ReadLog[checkpoints.EvalEntry](checkpoints.Run{Dir: dir}, checkpoints.EvalLog)
	if err != nil || len(evals) == 0 {
		t.Fatalf("eval log: %d entries, %v\n%s", len(evals), err, errs)
	}
	for _, e := range evals { // every anchor in turn: TestJudge; here, what a live run wrote
		if e.Games != 2 || e.Wins+e.Draws+e.Losses != 2 || e.EloLow > e.Elo || e.Elo > e.EloHigh {
			t.Errorf("eval entry %+v", e)
		}
	}
	gates, _, err := checkpoints.ReadLog[checkpoints.GatingEntry](checkpoints.Run{Dir: dir}, checkpoints.GatingLog)
	if err != nil || len(gates) == 0 {
		t.Fatalf("gating log: %d entries, %v\n%s", len(gates), err, errs)
	}
	for _, g := range gates {
		if g.Games < 1 || g.Games > 4 || (g.Decision != "accept") != !g.Promoted {
			t.Errorf("gating entry %+v", g)
		}
	}
	best, ok, err := (checkpoints.Run{Dir: dir}).ReadBest()
	if err != nil || !ok {
		t.Fatalf("best.json: %v %v", ok, err)
	}
	if _, err := checkpoints.ReadFile(best.Path); err != nil {
		t.Errorf("best.ckpt: %v", err)
	}
	if _, err := os.Stat((checkpoints.Run{Dir: dir}).Anchor("first")); err != nil {
		t.Error(err)
	}
	code, out, errs = runCmd("report", "-run", dir)
	if code != 0 || !strings.Contains(out, "index.html") {
		t.Errorf("report: %d\n%s\n%s", code, out, errs)
	}
}

// TestSelfPlayThenTrainer: the two halves as separate commands on one
// directory: self-play games, then a trainer that trains on them to a step
// bound and writes its checkpoints and log.
func TestSelfPlayThenTrainer(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := writeQuickConfig(t)
	code, out, errs := runCmd("selfplay", "-run", dir, "-config", cfg, "-max-games", "8", "-metrics-addr", "off", "-quiet")
	if code != 0 || !strings.Contains(out, "stopped: 8 games") {
		t.Fatalf("selfplay: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = runCmd("trainer", "-run", dir, "-max-steps", "6", "-metrics-addr", "off", "-quiet")
	if code != 0 || !strings.Contains(out, "stopped at step 6") {
		t.Fatalf("trainer: exit %d\n%s\n%s", code, out, errs)
	}
	if step, _, games := checkRun(t, dir); step != 6 || games < 8 {
		t.Errorf("step %d, %d games", step, games)
	}
	if trains, _, err := checkpoints.ReadLog[checkpoints.TrainEntry](checkpoints.Run{Dir: dir}, checkpoints.TrainLog); err != nil || len(trains) == 0 {
		t.Errorf("train log: %d entries, %v", len(trains), err)
	}
}

// waitForWrites waits until the run in dir has written n sample files
// or checkpoints newer than since: the process is at work.
func waitForWrites(t *testing.T, dir string, since time.Time, n int) {
	t.Helper()
	run := checkpoints.Run{Dir: dir}
	waitUntil(t, fmt.Sprintf("%d new sample files or checkpoints", n), func() bool {
		k := 0
		for _, d := range []string{run.Samples(), run.Checkpoints()} {
			entries, _ := os.ReadDir(d)
			for _, e := range entries {
				if info, err := e.Info(); err == nil && info.ModTime().After(since) {
					k++
				}
			}
		}
		return k >= n
	})
}

func TestCPUShare(t *testing.T) {
	for _, c := range []struct {
		cpu, wall time.Duration
		want      string
	}{
		{6669 * time.Second, 3600 * time.Second, "CPU 6669 s in 3600 s (185 % of one core)"},
		{500 * time.Millisecond, 2 * time.Second, "CPU 0 s in 2 s (25 % of one core)"},
		{0, time.Second, "CPU time unknown"},
		{time.Second, 0, "CPU time unknown"},
	} {
		if got := cpuShare(c.cpu, c.wall); got != c.want {
			t.Errorf("cpuShare(%v, %v) = %q, want %q", c.cpu, c.wall, got, c.want)
		}
	}
}
