package main

import (
	"fmt"
	"net"
	"path/filepath"
	"sync"
	"testing"

	"chuzero/checkpoints"
	"chuzero/selfplay/training"
	"chuzero/selfplay/transport/natsjs"
)

// freePort returns a loopback port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestNatsTrainerAndTwoWorkers trains the tiny Sho network with a
// trainer serving JetStream itself (-embedded-nats) and two self-play
// workers on their own directories (-nats): the workers take the
// trainer's config, their batches land in the trainer's directory (those
// published after the trainer stopped wait in the stream), and the
// trainer reaches its step.
func TestNatsTrainerAndTwoWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a network")
	}
	cfg := writeQuickConfig(t)
	tdir := filepath.Join(t.TempDir(), "run")
	url := fmt.Sprintf("nats://127.0.0.1:%d", freePort(t))
	// the server admits the run's two keys only (made here, so that the
	// workers starting beside the trainer have theirs): the workers do
	// all their work under the worker's permissions
	keys, _, err := natsjs.EnsureKeys(checkpoints.Run{Dir: tdir}.NatsKeys())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	type result struct {
		code     int
		out, err string
	}
	res := make([]result, 3)
	wg.Add(1)
	go func() {
		defer wg.Done()
		c, o, e := runCmd("trainer", "-run", tdir, "-config", cfg, "-max-steps", "6", "-metrics-addr", "off", "-quiet",
			"-embedded-nats", url[len("nats://"):], "-embedded-nats-auth", "on", "-nats-run", "t")
		res[0] = result{c, o, e}
	}()
	wdirs := []string{filepath.Join(t.TempDir(), "w1"), filepath.Join(t.TempDir(), "w2")}
	for i, d := range wdirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, o, e := runCmd("selfplay", "-run", d, "-variant", "sho", "-max-games", "8", "-metrics-addr", "off", "-quiet",
				"-nats", url, "-nats-nkey", keys.Worker, "-nats-run", "t", "-worker-id", fmt.Sprintf("w%d", i+1))
			res[i+1] = result{c, o, e}
		}()
	}
	wg.Wait()
	for i, r := range res {
		if r.code != 0 {
			t.Fatalf("process %d: exit %d\n%s\n%s", i, r.code, r.out, r.err)
		}
	}
	step, samples, games := checkRun(t, tdir)
	t.Logf("trainer: step %d, %d games, %d samples", step, games, samples)
	if step != 6 || games == 0 || samples == 0 {
		t.Fatalf("trainer: step %d, %d games, %d samples", step, games, samples)
	}
	// every batch the trainer holds came from a worker, whose records match
	_, _, w1 := checkRun(t, wdirs[0])
	_, _, w2 := checkRun(t, wdirs[1])
	if w1 != 8 || w2 != 8 || games > w1+w2 {
		t.Errorf("workers recorded %d and %d games, the trainer has %d; want 8, 8 and at most their sum", w1, w2, games)
	}
	// the workers took the trainer's config (the quick one, not Sho's defaults)
	for _, d := range wdirs {
		c, err := training.Load("", checkpoints.Run{Dir: d}, "")
		if err != nil || c.Model.Preset != "tiny" {
			t.Errorf("worker %s: config preset %q, %v; want the trainer's tiny", d, c.Model.Preset, err)
		}
	}
}
