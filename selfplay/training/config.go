package training

import (
	"encoding/json"
	"runtime"

	"chuzero/checkpoints"
	"chuzero/checkpoints/atomicfile"
	"chuzero/encode"
	"chuzero/mcts"
	"chuzero/model"
	"chuzero/rules"
	"chuzero/selfplay"
	"chuzero/selfplay/arena"
)

// Config is a training run's configuration: the file -config reads
// (YAML or JSON), the defaults, and what every run writes to DIR/config.json.
type Config struct {
	Variant string             `json:"variant"`         // chu, sho or heian
	Rules   map[string]string  `json:"rules,omitempty"` // rules options, Name: Value
	Seed    uint64             `json:"seed"`            // initialisation, self-play and minibatch seeds derive from it
	Model   ModelConfig        `json:"model"`
	Self    SelfPlayConfig     `json:"selfplay"`
	Train   TrainConfig        `json:"train"`
	Eval    arena.EvalConfig   `json:"eval"`         // periodic evaluation against anchors
	Gating  arena.GatingConfig `json:"gating"`       // promote a checkpoint only if it beats the best (off by default)
	Metrics string             `json:"metrics_addr"` // address of /metrics and /healthz ("" or "off": none)
}

// ModelConfig selects the network.
type ModelConfig struct {
	Preset          string `json:"preset"`                      // tiny, small, medium, large
	Blocks          int    `json:"blocks,omitempty"`            // overrides of the preset (0: keep)
	Filters         int    `json:"filters,omitempty"`           //
	GlobalPoolEvery int    `json:"global_pool_every,omitempty"` //
	HistoryPlies    int    `json:"history_plies"`               // move-history input planes
	// ProgressPlies scales a fresh network's progress plane (plies /
	// progress_plies, at most 1); 0: the self-play ply cap, so that no
	// game shows the network a progress it never trained on. A resumed
	// run keeps its checkpoint's.
	ProgressPlies int `json:"progress_plies,omitempty"`
}

// The sections of the run config are the library configs themselves,
// embedded (their fields and JSON keys promoted, flat): a setting is
// declared once, with its key and default, in its package. The aliases
// give the embedded fields distinct names.
type (
	selfPlaySettings = selfplay.Config
	searchSettings   = mcts.Config
	loopSettings     = model.LoopConfig
	trainSettings    = model.TrainConfig
	replaySettings   = model.ReplayConfig
)

// SelfPlayConfig is the "selfplay" section: selfplay.Config (games,
// playouts, resignation, files, the network evaluator) and mcts.Config
// (the search of its games: c_puct, fpu_reduction, temperature_moves,
// leaves_per_batch, ...).
type SelfPlayConfig struct {
	selfPlaySettings
	searchSettings
}

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
	sp := selfplay.DefaultConfig(v)
	lc := model.DefaultLoopConfig(v)
	trainThreads, selfThreads := SplitCores(runtime.GOMAXPROCS(0))
	sp.Threads, lc.Train.Threads = selfThreads, trainThreads
	return Config{
		Variant: v.String(), Seed: 1, Metrics: "127.0.0.1:9464",
		Model:  ModelConfig{Preset: "small", HistoryPlies: encode.DefaultOptions().HistoryPlies},
		Self:   SelfPlayConfig{sp, sp.Search},
		Train:  TrainConfig{loopSettings: lc, trainSettings: lc.Train, replaySettings: lc.Replay},
		Eval:   arena.DefaultEvalConfig(),
		Gating: arena.DefaultGatingConfig(),
	}
}

// SplitCores divides the cores between the trainer and the self-play
// network: self-play's network layers use every core, training half of
// them; the trainer's reuse cap (max_reuse) paces it, so the cores go to
// self-play whenever it waits for data. Measured on 2 cores (Chu, small
// network, 3 minutes from the same state): 1+2 threads 185 samples trained
// and 44 generated per second; 2+2 181 and 43; a strict 1+1 146 and 36.
func SplitCores(cores int) (train, self int) { return max(1, cores/2), cores }

// RulesConfig returns the rules of the run.
func (c *Config) RulesConfig() (rules.Config, error) {
	id, err := rules.ParseVariant(c.Variant)
	if err != nil {
		return rules.Config{}, err
	}
	return rules.ConfigOf(id, rules.Assignments(c.Rules)...)
}

// ModelConfig returns the architecture.
func (c *Config) ModelConfig() (model.Config, error) {
	mc, err := model.Preset(c.Model.Preset)
	if err != nil {
		return mc, err
	}
	mc = mc.Override(c.Model.Blocks, c.Model.Filters, c.Model.GlobalPoolEvery)
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
	lc.Encode = c.encodeOptions(rc)
	if t.Mirror != nil && *t.Mirror {
		lc.Replay.MirrorFraction = 0.5 // a run made before mirror_fraction
	}
	lc.Samples = run.Samples()
	return lc, lc.Validate()
}

// encodeOptions returns the input encoding of a fresh network under rules
// rc: the model section's, with the progress plane over the self-play cap
// unless progress_plies says otherwise.
func (c *Config) encodeOptions(rc rules.Config) encode.Options {
	o := encode.Options{HistoryPlies: c.Model.HistoryPlies, ProgressPlies: c.Model.ProgressPlies}
	if o.ProgressPlies == 0 {
		o.ProgressPlies = rc.MaxPlies
		if m := c.Self.MaxPlies; m > 0 && m < rc.MaxPlies {
			o.ProgressPlies = m
		}
	}
	return o
}

// SelfPlayConfig returns the self-play configuration.
func (c *Config) SelfPlayConfig(run checkpoints.Run) (selfplay.Config, error) {
	rc, err := c.RulesConfig()
	if err != nil {
		return selfplay.Config{}, err
	}
	sp := c.Self.selfPlaySettings
	sp.Search = c.Self.searchSettings
	sp.Rules, sp.Encode, sp.Seed, sp.Run = rc, c.encodeOptions(rc), c.Seed, run
	return sp, sp.Validate()
}

// Validate checks every section.
func (c *Config) Validate(run checkpoints.Run) error {
	if _, err := c.LoopConfig(run); err != nil {
		return err
	}
	if err := c.Eval.Validate(); err != nil {
		return err
	}
	if err := c.Gating.Validate(); err != nil {
		return err
	}
	_, err := c.SelfPlayConfig(run)
	return err
}

// Write stores the effective config in DIR/config.json, atomically.
func (c *Config) Write(run checkpoints.Run) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(run.Config(), append(data, '\n'))
}
