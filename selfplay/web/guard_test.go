package web

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"chuzero/checkpoints"
	"chuzero/rules"
)

// The guard answers IP addresses, localhost and the names it is given,
// refuses any other Host (DNS rebinding), and with a user demands basic
// authentication.
func TestGuard(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) })
	g := Guard{Hosts: []string{"trainer.lan"}}
	for _, c := range []struct {
		host string
		code int
	}{{"127.0.0.1:8080", 200}, {"localhost:8080", 200}, {"[::1]:8080", 200}, {"10.1.2.3", 200},
		{"trainer.lan:9464", 200}, {"TRAINER.LAN.", 200}, {"evil.example:8080", 421}, {"127.0.0.1.evil.example", 421}, {"", 421}} {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Host = c.host
		rec := httptest.NewRecorder()
		g.Wrap(ok).ServeHTTP(rec, req)
		if rec.Code != c.code {
			t.Errorf("Host %q: %d, want %d", c.host, rec.Code, c.code)
		}
	}
	auth := filepath.Join(t.TempDir(), "auth")
	os.WriteFile(auth, []byte("watcher:s3cret pass\n"), 0o600)
	u, p, err := ReadAuthFile(auth)
	if err != nil || u != "watcher" || p != "s3cret pass" {
		t.Fatalf("ReadAuthFile: %q %q %v", u, p, err)
	}
	g = Guard{User: u, Password: p}
	for _, c := range []struct {
		user, pass string
		set        bool
		code       int
	}{{"", "", false, 401}, {"watcher", "wrong", true, 401}, {"other", "s3cret pass", true, 401}, {"watcher", "s3cret pass", true, 200}} {
		req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/metrics", nil)
		if c.set {
			req.SetBasicAuth(c.user, c.pass)
		}
		rec := httptest.NewRecorder()
		g.Wrap(ok).ServeHTTP(rec, req)
		if rec.Code != c.code {
			t.Errorf("user %q password %q: %d, want %d", c.user, c.pass, rec.Code, c.code)
		}
	}
	os.WriteFile(auth, []byte("no colon here\n"), 0o600)
	if _, _, err := ReadAuthFile(auth); err == nil {
		t.Error("a line without user:password was accepted")
	}
}

// Position evaluations beyond MaxEvaluations wait their turn, and are
// answered 503 when it does not come in time.
func TestEvaluationsCapped(t *testing.T) {
	dir := copyRun(t, rules.Sho)
	cfg := DefaultConfig(checkpoints.Run{Dir: dir})
	cfg.Networks, cfg.Rescan, cfg.MaxEvaluations, cfg.EvaluationWait = randomNetworks{}, 0, 1, 20*time.Millisecond
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.evals <- struct{}{} // one evaluation running
	if code, _, body := get(t, s, "/api/position"); code != http.StatusServiceUnavailable {
		t.Errorf("with the evaluations taken: %d %.200s", code, body)
	}
	<-s.evals
	if code, _, body := get(t, s, "/api/position"); code != http.StatusOK {
		t.Errorf("with a free evaluation: %d %.200s", code, body)
	}
}
