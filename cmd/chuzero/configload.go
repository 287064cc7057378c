package main

import (
	"errors"
	"fmt"
	"os"

	"sigs.k8s.io/yaml"

	"chuzero/checkpoints"
	"chuzero/rules"
)

// loadRunConfig builds the effective config: the defaults of the variant,
// then DIR/config.json of an existing run, then the file given with
// -config, each overriding the one before (flags come last, in the
// commands).
func loadRunConfig(variant, runDir, file string) (RunConfig, error) {
	var paths []string
	existing := checkpoints.Run{Dir: runDir}.Config()
	if _, err := os.Stat(existing); err == nil {
		paths = append(paths, existing)
	}
	if file != "" {
		paths = append(paths, file)
	}
	// the variant picks the defaults: an existing run's, else the flag's,
	// else the config file's, else chu
	v := variant
	for _, p := range paths {
		var peek struct {
			Variant string `json:"variant"`
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return RunConfig{}, err
		}
		if err := yaml.Unmarshal(data, &peek); err != nil {
			return RunConfig{}, fmt.Errorf("config %s: %w", p, err)
		}
		if peek.Variant == "" {
			continue
		}
		if p == existing {
			if variant != "" && peek.Variant != variant {
				return RunConfig{}, fmt.Errorf("the run in %s plays %s, not %s", runDir, peek.Variant, variant)
			}
			v = peek.Variant
		} else if v == "" {
			v = peek.Variant
		}
	}
	if v == "" {
		v = "chu"
	}
	id, err := rules.ParseVariant(v)
	if err != nil {
		return RunConfig{}, err
	}
	cfg := DefaultRunConfig(id)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return RunConfig{}, err
		}
		if err := yaml.UnmarshalStrict(data, &cfg); err != nil {
			return RunConfig{}, fmt.Errorf("config %s: %w", p, err)
		}
	}
	if cfg.Variant != id.String() {
		return RunConfig{}, fmt.Errorf("config file %s sets variant %s, but the run plays %s", file, cfg.Variant, id)
	}
	if cfg.Seed == 0 {
		return RunConfig{}, errors.New("seed must not be 0")
	}
	return cfg, nil
}
