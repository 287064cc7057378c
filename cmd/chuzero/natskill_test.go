package main

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/rules"
	"chuzero/selfplay/training"
	"chuzero/selfplay/transport/natsjs"
)

// natsTrainerOnly is an embedded server and a trainer that only receives
// (no training): the run's config published, batches written into dir.
type natsTrainerOnly struct {
	url, dir string
	stop     func()
}

func startReceiver(t *testing.T, run string) *natsTrainerOnly {
	t.Helper()
	srv, err := natsjs.StartServer(natsjs.ServerOptions{Addr: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	cfg, err := training.Load("", checkpoints.Run{Dir: dir}, writeQuickConfig(t))
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		err = cfg.Write(checkpoints.Run{Dir: dir})
	}
	if err != nil {
		srv.Close()
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	tr, err := natsjs.NewTrainer(ctx, natsjs.Config{URL: srv.URL(), Run: run}, checkpoints.Run{Dir: dir}, rules.Sho, nil, nil)
	if err == nil {
		err = tr.PublishConfig(ctx, mustRead(t, checkpoints.Run{Dir: dir}.Config()))
	}
	if err != nil {
		cancel()
		srv.Close()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { tr.Receive(ctx); close(done) }()
	return &natsTrainerOnly{url: srv.URL(), dir: dir, stop: func() { cancel(); <-done; tr.Close(); srv.Close() }}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// recordFiles lists the base names of the record files in dir.
func recordFiles(dir string) []string {
	names, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	for i, n := range names {
		names[i] = filepath.Base(n)
	}
	return names
}

// waitUntil polls cond every 20 ms until it holds; it fails the test
// after a generous guard.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Minute); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestNatsWorkerKilled runs "selfplay -nats" as a subprocess and kills
// it with SIGKILL, mid-game, three times, each time once a new batch has
// reached the trainer; a last run ends by itself. The restarts republish
// what the kills left in the outbox: every batch the stream acknowledged
// (the records the worker moved to its games/) is in the trainer's
// directory with the same bytes, the outbox is empty, and "chuzero
// verify" finds no duplicate game id and no unpaired file there.
func TestNatsWorkerKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("kill test skipped with -short")
	}
	tr := startReceiver(t, "k")
	defer tr.stop()
	wdir := filepath.Join(t.TempDir(), "w")
	trGames := checkpoints.Run{Dir: tr.dir}.Games()
	rng := rand.New(rand.NewPCG(13, 13))
	for round := range 4 {
		args := []string{"selfplay", "-run", wdir, "-nats", tr.url, "-nats-run", "k", "-worker-id", "w1",
			"-metrics-addr", "off", "-quiet"}
		if round == 3 {
			args = append(args, "-max-games", "4")
		}
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "CHUZERO_MAIN=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if round == 3 {
			if err := cmd.Wait(); err != nil {
				t.Fatalf("the last run: %v\n%s", err, stderr.String())
			}
			break
		}
		had := len(recordFiles(trGames))
		waitUntil(t, "a new batch at the trainer", func() bool { return len(recordFiles(trGames)) > had })
		// at a random moment, or sooner as a batch enters the outbox
		outbox := filepath.Join(checkpoints.Run{Dir: wdir}.Outbox().Samples(), "*"+encode.SampleFileExt)
		for end := time.Now().Add(time.Duration(rng.IntN(400)) * time.Millisecond); time.Now().Before(end); {
			if m, _ := filepath.Glob(outbox); len(m) > 0 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		var ee *exec.ExitError
		if err := cmd.Wait(); !errors.As(err, &ee) {
			t.Fatalf("round %d: the worker ended by itself: %v\n%s", round, err, stderr.String())
		}
		left, _ := filepath.Glob(outbox)
		t.Logf("round %d: killed with %d batches at the trainer, %d in the outbox", round, len(recordFiles(trGames)), len(left))
	}
	checkNothingLost(t, wdir, tr)
}

// checkNothingLost waits until every batch worker directory wdir had
// acknowledged is in the trainer's directory, then compares the records
// and verifies the trainer's directory.
func checkNothingLost(t *testing.T, wdir string, tr *natsTrainerOnly) {
	t.Helper()
	wrun, trun := checkpoints.Run{Dir: wdir}, checkpoints.Run{Dir: tr.dir}
	acked := recordFiles(wrun.Games())
	waitUntil(t, "the acknowledged batches at the trainer", func() bool {
		for _, n := range acked {
			if _, err := os.Stat(filepath.Join(trun.Games(), n)); err != nil {
				return false
			}
		}
		return true
	})
	tr.stop()
	tr.stop = func() {}
	for _, n := range acked {
		if !bytes.Equal(mustRead(t, filepath.Join(wrun.Games(), n)), mustRead(t, filepath.Join(trun.Games(), n))) {
			t.Errorf("batch %s: the trainer's records differ from the worker's", n)
		}
	}
	left, _ := filepath.Glob(filepath.Join(wrun.Outbox().Dir, "*", "*"+encode.SampleFileExt))
	if len(left) > 0 {
		t.Errorf("left in the outbox: %v", left)
	}
	r := training.Verify(trun)
	t.Logf("worker acknowledged %d batches; trainer: %d record files, %d games, %d samples", len(acked), r.RecordFiles, r.Games, r.Samples)
	if len(r.Problems) > 0 || r.DuplicateIDs > 0 || r.Unpaired > 0 || r.RecordFiles != len(acked) {
		t.Errorf("trainer's directory: %d record files for %d acknowledged, %d duplicate ids, %d unpaired, problems %v",
			r.RecordFiles, len(acked), r.DuplicateIDs, r.Unpaired, r.Problems)
	}
}
