package training

import (
	"errors"
	"fmt"
	"os"

	"sigs.k8s.io/yaml"

	"chuzero/checkpoints"
	"chuzero/rules"
)

// Load builds the effective config: the defaults of the variant,
// then DIR/config.json of an existing run, then the file given with
// -config, each overriding the one before (flags come last, in the
// commands).
func Load(variant string, run checkpoints.Run, file string) (Config, error) {
	var paths []string
	existing := run.Config()
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
			return Config{}, err
		}
		if err := yaml.Unmarshal(data, &peek); err != nil {
			return Config{}, fmt.Errorf("config %s: %w", p, err)
		}
		if peek.Variant == "" {
			continue
		}
		if p == existing {
			if variant != "" && peek.Variant != variant {
				return Config{}, fmt.Errorf("the run in %s plays %s, not %s", run.Dir, peek.Variant, variant)
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
		return Config{}, err
	}
	cfg := Default(id)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return Config{}, err
		}
		if err := yaml.UnmarshalStrict(data, &cfg); err != nil {
			return Config{}, fmt.Errorf("config %s: %w", p, err)
		}
	}
	if cfg.Variant != id.String() {
		return Config{}, fmt.Errorf("config file %s sets variant %s, but the run plays %s", file, cfg.Variant, id)
	}
	if cfg.Seed == 0 {
		return Config{}, errors.New("seed must not be 0")
	}
	return cfg, nil
}

// ReadConfig reads the config of the existing run in run (its config.json
// over the defaults of its variant, as Load), for a reader of the run: the
// report, the web pages. A run without config.json is os.ErrNotExist.
func ReadConfig(run checkpoints.Run) (Config, error) {
	if _, err := os.Stat(run.Config()); err != nil {
		return Config{}, err
	}
	return Load("", run, "")
}
