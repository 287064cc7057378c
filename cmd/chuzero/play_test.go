package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/mcts"
	cmodel "chuzero/model"
	"chuzero/rules"
	"chuzero/selfplay/arena"
	"chuzero/selfplay/engine/enginetest"
	"chuzero/selfplay/report"
)

// fakeRun writes a run directory with tiny-network checkpoints at the
// given steps (fresh weights, distinct seeds).
func fakeRun(t *testing.T, v rules.VariantID, steps ...int64) string {
	t.Helper()
	dir := t.TempDir()
	fillRun(t, dir, v, steps...)
	return dir
}

// fillRun writes tiny-network checkpoints of variant v at the given steps
// into the run directory dir.
func fillRun(t *testing.T, dir string, v rules.VariantID, steps ...int64) {
	t.Helper()
	store, err := checkpoints.Open(filepath.Join(dir, "checkpoints"))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := encode.NewSpec(v, encode.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	mc, _ := cmodel.Preset("tiny")
	for _, s := range steps {
		w, err := cmodel.NewWeights(mc, spec, uint64(s)+1)
		if err != nil {
			t.Fatal(err)
		}
		c, err := w.Checkpoint(checkpoints.Meta{Step: s, Rules: rules.DefaultConfig(v).String(), Created: time.Now().UTC()})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.Save(c); err != nil {
			t.Fatal(err)
		}
	}
}

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
	dir := fakeRun(t, rules.Sho, 10)
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
	dir := fakeRun(t, rules.Sho, 5, 10)
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
	dir := fakeRun(t, rules.Chu, 1)
	var stdout, stderr bytes.Buffer
	code := run([]string{"arena", "-run", dir, "-games", "2", "-sims", "8", "-rule", "MaxPlies=80", "-out", t.TempDir(),
		"latest", "hachu,depth=1,time=1s"}, &stdout, &stderr)
	if code != 0 || !strings.Contains(stdout.String(), "hachu-d1") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
}

// FuzzParsePlayer: any player argument is parsed or refused with a
// message naming it; an accepted one has a name and a valid budget.
func FuzzParsePlayer(f *testing.F) {
	for _, s := range []string{"latest", "latest,sims=200", "hachu,depth=2,time=1s", "xboard:/usr/games/hachu -x,name=h,opt:Allow repeats=0",
		"uniform,gumbel", "greedy,name=", "5,sims=0", ",", "xboard:"} {
		f.Add(s)
	}
	def := mcts.Budget{Simulations: 100}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parsePlayer(s, def)
		if err != nil {
			if !strings.Contains(err.Error(), "player") {
				t.Fatalf("error %v does not say which player", err)
			}
			return
		}
		if p.label("step-1") == "" {
			t.Fatalf("%q: empty name", s)
		}
		if p.kind != "xboard" && p.budget.Validate() != nil {
			t.Fatalf("%q: invalid budget %+v accepted", s, p.budget)
		}
	})
}

func TestParsePlayer(t *testing.T) {
	def := mcts.Budget{Simulations: 100}
	for _, tc := range []struct {
		in, kind, label string
		budget          mcts.Budget
	}{
		{"latest", "checkpoint", "step-1-100", def},
		{"latest,sims=20,name=net", "checkpoint", "net", mcts.Budget{Simulations: 20}},
		{"uniform,time=2s", "uniform", "uniform-2s", mcts.Budget{Time: 2 * time.Second}},
		{"hachu,depth=3", "xboard", "hachu-d3", def},
		{"xboard:/usr/games/hachu,depth=1,opt:Okazaki rule=1", "xboard", "hachu-d1", def},
		{"greedy", "greedy", "greedy", def},
		{"material,sims=64,gumbel", "material", "material-64", mcts.Budget{Simulations: 64}},
		{"latest,sims=64,utility=0.5", "checkpoint", "step-1-64-u0.5", mcts.Budget{Simulations: 64}},
	} {
		p, err := parsePlayer(tc.in, def)
		if err != nil || p.kind != tc.kind || p.label("step-1") != tc.label || p.budget != tc.budget {
			t.Errorf("%q: %+v %q, %v", tc.in, p, p.label("step-1"), err)
		}
	}
	if p, _ := parsePlayer("xboard:hachu,opt:Okazaki rule=1", def); p.opts["Okazaki rule"] != "1" {
		t.Errorf("engine option: %+v", p.opts)
	}
	for _, bad := range []string{"", "latest,sims=0", "latest,sims=x", "hachu,colour=red", "xboard:", "uniform,time=-1s",
		"latest,utility=2", "latest,utility=-0.1", "latest,utility=NaN", "uniform,utility=0.5", "ab,utility=0.5"} {
		if _, err := parsePlayer(bad, def); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// Under gating, self-play follows best.json; otherwise the newest
// checkpoint.
func TestPlayNetwork(t *testing.T) {
	dir := fakeRun(t, rules.Sho, 0, 5, 10)
	store, _ := checkpoints.Open(filepath.Join(dir, "checkpoints"))
	if e, err := playNetwork(dir, store, true); err != nil || e.Step != 10 {
		t.Errorf("gating without best.json: %+v %v", e, err)
	}
	five, _ := store.Find("5")
	if _, err := (checkpoints.Run{Dir: dir}).SetBest(five); err != nil {
		t.Fatal(err)
	}
	e, err := playNetwork(dir, store, true)
	if err != nil || e.Step != 5 || e.Path != (checkpoints.Run{Dir: dir}).BestCheckpoint() {
		t.Errorf("gating: %+v %v", e, err)
	}
	if _, err := checkpoints.ReadFile(e.Path); err != nil {
		t.Error(err)
	}
	if e, _ := playNetwork(dir, store, false); e.Step != 10 {
		t.Errorf("no gating: %+v", e)
	}
}

// The judge's wiring: the run's logs and metrics get what the judge
// reports (arena's TestJudge plays the matches), and a restarted judge
// does not evaluate the last evaluated checkpoint again.
func TestJudgeWiring(t *testing.T) {
	dir := fakeRun(t, rules.Sho, 0, 5, 20)
	store, _ := checkpoints.Open(filepath.Join(dir, "checkpoints"))
	reg, m := newRegistry()
	j, err := newJudge(DefaultRunConfig(rules.Sho), dir, store, m, slogDiscard())
	if err != nil {
		t.Fatal(err)
	}
	five, _ := store.Find("5")
	cand, _ := store.Find("20")
	if err := j.OnEval(arena.EvalResult{Checkpoint: five, Opponent: "greedy", Score: arena.Score{Wins: 3, Draws: 1}, Elo: math.Inf(1), EloLow: 10, EloHigh: math.Inf(1)}); err != nil {
		t.Fatal(err)
	}
	if err := j.OnGate(arena.GateResult{Candidate: cand, Best: five, Score: arena.Score{Wins: 4}, LLR: 3, Decision: "accept"}); err != nil {
		t.Fatal(err)
	}
	evals, _, _ := report.ReadLog[report.EvalEntry](dir, report.EvalLog)
	gates, _, _ := report.ReadLog[report.GatingEntry](dir, report.GatingLog)
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
	again, err := newJudge(DefaultRunConfig(rules.Sho), dir, store, m, slogDiscard())
	if err != nil || again.LastEvaluated != 5 {
		t.Errorf("a restarted judge: last evaluated %d, %v; want 5", again.LastEvaluated, err)
	}
}

func slogDiscard() *slog.Logger { return slog.New(slog.DiscardHandler) }
