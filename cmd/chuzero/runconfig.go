package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"time"

	"sigs.k8s.io/yaml"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/model"
	"chuzero/rules"
	"chuzero/selfplay"
	"chuzero/selfplay/arena"
)

// RunConfig is a training run's configuration: the file -config reads
// (YAML or JSON), the defaults, and what every run writes to DIR/config.json.
type RunConfig struct {
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
}

// SelfPlayConfig configures the self-play workers.
type SelfPlayConfig struct {
	Games               int             `json:"games"`             // games played at once
	FullSimulations     int             `json:"full_simulations"`  // playouts of a full search
	CheapSimulations    int             `json:"cheap_simulations"` // playouts of a cheap search
	FullSearchFraction  float64         `json:"full_search_fraction"`
	CheapSampleFraction float64         `json:"cheap_sample_fraction"` // share of cheap-search positions written as value-only samples
	MaxPlies            int             `json:"max_plies"`             // self-play ply cap (0: the rules'); a capped game's value target is the search's estimate
	Gumbel              bool            `json:"gumbel"`                // Gumbel root search for full searches (else PUCT + noise)
	ResignThreshold     float64         `json:"resign_threshold"`      // starting threshold (on the chosen move's Q), then calibrated
	ResignConsecutive   int             `json:"resign_consecutive"`
	NoResignFraction    float64         `json:"no_resign_fraction"`
	ResignCeiling       float64         `json:"resign_ceiling"`               // the calibrated threshold never goes above it
	ResignTargetFP      float64         `json:"resign_target_false_positive"` // calibration target
	ResignCalibGames    int             `json:"resign_calibration_games"`     // no-resign games the calibration looks back over
	ResignMinGames      int             `json:"resign_min_games"`             // no-resign games before calibrating
	GamesPerFile        int             `json:"games_per_file"`
	FlushInterval       encode.Duration `json:"flush_interval"`
	Batch               int             `json:"batch"`      // network batch size
	BatchWait           encode.Duration `json:"batch_wait"` // longest wait for a batch to fill
	Cache               int             `json:"cache"`      // evaluation cache entries (0: none)
	Threads             int             `json:"threads"`    // goroutines per network layer
	CPuct               float64         `json:"c_puct"`
	FPUReduction        float64         `json:"fpu_reduction"`
	TemperatureMoves    int             `json:"temperature_moves"`
	LeavesPerBatch      int             `json:"leaves_per_batch"`
}

// TrainConfig configures the trainer.
type TrainConfig struct {
	Batch           int            `json:"batch"`
	Optimizer       string         `json:"optimizer"`    // adam or sgd
	Momentum        float64        `json:"momentum"`     // sgd
	L2              float64        `json:"l2"`           // L2 term added to the gradient
	WeightDecay     float64        `json:"weight_decay"` // decoupled weight decay (AdamW with adam)
	MaxGradNorm     float64        `json:"max_grad_norm"`
	LearningRate    []model.LRStep `json:"learning_rate"` // [{step, lr}, ...]
	WarmupSteps     int64          `json:"warmup_steps"`
	CheckpointEvery int64          `json:"checkpoint_every"`
	KeepLast        int            `json:"keep_last"`
	KeepEvery       int            `json:"keep_every"`
	MaxReuse        float64        `json:"max_reuse"`   // samples trained per sample generated, at most
	EarlyReuse      float64        `json:"early_reuse"` // the same cap while the data are below window_min
	MinSamples      int64          `json:"min_samples"` // before the first step
	MinGames        int64          `json:"min_games"`   // before the first step
	WindowMin       int            `json:"window_min"`
	WindowMax       int            `json:"window_max"`
	MirrorFraction  float64        `json:"mirror_fraction"` // share of minibatch positions mirrored left-right
	// Mirror is the setting of runs made before mirror_fraction: true
	// means a fraction of 0.5. It is not written any more.
	Mirror           *bool           `json:"mirror,omitempty"`
	ValueQStart      float64         `json:"value_q_start"` // weight of the search value in the value target at step 0 ...
	ValueQEnd        float64         `json:"value_q_end"`   // ... and from value_q_steps on, linearly between
	ValueQSteps      int64           `json:"value_q_steps"`
	HoldOut          float64         `json:"hold_out"`           // fraction of games held out of training
	HoldOutMax       int             `json:"hold_out_max"`       // newest held-out samples kept
	HeldOutEvery     int64           `json:"held_out_every"`     // steps between held-out loss measurements (0: never)
	ReplyWeight      float32         `json:"reply_weight"`       // auxiliary losses: opponent's reply policy
	MaterialWeight   float32         `json:"material_weight"`    // material at the end and 16 plies ahead
	OwnershipWeight  float32         `json:"ownership_weight"`   // who holds each square at the end
	ShortValueWeight float32         `json:"short_value_weight"` // short-term values over 6, 16, 50 plies
	Threads          int             `json:"threads"`            // goroutines per layer
	BNMomentum       float32         `json:"bn_momentum"`
	PolicyWeight     float32         `json:"policy_weight"`
	Poll             encode.Duration `json:"poll"`
}

