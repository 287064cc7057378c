package training

import (
	"os"

	"chuzero/checkpoints"
	"chuzero/selfplay/runconfig"
)

// Load builds the effective config: the defaults of the variant,
// then DIR/config.json of an existing run, then the file given with
// -config, each overriding the one before (flags come last, in the
// commands); see runconfig.Load.
func Load(variant string, run checkpoints.Run, file string) (Config, error) {
	return runconfig.LoadWith(variant, run, file, Default, func(c *Config) *runconfig.Config { return &c.Config })
}

// ReadConfig reads the config of the existing run in run (its config.json
// over the defaults of its variant, as Load), for a reader of the run that
// needs the trainer's section too (the probe); the report and the web
// pages use runconfig.Read. A run without config.json is os.ErrNotExist.
func ReadConfig(run checkpoints.Run) (Config, error) {
	if _, err := os.Stat(run.Config()); err != nil {
		return Config{}, err
	}
	return Load("", run, "")
}
