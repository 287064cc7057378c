package training

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"

	"chuzero/checkpoints"
	"chuzero/model"
	"chuzero/selfplay"
	"chuzero/selfplay/training/trainingtest"
	"chuzero/selfplay/transport/natsjs"
)

// TestMain checks that no process of a run leaves a goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction(natsjs.UpstreamLeak))
}

// newRun writes the quick config and returns a fresh run directory's
// options with it loaded, validated and written, as a command sets up.
func newRun(t *testing.T) Options {
	t.Helper()
	file := trainingtest.WriteQuickConfig(t, "")
	return loadRun(t, filepath.Join(t.TempDir(), "run"), file)
}

// loadRun loads, validates and writes the config of the run in dir (with
// file over it, if not ""), as a command does before it starts.
func loadRun(t *testing.T, dir, file string) Options {
	t.Helper()
	cfg, err := Load("", checkpoints.Run{Dir: dir}, file)
	if err == nil {
		err = cfg.Validate(checkpoints.Run{Dir: dir})
	}
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		err = cfg.Write(checkpoints.Run{Dir: dir})
	}
	if err != nil {
		t.Fatal(err)
	}
	return Options{Run: checkpoints.Run{Dir: dir}, Config: cfg}
}

// counter is an Observer that counts what it is shown.
type counter struct {
	games, moves, steps, ckpts atomic.Int64
}

func (c *counter) Checkpoint(string)        { c.ckpts.Add(1) }
func (c *counter) Game(*selfplay.Record)    { c.games.Add(1) }
func (c *counter) Move(int)                 { c.moves.Add(1) }
func (c *counter) TrainStep(model.StepInfo) { c.steps.Add(1) }

// runState is what a run directory holds: the newest checkpoint's step,
// and the games recorded.
func runState(t *testing.T, dir string) (step int64, games []selfplay.Record) {
	t.Helper()
	step = -1
	if e, err := (checkpoints.Run{Dir: dir}).Store(); err == nil {
		if l, err := e.Latest(); err == nil {
			step = l.Step
		}
	}
	files, _ := filepath.Glob(filepath.Join(checkpoints.Run{Dir: dir}.Games(), "*"+checkpoints.RecordExt))
	for _, f := range files {
		recs, err := selfplay.ReadRecords(f)
		if err != nil {
			t.Errorf("game file damaged: %v", err)
		}
		games = append(games, recs...)
	}
	return step, games
}

// TestTrain: a whole tiny training run without the command: it trains to
// its step bound while self-play plays, writes checkpoints (the last at the bound), games and the
// training log, shows its observer everything, and resumes where it
// stopped.
func TestTrain(t *testing.T) {
	o := newRun(t)
	obs := &counter{}
	o.Observer = obs
	tr, err := NewTrain(o)
	if err != nil {
		t.Fatal(err)
	}
	err = tr.Run(context.Background(), 6)
	tr.Close()
	if err != nil {
		t.Fatal(err)
	}
	step, games := runState(t, o.Run.Dir)
	if tr.Step() != 6 || step != 6 || len(games) == 0 || tr.Stats().Games == 0 {
		t.Fatalf("step %d, newest checkpoint %d, %d games recorded, %d played", tr.Step(), step, len(games), tr.Stats().Games)
	}
	if obs.games.Load() == 0 || obs.moves.Load() == 0 || obs.steps.Load() < 6 || obs.ckpts.Load() < 2 {
		t.Errorf("observer: %d games, %d moves, %d steps, %d checkpoints", obs.games.Load(), obs.moves.Load(), obs.steps.Load(), obs.ckpts.Load())
	}
	if trains, _, err := checkpoints.ReadLog[checkpoints.TrainEntry](checkpoints.Run{Dir: o.Run.Dir}, checkpoints.TrainLog); err != nil || len(trains) == 0 {
		t.Errorf("train log: %d entries, %v", len(trains), err)
	}
	// a second process on the same directory resumes: its first step is
	// past the checkpoint, and its games continue the run's numbering
	again, err := NewTrain(loadRun(t, o.Run.Dir, ""))
	if err != nil {
		t.Fatal(err)
	}
	err = again.Run(context.Background(), 11)
	again.Close()
	if err != nil || again.Step() != 11 {
		t.Fatalf("resumed run: step %d, %v", again.Step(), err)
	}
	_, all := runState(t, o.Run.Dir)
	seen := map[uint64]bool{}
	for _, r := range all {
		if seen[r.Index] {
			t.Errorf("game index %d played twice", r.Index)
		}
		seen[r.Index] = true
	}
}