// DefaultRunConfig returns the embedded defaults for variant v: local
// files, the CPU, the small network; the cores split between training and
// self-play (see splitCores).
func DefaultRunConfig(v rules.VariantID) RunConfig {
	sp := selfplay.DefaultConfig(v)
	lc := model.DefaultLoopConfig(v)
	sc := sp.Search
	trainThreads, selfThreads := splitCores(runtime.GOMAXPROCS(0))
	return RunConfig{
		Variant: v.String(), Seed: 1, Metrics: "127.0.0.1:9464",
		Model: ModelConfig{Preset: "small", HistoryPlies: encode.DefaultOptions().HistoryPlies},
		Self: SelfPlayConfig{Games: sp.Games, FullSimulations: sp.FullSimulations, CheapSimulations: sp.CheapSimulations,
			FullSearchFraction: sp.FullSearchFraction, CheapSampleFraction: sp.CheapSampleFraction, MaxPlies: sp.MaxPlies,
			ResignCeiling: sp.ResignCeiling, ResignTargetFP: sp.ResignTargetFalsePositive,
			ResignCalibGames: sp.ResignCalibrationGames, ResignMinGames: sp.ResignMinGames,
			Gumbel: sp.Gumbel, ResignThreshold: sp.ResignThreshold,
			ResignConsecutive: sp.ResignConsecutive, NoResignFraction: sp.NoResignFraction, GamesPerFile: sp.GamesPerFile,
			FlushInterval: encode.Duration(sp.FlushInterval), Batch: 64, BatchWait: encode.Duration(2 * time.Millisecond), Cache: 200000,
			Threads: selfThreads, CPuct: sc.CPuct, FPUReduction: sc.FPUReduction, TemperatureMoves: sc.TemperatureMoves,
			LeavesPerBatch: sc.LeavesPerBatch},
		Train:  defaultTrainSection(lc, trainThreads),
		Eval:   arena.DefaultEvalConfig(),
		Gating: arena.DefaultGatingConfig(),
	}
}

// defaultTrainSection is the train section of the defaults.
func defaultTrainSection(lc model.LoopConfig, threads int) TrainConfig {
	t, r := lc.Train, lc.Replay
	return TrainConfig{Batch: t.Batch, Optimizer: string(t.Optimizer), Momentum: t.Momentum,
		L2: t.L2, WeightDecay: t.WeightDecay, MaxGradNorm: t.MaxGradNorm, LearningRate: lc.Schedule, WarmupSteps: lc.WarmupSteps,
		CheckpointEvery: lc.CheckpointEvery, KeepLast: lc.KeepLast, KeepEvery: lc.KeepEvery, MaxReuse: lc.MaxReuse,
		EarlyReuse: lc.EarlyReuse, MinSamples: lc.MinSamples, MinGames: lc.MinGames, WindowMin: r.WindowMin,
		WindowMax: r.WindowMax, MirrorFraction: r.MirrorFraction, ValueQStart: lc.ValueQStart, ValueQEnd: lc.ValueQEnd,
		ValueQSteps: lc.ValueQSteps, HoldOut: r.HoldOut, HoldOutMax: r.HoldOutMax, HeldOutEvery: lc.HeldOutEvery,
		ReplyWeight: t.ReplyWeight, MaterialWeight: t.MaterialWeight, OwnershipWeight: t.OwnershipWeight,
		ShortValueWeight: t.ShortValueWeight, Threads: threads, BNMomentum: t.BNMomentum, PolicyWeight: t.PolicyWeight,
		Poll: encode.Duration(lc.Poll)}
}

// splitCores divides the cores between the trainer and the self-play
// network: self-play's network layers use every core, training half of
// them; the trainer's reuse cap (max_reuse) paces it, so the cores go to
// self-play whenever it waits for data. Measured on 2 cores (Chu, small
// network, 3 minutes from the same state): 1+2 threads 185 samples trained
// and 44 generated per second; 2+2 181 and 43; a strict 1+1 146 and 36.
func splitCores(cores int) (train, self int) { return max(1, cores/2), cores }

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

// rulesConfig returns the rules of the run.
func (c *RunConfig) rulesConfig() (rules.Config, error) {
	id, err := rules.ParseVariant(c.Variant)
	if err != nil {
		return rules.Config{}, err
	}
	rc := rules.DefaultConfig(id)
	for k, v := range c.Rules {
		if err := rc.Set(k, v); err != nil {
			return rules.Config{}, err
		}
	}
	return rc, rc.Validate()
}

// modelConfig returns the architecture.
func (c *RunConfig) modelConfig() (model.Config, error) {
	mc, err := model.Preset(c.Model.Preset)
	if err != nil {
		return mc, err
	}
	if c.Model.Blocks > 0 {
		mc.Blocks = c.Model.Blocks
	}
	if c.Model.Filters > 0 {
		mc.Filters, mc.PolicyFilters = c.Model.Filters, c.Model.Filters
	}
	if c.Model.GlobalPoolEvery > 0 {
		mc.GlobalPoolEvery = c.Model.GlobalPoolEvery
	}
	return mc, mc.Validate()
}

