package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chuzero/checkpoints"
	"chuzero/model/modeltest"
	"chuzero/rules"
	"chuzero/selfplay/training"
	"chuzero/selfplay/web"
)

// webTestRun writes a run directory of variant v as a fresh run has it:
// config.json and tiny-network checkpoints at steps 0 and 3.
func webTestRun(t *testing.T, v rules.VariantID) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	cfg := training.Default(v)
	cfg.Model.Preset = "tiny"
	b, _ := json.Marshal(cfg)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, checkpoints.ConfigFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	modeltest.FillRun(t, dir, v, 0, 3)
	return dir
}

// TestServeCommand serves a Chu run with "chuzero serve" on a free port,
// asks the position page's endpoint for the real networks' policy and
// value, and stops the server (the goroutine check of TestMain follows).
func TestServeCommand(t *testing.T) {
	dir := webTestRun(t, rules.Chu)
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serveWeb(ctx, serveOptions{runDir: dir, addr: "127.0.0.1:0"}, func(a string) { addr <- a })
	}()
	base := "http://" + <-addr
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}
	fetch := func(path string) (int, string) {
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := fetch("/"); code != 200 || !strings.Contains(body, `data-key="checkpoint">step-000000003<`) {
		t.Errorf("/: %d\n%.400s", code, body)
	}
	for _, ckpt := range []string{"", "step-000000000"} {
		code, body := fetch("/api/position?checkpoint=" + ckpt)
		var v web.PositionView
		if err := json.Unmarshal([]byte(body), &v); code != 200 || err != nil || v.Network == nil {
			t.Fatalf("/api/position?checkpoint=%s: %d %v\n%.400s", ckpt, code, err, body)
		}
		n := v.Network
		var sum float32
		for _, m := range n.Moves {
			sum += m.P
		}
		if len(n.Moves) == 0 || sum <= 0 || sum > 1.0001 || n.Value < -1 || n.Value > 1 || n.WDL[0]+n.WDL[1]+n.WDL[2] < 0.999 || len(v.Squares) != 144 {
			t.Errorf("checkpoint %q: %d moves, priors sum %v, value %v, WDL %v", ckpt, len(n.Moves), sum, n.Value, n.WDL)
		}
	}
	// a page of another site whose name resolves here (DNS rebinding) gets nothing
	req, _ := http.NewRequest("GET", base+"/api/run", nil)
	req.Host = "attacker.example"
	if resp, err := client.Do(req); err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("Host attacker.example: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	if code, body := fetch("/api/position?sfen=lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL%20b%20-%201"); code != 400 {
		t.Errorf("a Sho SFEN in a Chu run: %d %.300s", code, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestServeFlags: serve wants an existing run directory.
func TestServeFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"serve"}, 2, "-run DIR is required"},
		{[]string{"serve", "-run", filepath.Join(t.TempDir(), "none")}, 1, "does not exist"},
		{[]string{"serve", "-run", t.TempDir(), "-addr", "256.0.0.1:1"}, 1, "chuzero serve:"},
		{[]string{"serve", "-run", t.TempDir(), "-addr", "0.0.0.0:0"}, 1, "off loopback: give an auth file"},
		{[]string{"train", "-run", t.TempDir(), "-metrics-addr", ":0", "-max-steps", "1"}, 1, "off loopback: give an auth file"},
	} {
		code, _, errs := runCmd(tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args, code, errs, tt.code, tt.want)
		}
	}
}

// TestServeAuth: off loopback, serve demands the credentials of its auth
// file on every request.
func TestServeAuth(t *testing.T) {
	dir := webTestRun(t, rules.Sho)
	auth := filepath.Join(t.TempDir(), "auth")
	os.WriteFile(auth, []byte("ops:horse battery\n"), 0o600)
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serveWeb(ctx, serveOptions{runDir: dir, addr: "0.0.0.0:0", access: webAccess{authFile: auth}}, func(a string) { addr <- a })
	}()
	_, port, _ := net.SplitHostPort(<-addr)
	url := "http://127.0.0.1:" + port + "/api/run"
	for _, c := range []struct {
		user, pass string
		code       int
	}{{"", "", 401}, {"ops", "wrong", 401}, {"ops", "horse battery", 200}} {
		req, _ := http.NewRequest("GET", url, nil)
		if c.user != "" {
			req.SetBasicAuth(c.user, c.pass)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.code {
			t.Errorf("%q/%q: %d, want %d", c.user, c.pass, resp.StatusCode, c.code)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
