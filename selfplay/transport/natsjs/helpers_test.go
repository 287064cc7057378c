package natsjs

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"go.uber.org/goleak"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay"
	"chuzero/selfplay/transport"
)

// TestMain checks that no test leaves a goroutine behind, but for the
// library's own (UpstreamLeak).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m, goleak.IgnoreTopFunction(UpstreamLeak)) }

// guard bounds a test that waits on counts.
const guard = 2 * time.Minute

// startServer runs an in-process JetStream server on loopback with its
// storage in storeDir, on port (0: any).
func startServer(t testing.TB, storeDir string, port int) *server.Server {
	t.Helper()
	if port == 0 {
		port = server.RANDOM_PORT
	}
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: port, JetStream: true, StoreDir: storeDir,
		NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("server did not start")
	}
	return s
}

func stopServer(s *server.Server) {
	s.Shutdown()
	s.WaitForShutdown()
}

func testLog(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(b []byte) (int, error) { w.t.Log(string(b)); return len(b), nil }

// testConfig is a run with small parts (batches travel in several).
func testConfig(url string) Config {
	return Config{URL: url, Run: "test", PartSize: 4096, AckWait: 5 * time.Second}
}

// capture is a publisher that keeps the batches.
type capture struct {
	mu      sync.Mutex
	batches []transport.Batch
}

func (c *capture) Publish(_ context.Context, b transport.Batch) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.batches = append(c.batches, b)
	return nil
}

// selfPlayConfig is quick Sho self-play with random priors.
func selfPlayConfig(t testing.TB, seed uint64) selfplay.Config {
	cfg := selfplay.DefaultConfig(rules.Sho)
	cfg.Run = checkpoints.Run{Dir: t.TempDir()}
	cfg.Games = 2
	cfg.FullSimulations, cfg.CheapSimulations = 4, 2
	cfg.MaxPlies = 40
	cfg.GamesPerFile = 1
	cfg.Seed = seed
	return cfg
}

// play runs games of self-play into pub.
func play(t testing.TB, pub transport.Publisher, seed uint64, games int) {
	t.Helper()
	r, err := selfplay.New(selfPlayConfig(t, seed), mcts.Random{Seed: seed}, "random")
	if err != nil {
		t.Fatal(err)
	}
	r.Publisher = pub
	if err := r.Run(context.Background(), games); err != nil {
		t.Fatal(err)
	}
}

// batches returns real batches of games.
func batches(t testing.TB, seed uint64, games int) []transport.Batch {
	var c capture
	play(t, &c, seed, games)
	return c.batches
}

// receive runs t's Receive until stop is called.
func receive(tr *Trainer) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { tr.Receive(ctx); close(done) }()
	return func() { cancel(); <-done }
}

// runFiles returns the names of the sample and record files of a run
// directory, without extensions.
func runFiles(t testing.TB, dir string) (samples, games []string) {
	t.Helper()
	run := checkpoints.Run{Dir: dir}
	list := func(d, ext string) []string {
		names, _ := filepath.Glob(filepath.Join(d, "*"+ext))
		var out []string
		for _, n := range names {
			out = append(out, filepath.Base(n[:len(n)-len(ext)]))
		}
		sort.Strings(out)
		return out
	}
	return list(run.Samples(), encode.SampleFileExt), list(run.Games(), ".jsonl")
}

// waitFor polls cond (every 20 ms) until it holds or the guard runs out.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// haveBatches waits for n whole batches in dir: n sample files and n
// record files (a batch's sample file is written before its record file,
// so counting samples alone can see a batch half written).
func haveBatches(t testing.TB, dir string, n int) {
	t.Helper()
	waitFor(t, "batches in the trainer's directory", func() bool {
		s, r := runFiles(t, dir)
		return len(s) >= n && len(r) >= n
	})
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