// TestWorkerThenTrainer: a worker alone on a fresh run plays with the
// uniform evaluator, a trainer trains on its games to a step bound, and a
// worker started after plays the trainer's network.
func TestWorkerThenTrainer(t *testing.T) {
	o := newRun(t)
	playGames(t, o, 8, -1) // no network yet: the uniform evaluator
	tr, err := NewTrainer(context.Background(), loadRun(t, o.Run.Dir, ""))
	if err != nil {
		t.Fatal(err)
	}
	err = tr.Run(context.Background(), 6)
	tr.Close()
	if err != nil || tr.Step() != 6 {
		t.Fatalf("trainer: step %d, %v", tr.Step(), err)
	}
	playGames(t, loadRun(t, o.Run.Dir, ""), 2, 6) // the trainer's last network
	if _, games := runState(t, o.Run.Dir); len(games) != 10 {
		t.Errorf("%d games recorded, want 10", len(games))
	}
}

// playGames runs a worker on o for n games and checks that it played them
// with the network of step step (-1: the uniform evaluator).
func playGames(t *testing.T, o Options, n int, step int64) {
	t.Helper()
	w, err := NewWorker(context.Background(), o, WorkerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	err = w.Run(context.Background(), n)
	w.Close()
	if err != nil || w.Stats().Games != int64(n) {
		t.Fatalf("worker: %d games, %v; want %d", w.Stats().Games, err, n)
	}
	if w.sp.step != step {
		t.Errorf("the worker played network step %d, want %d", w.sp.step, step)
	}
}

// TestNatsWorkerAndTrainer: a trainer serving NATS JetStream itself and a
// worker on a directory of its own, connected only by NATS: the worker
// takes the run's config from the stream, its games reach the trainer,
// which trains on them to its step bound, and the worker gets the
// trainer's network.
func TestNatsWorkerAndTrainer(t *testing.T) {
	o := newRun(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	o.NATS = &NATS{Embedded: addr, Client: natsjs.Config{Run: "lib"}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr, err := NewTrainer(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	wdir := filepath.Join(t.TempDir(), "worker")
	client := natsjs.Config{URL: "nats://" + addr, Run: "lib", Worker: "w1"}
	if err := FetchConfig(ctx, client, checkpoints.Run{Dir: wdir}); err != nil {
		t.Fatal(err)
	}
	wo := loadRun(t, wdir, "")
	if wo.Config.Model.Preset != "tiny" {
		t.Fatalf("the worker's config has preset %q, not the trainer's tiny", wo.Config.Model.Preset)
	}
	wo.NATS = &NATS{Client: client}
	w, err := NewWorker(ctx, wo, WorkerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var werr error
	wg.Add(1)
	go func() { defer wg.Done(); werr = w.Run(ctx, 8) }()
	terr := tr.Run(ctx, 6)
	wg.Wait()
	w.Close()
	if terr != nil || werr != nil || tr.Step() != 6 {
		t.Fatalf("trainer at step %d, %v; worker %v", tr.Step(), terr, werr)
	}
	_, wgames := runState(t, wdir)
	_, tgames := runState(t, o.Run.Dir)
	if len(wgames) != 8 || len(tgames) == 0 || len(tgames) > len(wgames) {
		t.Errorf("the worker recorded %d games, the trainer holds %d", len(wgames), len(tgames))
	}
	if e, err := w.source(); err != nil || e.Step < 0 {
		t.Errorf("the worker has no network from the trainer: %+v %v", e, err)
	}
}
