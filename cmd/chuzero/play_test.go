package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chuzero/model/modeltest"
	"chuzero/rules"
	"chuzero/selfplay/arena"
	"chuzero/selfplay/engine/enginetest"
)

// engineProc runs "chuzero play" as a real process behind pipes.
type engineProc struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

func startPlay(t *testing.T, args ...string) *engineProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"play"}, args...)...)
	cmd.Env = append(os.Environ(), "CHUZERO_MAIN=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &engineProc{t: t, cmd: cmd, in: in, lines: make(chan string, 1000)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			t.Errorf("chuzero play did not exit after its input closed; stderr: %s", stderr.String())
		}
	})
	return p
}

func (p *engineProc) send(lines ...string) {
	for _, l := range lines {
		io.WriteString(p.in, l+"\n")
	}
}

func (p *engineProc) expect(prefix string) (string, []string) {
	p.t.Helper()
	return enginetest.ExpectLine(p.t, p.lines, prefix, 30*time.Second)
}

// The CECP engine through a real pipe: handshake, a few moves, malformed
// lines, and quit.
func TestPlayPipe(t *testing.T) {
	p := startPlay(t, "-checkpoint", "none", "-sims", "16")
	p.send("xboard", "protover 2")
	_, feats := p.expect("feature done=1")
	if !strings.Contains(strings.Join(feats, "\n"), `variants="chu,sho,heian"`) {
		t.Errorf("features: %q", feats)
	}
	p.send("new", "variant chu", "usermove f4f5")
	line, _ := p.expect("move ")
	g := rules.NewGame(rules.MustNew(rules.DefaultConfig(rules.Chu)).StartPosition())
	g.PlayString("f4f5")
	if _, err := g.PlayString(strings.TrimPrefix(line, "move ")); err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	for _, bad := range []string{"usermove f5f9", "usermove ,,,,", "level", "st x", "\xff\xfe", "variant nope"} {
		p.send(bad, "ping 1")
		_, out := p.expect("pong 1")
		if len(out) != 1 || !(strings.HasPrefix(out[0], "Illegal move") || strings.HasPrefix(out[0], "Error")) {
			t.Errorf("%q: %q", bad, out)
		}
	}
	p.send("quit")
	if _, ok := <-p.lines; ok {
		// drain: the process must end
		for range p.lines {
		}
	}
}

// With a run's checkpoint the engine offers the network's game only, and
// plays Sho with its setup line.
func TestPlayCheckpoint(t *testing.T) {
	dir := modeltest.FakeRun(t, rules.Sho, 10)
	p := startPlay(t, "-run", dir, "-sims", "8", "-material-utility", "0.5")
	p.send("xboard", "protover 2")
	_, feats := p.expect("feature done=1")
	all := strings.Join(feats, "\n")
	if !strings.Contains(all, `variants="sho"`) || !strings.Contains(all, "step-000000010") {
		t.Errorf("features: %s", all)
	}
	p.send("new", "variant sho")
	p.expect("setup (")
	p.send("usermove e3e4")
	p.expect("move ")
	p.send("variant chu", "ping 2")
	if l, _ := p.expect("pong 2"); l == "" {
		t.Fatal("no pong")
	}
}

func TestPlayErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "-run", t.TempDir()}, "has no checkpoints"},
		{[]string{"play", "-checkpoint", "none", "-sims", "-1"}, "negative search budget"}, // -sims 0 is the clock alone (TestPlayClockAlone)
		{[]string{"play", "-checkpoint", "none", "-human", "-side", "left"}, "-side"},
		{[]string{"play", "-checkpoint", "none", "-protocol", "uci"}, "-protocol"},
		{[]string{"play", "-checkpoint", "none", "-material-utility", "1.5"}, "MaterialUtility"},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.args, &out, &errb); code == 0 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, %q", tc.args, code, errb.String())
		}
	}
}

// chuzero arena: checkpoints of a run against each other and a baseline,
// with records and a results table.
func TestArenaCommand(t *testing.T) {
	dir := modeltest.FakeRun(t, rules.Sho, 5, 10)
	out := filepath.Join(t.TempDir(), "match")
	var stdout, stderr bytes.Buffer
	code := run([]string{"arena", "-run", dir, "-variant", "sho", "-games", "2", "-sims", "8", "-concurrency", "2", "-out", out,
		"latest", "5,name=old", "greedy"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout.String(), stderr.String())
	}
	for _, want := range []string{"game 6/6", "step-000000010-8", "old", "greedy", "95% interval", "Elo relative to"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
	recs, err := arena.ReadGameRecords(filepath.Join(out, "games.jsonl"))
	if err != nil || len(recs) != 6 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	var sum arena.Summary
	b, _ := os.ReadFile(filepath.Join(out, "results.json"))
	if err := json.Unmarshal(b, &sum); err != nil || sum.Games != 6 || len(sum.Ratings) != 3 {
		t.Errorf("results.json: %v %s", err, b)
	}
	if _, err := os.Stat(filepath.Join(out, "games.pgn")); err != nil {
		t.Error(err)
	}
	// SPRT mode and bad arguments
	stdout.Reset()
	if code := run([]string{"arena", "-variant", "sho", "-games", "200", "-sprt", "0,150", "-out", t.TempDir(), "-quiet", "greedy", "random"}, &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), "-> H1") {
		t.Errorf("sprt: exit %d\n%s", code, stdout.String())
	}
	for _, args := range [][]string{
		{"arena", "greedy"},
		{"arena", "-sprt", "10,0", "greedy", "random"},
		{"arena", "-run", dir, "-variant", "sho", "latest", "nosuchstep"},
		{"arena", "-variant", "sho", "greedy", "greedy"},
		{"arena", "greedy", "xboard:/nonexistent/engine"},
		{"arena", "greedy", "random,sims=x"},
	} {
		stderr.Reset()
		if code := run(args, &stdout, &stderr); code == 0 {
			t.Errorf("%v succeeded", args)
		} else if !strings.Contains(stderr.String(), "chuzero arena") && !strings.Contains(stderr.String(), "invalid value") {
			t.Errorf("%v: unclear error %q", args, stderr.String())
		}
	}
}

// Checkpoints against HaChu, from a run directory, as a user would.
func TestArenaHaChu(t *testing.T) {
	if _, err := arena.LookPath("hachu"); err != nil {
		t.Skip("hachu is not installed (apt-get install hachu); .ci/run installs it")
	}
	dir := modeltest.FakeRun(t, rules.Chu, 1)
	var stdout, stderr bytes.Buffer
	code := run([]string{"arena", "-run", dir, "-games", "2", "-sims", "8", "-rule", "MaxPlies=80", "-out", t.TempDir(),
		"latest", "hachu,depth=1,time=1s"}, &stdout, &stderr)
	if code != 0 || !strings.Contains(stdout.String(), "hachu-d1") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
}
