package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/selfplay/training"
	"chuzero/selfplay/transport/natsjs"
)

// TestMetricsScrape scrapes /metrics of a running train until it has
// played games and taken steps, parses it with the Prometheus text parser
// and checks the documented metrics; with promtool installed, "promtool
// check metrics" must pass too. A damaged sample file in the run is
// counted by chuzero_replay_corrupt_files_total.
func TestMetricsScrape(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := writeQuickConfig(t)
	if err := os.MkdirAll(filepath.Join(dir, checkpoints.SamplesDir), 0o755); err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(dir, checkpoints.SamplesDir, "damaged"+encode.SampleFileExt)
	if err := os.WriteFile(damaged, []byte("not a sample file"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeHostileSamples(t, filepath.Join(dir, checkpoints.SamplesDir, "hostile"+encode.SampleFileExt))
	re := regexp.MustCompile(`metrics: (http://\S+)`)
	pre := regexp.MustCompile(`pprof: (http://\S+)`)
	var url, body string
	args := []string{"train", "-run", dir, "-config", cfg, "-metrics-addr", "127.0.0.1:0", "-pprof-addr", "127.0.0.1:0", "-quiet"}
	code, out, errs := runUntil(t, args, 1800, func(out string) bool {
		m, pm := re.FindStringSubmatch(out), pre.FindStringSubmatch(out)
		if m == nil || pm == nil {
			return false
		}
		url, body = m[1], get(t, m[1])
		if metricValue(body, "chuzero_train_steps_total") < 3 || !strings.Contains(body, "chuzero_selfplay_games_total{") {
			return false
		}
		if h := get(t, strings.Replace(url, "/metrics", "/healthz", 1)); strings.TrimSpace(h) != "ok" {
			t.Errorf("/healthz: %q", h)
		}
		// the profiles on their own loopback listener, not beside the metrics
		if h := get(t, pm[1]+"heap?debug=1"); !strings.Contains(h, "heap profile") {
			t.Errorf("/debug/pprof/heap: %.200q", h)
		}
		if h := get(t, strings.Replace(url, "/metrics", "/debug/pprof/cmdline", 1)); strings.Contains(h, "metrics-addr") {
			t.Errorf("the command line is served beside the metrics: %.200q", h)
		}
		// the run's web UI beside the metrics, while the run writes
		if h := get(t, strings.Replace(url, "/metrics", "/api/run", 1)); !strings.Contains(h, `"key":"step"`) || !strings.Contains(h, `"process":[`) {
			t.Errorf("/api/run: %.300q", h)
		}
		if h := get(t, strings.Replace(url, "/metrics", "/", 1)); !strings.Contains(h, "chuzero_train_steps_total") {
			t.Errorf("/ lacks the process's metrics: %.300q", h)
		}
		return true
	})
	if code != 0 {
		t.Fatalf("train: exit %d\n%s\n%s", code, out, errs)
	}
	if n := metricValue(body, "chuzero_replay_corrupt_files_total"); n != 1 {
		t.Errorf("chuzero_replay_corrupt_files_total = %v with one damaged file", n)
	}
	if n := metricValue(body, "chuzero_replay_invalid_samples_total"); n != hostileSamples {
		t.Errorf("chuzero_replay_invalid_samples_total = %v with %d invalid samples", n, hostileSamples)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("the scrape does not parse: %v", err)
	}
	for _, name := range []string{"chuzero_build_info", "chuzero_selfplay_games_total", "chuzero_selfplay_game_length_plies",
		"chuzero_selfplay_positions_total", "chuzero_selfplay_simulations_total", "chuzero_selfplay_moves_total",
		"chuzero_evaluator_batch_size", "chuzero_evaluator_batch_seconds", "chuzero_evaluator_cache_hit_ratio",
		"chuzero_selfplay_resign_threshold", "chuzero_selfplay_resign_false_positive_ratio", "chuzero_train_steps_total",
		"chuzero_train_samples_total", "chuzero_train_loss", "chuzero_train_learning_rate", "chuzero_train_gradient_norm",
		"chuzero_replay_window_samples", "chuzero_train_reuse_ratio", "chuzero_checkpoint_saves_total",
		"chuzero_checkpoint_last_success_timestamp_seconds"} {
		if families[name] == nil {
			t.Errorf("metric %s missing from the scrape", name)
		}
	}
	if promtool, err := exec.LookPath("promtool"); err == nil {
		cmd := exec.Command(promtool, "check", "metrics")
		cmd.Stdin = strings.NewReader(body)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool check metrics: %v\n%s", err, out)
		}
	} else {
		t.Log("promtool not installed (Debian package prometheus): skipping promtool check metrics")
	}
}

// metricValue returns the value of an unlabelled sample name in a scrape
// (-1 when absent).
func metricValue(body, name string) float64 {
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			var f float64
			if _, err := fmt.Sscan(v, &f); err == nil {
				return f
			}
		}
	}
	return -1
}

func get(t *testing.T, url string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestDashboardUsesRealMetrics: every chuzero_ metric the Grafana dashboard
// queries is one the metrics registry defines.
func TestDashboardUsesRealMetrics(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "scripts", "grafana-dashboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	training.NewMetrics(reg)
	natsjs.NewMetrics(reg) // selfplay and trainer -nats add them
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, f := range fams {
		known[f.GetName()] = true
	}
	// vectors without samples yet are not gathered: list them by hand
	for _, n := range []string{"chuzero_selfplay_games_total", "chuzero_selfplay_moves_total", "chuzero_train_loss",
		"chuzero_eval_elo", "chuzero_eval_elo_low", "chuzero_eval_elo_high", "chuzero_eval_games_total", "chuzero_eval_checkpoint_step",
		"chuzero_gating_decisions_total", "chuzero_transport_rejected_messages_total", "chuzero_transport_worker_games_total",
		"chuzero_transport_worker_last_seen_timestamp_seconds"} {
		known[n] = true
	}
	used := regexp.MustCompile(`chuzero_[a-z0-9_]+`).FindAllString(string(data), -1)
	if len(used) == 0 {
		t.Fatal("the dashboard queries no chuzero metric")
	}
	for _, n := range used {
		base := n
		for _, suf := range []string{"_bucket", "_sum", "_count"} {
			base = strings.TrimSuffix(base, suf)
		}
		if n == "chuzero-run" || known[base] {
			continue
		}
		t.Errorf("the dashboard queries %s, which no metric defines", n)
	}
}