// loopConfig returns the trainer's configuration.
func (c *RunConfig) loopConfig(runDir string) (model.LoopConfig, error) {
	rc, err := c.rulesConfig()
	if err != nil {
		return model.LoopConfig{}, err
	}
	mc, err := c.modelConfig()
	if err != nil {
		return model.LoopConfig{}, err
	}
	opt, err := model.ParseOptimizer(c.Train.Optimizer)
	if err != nil {
		return model.LoopConfig{}, err
	}
	lc := model.DefaultLoopConfig(rc.Variant)
	lc.Rules, lc.Model, lc.Seed = rc, mc, c.Seed
	lc.Encode = encode.Options{HistoryPlies: c.Model.HistoryPlies}
	t := &c.Train
	lc.Train.Batch, lc.Train.Optimizer, lc.Train.Momentum = t.Batch, opt, t.Momentum
	lc.Train.L2, lc.Train.WeightDecay, lc.Train.MaxGradNorm, lc.Train.Threads = t.L2, t.WeightDecay, t.MaxGradNorm, t.Threads
	lc.Train.BNMomentum, lc.Train.PolicyWeight = t.BNMomentum, t.PolicyWeight
	lc.Train.ReplyWeight, lc.Train.MaterialWeight = t.ReplyWeight, t.MaterialWeight
	lc.Train.OwnershipWeight, lc.Train.ShortValueWeight = t.OwnershipWeight, t.ShortValueWeight
	lc.Schedule, lc.WarmupSteps = t.LearningRate, t.WarmupSteps
	lc.CheckpointEvery, lc.KeepLast, lc.KeepEvery = t.CheckpointEvery, t.KeepLast, t.KeepEvery
	lc.MaxReuse, lc.EarlyReuse, lc.MinSamples, lc.MinGames = t.MaxReuse, t.EarlyReuse, t.MinSamples, t.MinGames
	lc.ValueQStart, lc.ValueQEnd, lc.ValueQSteps, lc.HeldOutEvery = t.ValueQStart, t.ValueQEnd, t.ValueQSteps, t.HeldOutEvery
	lc.Replay.WindowMin, lc.Replay.WindowMax, lc.Replay.MirrorFraction = t.WindowMin, t.WindowMax, t.MirrorFraction
	lc.Replay.HoldOut, lc.Replay.HoldOutMax = t.HoldOut, t.HoldOutMax
	if t.Mirror != nil && *t.Mirror {
		lc.Replay.MirrorFraction = 0.5 // a run made before mirror_fraction
	}
	lc.Poll = time.Duration(t.Poll)
	lc.Samples = checkpoints.Run{Dir: runDir}.Samples()
	return lc, lc.Validate()
}

// selfPlayConfig returns the self-play configuration.
func (c *RunConfig) selfPlayConfig(runDir string) (selfplay.Config, error) {
	rc, err := c.rulesConfig()
	if err != nil {
		return selfplay.Config{}, err
	}
	s := &c.Self
	sp := selfplay.DefaultConfig(rc.Variant)
	sp.Rules, sp.Encode, sp.Seed, sp.Dir = rc, encode.Options{HistoryPlies: c.Model.HistoryPlies}, c.Seed, runDir
	sp.Games, sp.FullSimulations, sp.CheapSimulations = s.Games, s.FullSimulations, s.CheapSimulations
	sp.FullSearchFraction, sp.Gumbel = s.FullSearchFraction, s.Gumbel
	sp.CheapSampleFraction, sp.MaxPlies = s.CheapSampleFraction, s.MaxPlies
	sp.ResignCeiling, sp.ResignTargetFalsePositive = s.ResignCeiling, s.ResignTargetFP
	sp.ResignCalibrationGames, sp.ResignMinGames = s.ResignCalibGames, s.ResignMinGames
	sp.ResignThreshold, sp.ResignConsecutive, sp.NoResignFraction = s.ResignThreshold, s.ResignConsecutive, s.NoResignFraction
	sp.GamesPerFile, sp.FlushInterval = s.GamesPerFile, time.Duration(s.FlushInterval)
	sp.Search.CPuct, sp.Search.FPUReduction = s.CPuct, s.FPUReduction
	sp.Search.TemperatureMoves, sp.Search.LeavesPerBatch = s.TemperatureMoves, s.LeavesPerBatch
	if s.Batch < 1 || s.Threads < 0 || s.Cache < 0 {
		return sp, errors.New("selfplay: batch must be positive, threads and cache not negative")
	}
	return sp, sp.Validate()
}

// validate checks every section.
func (c *RunConfig) validate(runDir string) error {
	if _, err := c.loopConfig(runDir); err != nil {
		return err
	}
	if err := c.Eval.Validate(); err != nil {
		return err
	}
	if err := c.Gating.Validate(); err != nil {
		return err
	}
	_, err := c.selfPlayConfig(runDir)
	return err
}

// write stores the effective config in DIR/config.json, atomically.
func (c *RunConfig) write(runDir string) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return encode.WriteAtomic(checkpoints.Run{Dir: runDir}.Config(), append(data, '\n'))
}
