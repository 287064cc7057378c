package training

import (
	"fmt"

	"encoding/json"
	"runtime"

	"chuzero/checkpoints"
	"chuzero/checkpoints/atomicfile"
	"chuzero/model"
	"chuzero/rules"
	"chuzero/selfplay/runconfig"
)

// Config is a training run's configuration: the file -config reads
// (YAML or JSON), the defaults, and what every run writes to
// DIR/config.json. Its sections are runconfig.Config's (the schema
// readers of a run share) with the trainer's own section typed.
type Config struct {
	runconfig.Config
	Train TrainConfig `json:"train"`
}

// The train section is the library configs themselves, embedded (their
// fields and JSON keys promoted, flat): a setting is declared once, with
// its key and default, in its package. The aliases give the embedded
// fields distinct names.
type (
	loopSettings   = model.LoopConfig
	trainSettings  = model.TrainConfig
	replaySettings = model.ReplayConfig
)

// TrainConfig is the "train" section: model.LoopConfig (schedule,
// checkpoints, reuse, value target, polling), model.TrainConfig (batch,
// optimizer, loss weights, threads) and model.ReplayConfig (window,
// mirroring, hold-out).
type TrainConfig struct {
	loopSettings
	trainSettings
	replaySettings
	// Mirror is the setting of runs made before mirror_fraction: true
	// means a fraction of 0.5. It is not written any more.
	Mirror *bool `json:"mirror,omitempty"`
}

// Default returns the embedded defaults for variant v: local
// files, the CPU, the small network; the cores split between training and
// self-play (see SplitCores).
func Default(v rules.VariantID) Config {
	lc := model.DefaultLoopConfig(v)
	trainThreads, selfThreads := SplitCores(runtime.GOMAXPROCS(0))
	lc.Train.Threads = trainThreads
	c := Config{Config: runconfig.Default(v),
		Train: TrainConfig{loopSettings: lc, trainSettings: lc.Train, replaySettings: lc.Replay}}
	c.Self.Threads = selfThreads
	return c
}

// SplitCores divides the cores between the trainer and the self-play
// network: self-play's network layers use every core, training half of
// them; the trainer's reuse cap (max_reuse) paces it, so the cores go to
// self-play whenever it waits for data. Measured on 2 cores (Chu, small
// network, 3 minutes from the same state): 1+2 threads 185 samples trained
// and 44 generated per second; 2+2 181 and 43; a strict 1+1 146 and 36.
func SplitCores(cores int) (train, self int) { return max(1, cores/2), cores }

// ModelConfig returns the architecture.
func (c *Config) ModelConfig() (model.Config, error) {
	mc, err := model.Preset(c.Model.Preset)
	if err != nil {
		return mc, err
	}
	mc = mc.Override(c.Model.Blocks, c.Model.Filters, c.Model.GlobalPoolEvery)
	mc.ValueResidual = c.Model.ValueResidual
	return mc, mc.Validate()
}

// LoopConfig returns the trainer's configuration.
func (c *Config) LoopConfig(run checkpoints.Run) (model.LoopConfig, error) {
	rc, err := c.RulesConfig()
	if err != nil {
		return model.LoopConfig{}, err
	}
	mc, err := c.ModelConfig()
	if err != nil {
		return model.LoopConfig{}, err
	}
	t := &c.Train
	lc := t.loopSettings
	lc.Train, lc.Replay = t.trainSettings, t.replaySettings
	lc.Rules, lc.Model, lc.Seed = rc, mc, c.Seed
	lc.Encode = c.EncodeOptions(rc)
	if t.Mirror != nil && *t.Mirror {
		lc.Replay.MirrorFraction = 0.5 // a run made before mirror_fraction
	}
	lc.Samples = run.Samples()
	sp, err := c.SelfPlayConfig(run)
	if err != nil {
		return lc, err
	}
	if mc.ValueResidual > 0 && (sp.Search.Quiescence <= 0 || sp.QuiescenceFinal <= 0 && sp.QuiescenceSteps > 0) {
		return lc, fmt.Errorf("training: model.value_residual %v needs the capture value in self-play's search (selfplay.quiescence > 0)", mc.ValueResidual)
	}
	lc.Baseline = captureBaseline(sp.Search) // used only by a residual value head (a resumed run's checkpoint may have one)
	return lc, lc.Validate()
}

// Validate checks every section.
func (c *Config) Validate(run checkpoints.Run) error {
	if _, err := c.LoopConfig(run); err != nil {
		return err
	}
	if err := c.Config.Validate(run); err != nil {
		return err
	}
	return validateGating(c.Gating)
}

// Write stores the effective config in DIR/config.json, atomically.
func (c *Config) Write(run checkpoints.Run) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(run.Config(), append(data, '\n'))
}
