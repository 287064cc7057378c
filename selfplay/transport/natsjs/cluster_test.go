package natsjs

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"chuzero/checkpoints"
	"chuzero/selfplay"
	"chuzero/selfplay/transport"
)

// natsServerBin is Debian's nats-server (package nats-server).
const natsServerBin = "/usr/sbin/nats-server"

// freePorts returns n loopback ports that were free a moment ago.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var out []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	return out
}

// cluster is three nats-server processes with JetStream on loopback.
type cluster struct {
	names []string
	urls  []string
	procs []*exec.Cmd
}

// startCluster starts the three nodes (storage and logs in temp dirs) and
// waits until JetStream answers through each.
func startCluster(t *testing.T) *cluster {
	t.Helper()
	ports := freePorts(t, 6)
	var routes []string
	for i := range 3 {
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", ports[3+i]))
	}
	c := &cluster{}
	t.Cleanup(c.stop)
	for i := range 3 {
		dir := t.TempDir()
		name := fmt.Sprintf("n%d", i+1)
		conf := fmt.Sprintf("server_name: %s\nlisten: 127.0.0.1:%d\njetstream { store_dir: %q }\n"+
			"cluster { name: chuzero-test\n listen: 127.0.0.1:%d\n routes: [%s] }\n",
			name, ports[i], filepath.Join(dir, "js"), ports[3+i], strings.Join(routes, ", "))
		path := filepath.Join(dir, "node.conf")
		if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(natsServerBin, "-c", path, "-l", filepath.Join(dir, "node.log"))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		c.names = append(c.names, name)
		c.urls = append(c.urls, fmt.Sprintf("nats://127.0.0.1:%d", ports[i]))
		c.procs = append(c.procs, cmd)
	}
	for _, u := range c.urls {
		waitFor(t, "JetStream on "+u, func() bool { return jetStreamUp(u) })
	}
	return c
}

// jetStreamUp reports whether JetStream answers through the server at url
// (the cluster has a meta leader).
func jetStreamUp(url string) bool {
	nc, err := nats.Connect(url, nats.Timeout(time.Second))
	if err != nil {
		return false
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err = js.AccountInfo(ctx)
	return err == nil
}

// kill sends SIGKILL to the node called name and waits for it.
func (c *cluster) kill(t *testing.T, name string) {
	t.Helper()
	for i, n := range c.names {
		if n == name && c.procs[i] != nil {
			c.procs[i].Process.Kill()
			c.procs[i].Wait()
			c.procs[i] = nil
			return
		}
	}
	t.Fatalf("no running node %q", name)
}

func (c *cluster) stop() {
	for i, p := range c.procs {
		if p != nil {
			p.Process.Kill()
			p.Wait()
			c.procs[i] = nil
		}
	}
}

// TestClusterNodeKilled: on a 3-node cluster of Debian's nats-server with
// the stream and buckets in 3 replicas, a worker publishes to a trainer;
// the stream's leader is killed (SIGKILL) half way; the run goes on: the
// batches published after the kill are acknowledged and written, every
// batch once, every game id once.
func TestClusterNodeKilled(t *testing.T) {
	if _, err := os.Stat(natsServerBin); err != nil {
		t.Skipf("%s is not installed (Debian package nats-server): skipping the 3-node cluster test", natsServerBin)
	}
	if testing.Short() {
		t.Skip("3-node cluster test skipped with -short")
	}
	c := startCluster(t)
	cfg := testConfig(strings.Join(c.urls, ","))
	cfg.Replicas = 3
	tdir := t.TempDir()
	tm, wm := NewMetrics(nil), NewMetrics(nil)
	tr := newTrainer(t, cfg, tdir, tm)
	defer tr.Close()
	stop := receive(tr)
	defer stop()
	w := newWorker(t, cfg, wm)
	defer w.Close()
	bs := batches(t, 21, 12)
	publishAll(t, w, bs[:6])
	haveBatches(t, tdir, 6)

	ctx := context.Background()
	st, err := tr.js.Stream(ctx, cfg.stream())
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil || info.Cluster == nil || len(info.Cluster.Replicas) != 2 {
		t.Fatalf("stream info %+v, %v: want a leader and 2 replicas", info, err)
	}
	t.Logf("killing %s, the stream's leader", info.Cluster.Leader)
	c.kill(t, info.Cluster.Leader)

	publishAll(t, w, bs[6:])
	haveBatches(t, tdir, len(bs))
	stop()
	if got := testutil.ToFloat64(wm.publishedBatches); got != float64(len(bs)) {
		t.Errorf("the worker had %v batches acknowledged, want %d", got, len(bs))
	}
	checkOnce(t, tdir, bs)
	if got := testutil.ToFloat64(tm.consumedBatches); got != float64(len(bs)) {
		t.Errorf("the trainer wrote %v batches, want %d", got, len(bs))
	}
}

// checkOnce checks that run directory dir holds exactly the batches bs,
// each sample and record file once, and no game id twice.
func checkOnce(t *testing.T, dir string, bs []transport.Batch) {
	t.Helper()
	samples, records := runFiles(t, dir)
	if len(samples) != len(bs) || len(records) != len(bs) {
		t.Fatalf("%d sample and %d record files, want %d each", len(samples), len(records), len(bs))
	}
	seen := map[string]bool{}
	for _, name := range records {
		_, rp := transport.Dir{Run: checkpoints.Run{Dir: dir}}.Paths(name)
		recs, err := selfplay.ReadRecords(rp)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if seen[r.ID] {
				t.Errorf("game %s recorded twice", r.ID)
			}
			seen[r.ID] = true
		}
	}
	want := 0
	for _, b := range bs {
		want += b.Games
	}
	if len(seen) != want {
		t.Errorf("%d games in the directory, want %d", len(seen), want)
	}
}
