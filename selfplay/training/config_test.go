package training

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"chuzero/checkpoints"
	"chuzero/rules"
	"chuzero/selfplay/runconfig"
)

// TestOldConfigLoads: a config.json written before the sections embedded
// the library configs (testdata, from a real run) still loads, strictly,
// to the same effective configs as the defaults it was written from, and
// writes every old key again with the same value.
func TestOldConfigLoads(t *testing.T) {
	old, err := os.ReadFile("testdata/config-before-sections.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.json"), old, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load("", checkpoints.Run{Dir: dir}, "")
	if err != nil {
		t.Fatal(err)
	}
	def := Default(rules.Sho)
	def.Self.Threads, def.Train.Threads = cfg.Self.Threads, cfg.Train.Threads // the machine's cores
	// defaults changed since the file was written: the file's own values
	// hold (keys it lacks take today's defaults)
	def.Self.MaxPlies, def.Train.ValueQSteps = 300, 10000
	got, _ := cfg.SelfPlayConfig(checkpoints.Run{Dir: dir})
	want, _ := def.SelfPlayConfig(checkpoints.Run{Dir: dir})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("self-play config from the old file\n%+v\nwant\n%+v", got, want)
	}
	gl, _ := cfg.LoopConfig(checkpoints.Run{Dir: dir})
	wl, _ := def.LoopConfig(checkpoints.Run{Dir: dir})
	gl.Baseline, wl.Baseline = nil, nil // functions, never deeply equal
	if !reflect.DeepEqual(gl, wl) {
		t.Errorf("loop config from the old file\n%+v\nwant\n%+v", gl, wl)
	}
	// the loaded config writes every key of the old file, with its value
	var oldMap, newMap map[string]any
	json.Unmarshal(old, &oldMap)
	data, _ := json.Marshal(cfg)
	json.Unmarshal(data, &newMap)
	for _, sec := range []string{"selfplay", "train", "model", "eval", "gating"} {
		o, n := oldMap[sec].(map[string]any), newMap[sec].(map[string]any)
		for k, v := range o {
			if !reflect.DeepEqual(n[k], v) {
				t.Errorf("%s.%s: old %v, now %v", sec, k, v, n[k])
			}
		}
	}
}

// TestConfigSectionKeys: the embedded library settings are keys of their
// sections, and a misspelt key is refused.
func TestConfigSectionKeys(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.yaml")
	os.WriteFile(p, []byte("variant: sho\nselfplay: {c_puct_base: 500, gumbel: false}\ntrain: {window_beta: 0.5, beta2: 0.99}\n"), 0o644)
	cfg, err := Load("", checkpoints.Run{Dir: filepath.Join(dir, "run")}, p)
	if err != nil {
		t.Fatal(err)
	}
	sp, _ := cfg.SelfPlayConfig(checkpoints.Run{Dir: dir})
	lc, _ := cfg.LoopConfig(checkpoints.Run{Dir: dir})
	if sp.Search.CPuctBase != 500 || sp.Gumbel || lc.Replay.WindowBeta != 0.5 || lc.Train.Beta2 != 0.99 {
		t.Errorf("keys not applied: %+v %+v %+v", sp.Search, sp.Gumbel, lc)
	}
	os.WriteFile(p, []byte("variant: sho\ntrain: {windw_min: 5}\n"), 0o644)
	if _, err := Load("", checkpoints.Run{Dir: filepath.Join(dir, "run")}, p); err == nil {
		t.Error("a misspelt key was accepted")
	}
}

// TestAblationConfigsLoad: every ablation config of scripts/ablations (the
// benchmark's arms) is a valid run config for every variant, its keys
// spelt right.
func TestAblationConfigsLoad(t *testing.T) {
	files, err := filepath.Glob("../../scripts/ablations/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no ablation configs: %v", err)
	}
	for _, f := range files {
		for _, v := range []string{"sho", "chu", "heian"} {
			cfg, err := Load(v, checkpoints.Run{Dir: filepath.Join(t.TempDir(), "run")}, f)
			if err == nil {
				err = cfg.Validate(checkpoints.Run{Dir: t.TempDir()})
			}
			if err != nil {
				t.Errorf("%s (%s): %v", filepath.Base(f), v, err)
			}
		}
	}
	cfg, err := Load("sho", checkpoints.Run{Dir: filepath.Join(t.TempDir(), "run")}, "../../scripts/ablations/utility1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if sp, _ := cfg.SelfPlayConfig(checkpoints.Run{Dir: t.TempDir()}); sp.Search.MaterialUtility != 1 {
		t.Errorf("utility1.yaml: material utility %v", sp.Search.MaterialUtility)
	}
}

// TestProgressPliesFollowsCap: a fresh network's progress plane is scaled
// to the self-play cap (model.progress_plies 0), to the rules' cap when
// that is lower, or to the key's own value.
func TestProgressPliesFollowsCap(t *testing.T) {
	for _, c := range []struct {
		cap, key, rulesMax, want int
	}{
		{150, 0, 512, 150}, {0, 0, 512, 512}, {800, 0, 512, 512}, {150, 300, 512, 300},
	} {
		cfg := Default(rules.Sho)
		cfg.Self.MaxPlies, cfg.Model.ProgressPlies = c.cap, c.key
		rc := rules.DefaultConfig(rules.Sho)
		rc.MaxPlies = c.rulesMax
		if got := cfg.EncodeOptions(rc).ProgressPlies; got != c.want {
			t.Errorf("cap %d, key %d, rules %d: progress plies %d, want %d", c.cap, c.key, c.rulesMax, got, c.want)
		}
	}
}

// TestConfigReadLight: what the trainer writes to config.json, the light
// reader (runconfig.Read) reads with the same sections, the train
// section kept whole; a config with the train section typed reads back
// equal.
func TestConfigReadLight(t *testing.T) {
	run := checkpoints.Run{Dir: t.TempDir()}
	cfg := Default(rules.Sho)
	cfg.Seed, cfg.Self.MaxPlies, cfg.Train.Batch = 9, 222, 48
	if err := cfg.Write(run); err != nil {
		t.Fatal(err)
	}
	light, err := runconfig.Read(run)
	if err != nil {
		t.Fatal(err)
	}
	if light.Variant != "sho" || light.Seed != 9 || light.Self.MaxPlies != 222 || !strings.Contains(string(light.Train), `"batch":48`) {
		t.Errorf("light read: %+v, train %s", light, light.Train)
	}
	full, err := ReadConfig(run)
	if err != nil || full.Train.Batch != 48 || full.Self.MaxPlies != 222 || len(full.Config.Train) != 0 {
		t.Errorf("full read: batch %d max_plies %d raw train %q (%v)", full.Train.Batch, full.Self.MaxPlies, full.Config.Train, err)
	}
}
