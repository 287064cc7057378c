package runconfig

import (
	"encoding/json"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/mcts"
	"chuzero/rules"
	"chuzero/selfplay"
)

// Config is a run's config, every section but the trainer's typed.
type Config struct {
	Variant string            `json:"variant"`         // chu, sho or heian
	Rules   map[string]string `json:"rules,omitempty"` // rules options, Name: Value
	Seed    uint64            `json:"seed"`            // initialisation, self-play and minibatch seeds derive from it
	Model   ModelConfig       `json:"model"`
	Self    SelfPlayConfig    `json:"selfplay"`
	// Train is the "train" section as written; selfplay/training's Config
	// shadows it with its typed section.
	Train   json.RawMessage `json:"train,omitempty"`
	Eval    EvalConfig      `json:"eval"`         // periodic evaluation against anchors
	Gating  GatingConfig    `json:"gating"`       // promote a checkpoint only if it beats the best (off by default)
	Metrics string          `json:"metrics_addr"` // address of /metrics and /healthz ("" or "off": none)
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
	// ValueResidual trains the value head as a residual of the capture
	// search (model.Config.ValueResidual): toward the value target less
	// this weight times the capture value of the position, and searches
	// back up the head's value plus this weight times the capture value. 0:
	// the whole value. A resumed run keeps its checkpoint's.
	ValueResidual float64 `json:"value_residual,omitempty"`
}

// The self-play section is the library configs themselves, embedded
// (their fields and JSON keys promoted, flat): a setting is declared
// once, with its key and default, in its package. The aliases give the
// embedded fields distinct names.
type (
	selfPlaySettings = selfplay.Config
	searchSettings   = mcts.Config
)

// SelfPlayConfig is the "selfplay" section: selfplay.Config (games,
// playouts, resignation, files, the network evaluator) and mcts.Config
// (the search of its games: c_puct, fpu_reduction, temperature_moves,
// leaves_per_batch, ...).
type SelfPlayConfig struct {
	selfPlaySettings
	searchSettings
}

// Default returns the embedded defaults for variant v, but for the
// trainer's section (package selfplay/training) and the split of the cores
// (selfplay/training.SplitCores): local files, the small network.
func Default(v rules.VariantID) Config {
	return Config{
		Variant: v.String(), Seed: 1, Metrics: "127.0.0.1:9464",
		Model:  ModelConfig{Preset: "small", HistoryPlies: encode.DefaultOptions().HistoryPlies},
		Self:   selfPlaySection(selfplay.DefaultConfig(v)),
		Eval:   DefaultEvalConfig(),
		Gating: DefaultGatingConfig(),
	}
}

// RulesConfig returns the rules of the run.
func (c *Config) RulesConfig() (rules.Config, error) {
	id, err := rules.ParseVariant(c.Variant)
	if err != nil {
		return rules.Config{}, err
	}
	return rules.ConfigOf(id, rules.Assignments(c.Rules)...)
}

// EncodeOptions returns the input encoding of a fresh network under rules
// rc: the model section's, with the progress plane over the self-play cap
// unless progress_plies says otherwise.
func (c *Config) EncodeOptions(rc rules.Config) encode.Options {
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
	sp.Rules, sp.Encode, sp.Seed, sp.Run = rc, c.EncodeOptions(rc), c.Seed, run
	return sp, sp.Validate()
}

// Validate checks the sections this package types: rules, self-play,
// evaluation and gating (but the SPRT's bounds).
func (c *Config) Validate(run checkpoints.Run) error {
	if err := c.Eval.Validate(); err != nil {
		return err
	}
	if err := c.Gating.Validate(); err != nil {
		return err
	}
	_, err := c.SelfPlayConfig(run)
	return err
}

// selfPlaySection returns the section of sp, whose Search is the search
// of its games.
func selfPlaySection(sp selfplay.Config) SelfPlayConfig { return SelfPlayConfig{sp, sp.Search} }
