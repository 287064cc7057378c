package runconfig

import (
	"errors"
	"fmt"
	"os"

	"sigs.k8s.io/yaml"

	"chuzero/checkpoints"
	"chuzero/rules"
)

// Load builds the effective config: the defaults of the variant, then
// DIR/config.json of an existing run, then the file given with -config,
// each overriding the one before (flags come last, in the commands).
// The trainer's section stays raw (package selfplay/training loads it).
func Load(variant string, run checkpoints.Run, file string) (Config, error) {
	return LoadWith(variant, run, file, Default, func(c *Config) *Config { return c })
}

// LoadWith is Load for a config type T that embeds Config (base returns
// it): defaults gives T's defaults for a variant, and every key of the
// files must be one of T's.
func LoadWith[T any](variant string, run checkpoints.Run, file string, defaults func(rules.VariantID) T, base func(*T) *Config) (T, error) {
	paths, id, err := sources(variant, run, file)
	if err != nil {
		var zero T
		return zero, err
	}
	cfg := defaults(id)
	if err := overlay(&cfg, paths); err != nil {
		var zero T
		return zero, err
	}
	return cfg, base(&cfg).check(id, file)
}

// Read reads the config of the existing run in run (its config.json over
// the defaults of its variant, as Load), for a reader of the run: the
// report, the web pages. A run without config.json is os.ErrNotExist.
func Read(run checkpoints.Run) (Config, error) {
	if _, err := os.Stat(run.Config()); err != nil {
		return Config{}, err
	}
	return Load("", run, "")
}

// sources returns the files of the effective config in the order they
// apply (an existing run's config.json, then file) and the variant they
// select: an existing run's, else the flag's, else the config file's,
// else chu.
func sources(variant string, run checkpoints.Run, file string) ([]string, rules.VariantID, error) {
	var paths []string
	existing := run.Config()
	if _, err := os.Stat(existing); err == nil {
		paths = append(paths, existing)
	}
	if file != "" {
		paths = append(paths, file)
	}
	v := variant
	for _, p := range paths {
		var peek struct {
			Variant string `json:"variant"`
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, 0, err
		}
		if err := yaml.Unmarshal(data, &peek); err != nil {
			return nil, 0, fmt.Errorf("config %s: %w", p, err)
		}
		switch {
		case peek.Variant == "":
		case p == existing:
			if variant != "" && peek.Variant != variant {
				return nil, 0, fmt.Errorf("the run in %s plays %s, not %s", run.Dir, peek.Variant, variant)
			}
			v = peek.Variant
		case v == "":
			v = peek.Variant
		}
	}
	if v == "" {
		v = "chu"
	}
	id, err := rules.ParseVariant(v)
	return paths, id, err
}

// overlay reads each file (YAML or JSON) over dst, strictly: a key dst
// does not have is an error.
func overlay(dst any, paths []string) error {
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := yaml.UnmarshalStrict(data, dst); err != nil {
			return fmt.Errorf("config %s: %w", p, err)
		}
	}
	return nil
}

// check reports a config that does not play variant id (the one its
// sources selected; file is the -config file, for the message) or has
// no seed.
func (c *Config) check(id rules.VariantID, file string) error {
	if c.Variant != id.String() {
		return fmt.Errorf("config file %s sets variant %s, but the run plays %s", file, c.Variant, id)
	}
	if c.Seed == 0 {
		return errors.New("seed must not be 0")
	}
	return nil
}
