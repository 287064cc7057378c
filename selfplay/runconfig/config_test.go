package runconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"chuzero/checkpoints"
	"chuzero/rules"
)

// writeRun makes a run directory whose config.json is text.
func writeRun(t *testing.T, text string) checkpoints.Run {
	t.Helper()
	run := checkpoints.Run{Dir: t.TempDir()}
	if err := os.WriteFile(run.Config(), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return run
}

// TestRead: a run's config.json over its variant's defaults, the
// trainer's section kept as written, and the errors of a bad file.
func TestRead(t *testing.T) {
	run := writeRun(t, `{"variant": "sho", "seed": 7, "selfplay": {"max_plies": 400, "c_puct": 2},
		"train": {"batch": 32, "anything": [1, 2]}, "gating": {"enabled": true}}`)
	c, err := Read(run)
	if err != nil {
		t.Fatal(err)
	}
	def := Default(rules.Sho)
	if c.Variant != "sho" || c.Seed != 7 || c.Self.MaxPlies != 400 || c.Self.CPuct != 2 || !c.Gating.Enabled ||
		c.Gating.Games != def.Gating.Games || c.Eval.Games != def.Eval.Games {
		t.Errorf("read %+v", c)
	}
	var train map[string]any
	if err := json.Unmarshal(c.Train, &train); err != nil || train["batch"] != 32.0 {
		t.Errorf("train section %s (%v)", c.Train, err)
	}
	sp, err := c.SelfPlayConfig(run)
	if err != nil || sp.MaxPlies != 400 || sp.Search.CPuct != 2 || sp.Seed != 7 || sp.Rules.Variant != rules.Sho ||
		sp.Encode.ProgressPlies != 400 {
		t.Errorf("self-play config %+v (%v)", sp, err)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"unknown key", `{"variant": "sho", "selfplay": {"no_such_key": 1}}`, "no_such_key"},
		{"no seed", `{"variant": "sho", "seed": 0}`, "seed"},
		{"bad variant", `{"variant": "go"}`, "go"},
		{"not yaml", "variant: [", "config"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Read(writeRun(t, tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one naming %q", err, tc.want)
			}
		})
	}
	if _, err := Read(checkpoints.Run{Dir: filepath.Join(t.TempDir(), "none")}); !os.IsNotExist(err) {
		t.Errorf("a run without config.json: %v, want not-exist", err)
	}
}

// TestLoadOrder: a -config file overrides the run's config.json, which
// overrides the defaults; the run's variant wins over a different flag.
func TestLoadOrder(t *testing.T) {
	run := writeRun(t, `{"variant": "sho", "selfplay": {"max_plies": 300, "c_puct": 3}}`)
	file := filepath.Join(t.TempDir(), "over.yaml")
	if err := os.WriteFile(file, []byte("selfplay:\n  max_plies: 200\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load("", run, file)
	if err != nil || c.Self.MaxPlies != 200 || c.Self.CPuct != 3 {
		t.Errorf("load: max_plies %d c_puct %v (%v), want 200 and 3", c.Self.MaxPlies, c.Self.CPuct, err)
	}
	if _, err := Load("chu", run, ""); err == nil {
		t.Error("a chu flag on a sho run was accepted")
	}
	if c, err := Load("", checkpoints.Run{Dir: t.TempDir()}, ""); err != nil || c.Variant != "chu" {
		t.Errorf("no sources: variant %q (%v), want chu", c.Variant, err)
	}
}
