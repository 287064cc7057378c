package training

import (
	"runtime"
	"runtime/debug"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"chuzero/model"
)

// selfPlayMetrics creates the self-play metrics (games, searches,
// resignation, the network in use) and returns them for registering.
func (m *Metrics) selfPlayMetrics() []prometheus.Collector {
	m.games = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "chuzero_selfplay_games_total",
		Help: "Self-play games finished and written, by result (1-0, 0-1, 1/2-1/2) and end reason."}, []string{"result", "reason"})
	m.gameLength = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "chuzero_selfplay_game_length_plies",
		Help: "Length of finished self-play games in plies.", Buckets: prometheus.ExponentialBuckets(8, 1.6, 14)})
	m.positions = prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_selfplay_positions_total",
		Help: "Training samples written by self-play."})
	m.simulations = prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_selfplay_simulations_total",
		Help: "Search playouts of self-play."})
	m.moves = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "chuzero_selfplay_moves_total",
		Help: "Self-play searches, by kind: full (policy target recorded) or cheap."}, []string{"search"})
	m.resignThresh = prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_selfplay_resign_threshold",
		Help: "Root value below which a side resigns."})
	m.resignChecks = prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_selfplay_resign_checks_total",
		Help: "Games without resignation in which a side would have resigned."})
	m.resignFalse = prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_selfplay_resign_false_positives_total",
		Help: "Of those, games the would-be resigner did not lose."})
	m.evaluatorSteps = prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_selfplay_network_step",
		Help: "Training step of the network self-play uses for new games."})
	ratio := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "chuzero_selfplay_resign_false_positive_ratio",
		Help: "resign_false_positives_total / resign_checks_total."}, func() float64 {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.resignRatio
	})
	return []prometheus.Collector{m.games, m.gameLength, m.positions, m.simulations, m.moves, m.resignThresh, m.resignChecks, m.resignFalse, m.evaluatorSteps, ratio}
}

// evaluatorMetrics creates the metrics of the batching evaluator and its
// cache and returns them for registering.
func (m *Metrics) evaluatorMetrics() []prometheus.Collector {
	m.batchSize = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "chuzero_evaluator_batch_size",
		Help: "Positions per network call of the batching evaluator.", Buckets: prometheus.ExponentialBuckets(1, 2, 9)})
	m.batchSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "chuzero_evaluator_batch_seconds",
		Help: "Duration of one batched network call.", Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14)})
	cacheRatio := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "chuzero_evaluator_cache_hit_ratio",
		Help: "Share of evaluations answered by the cache, over the run of this process."}, m.cacheHitRatio)
	return []prometheus.Collector{m.batchSize, m.batchSeconds, cacheRatio}
}

// trainMetrics creates the training and replay-window metrics and returns
// them for registering.
func (m *Metrics) trainMetrics() []prometheus.Collector {
	m.trainSteps = prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_train_steps_total",
		Help: "Training steps taken by this process."})
	m.trainSamples = prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_train_samples_total",
		Help: "Samples trained on by this process."})
	m.trainSkipped = prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_train_skipped_steps_total",
		Help: "Training steps skipped for a non-finite loss or gradient."})
	m.loss = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "chuzero_train_loss",
		Help: "Loss of the last training step, by head: policy, value, reply, material, ownership, short_value, l2, total."}, []string{"head"})
	m.heldOutLoss = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "chuzero_train_heldout_loss",
		Help: "Loss on a batch of held-out games (never trained on), by head: policy, value; measured every held_out_every steps."}, []string{"head"})
	m.learningRate = prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_train_learning_rate",
		Help: "Learning rate of the last training step."})
	m.gradNorm = prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_train_gradient_norm",
		Help: "Global gradient norm of the last training step, before clipping."})
	m.window = prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_replay_window_samples",
		Help: "Samples in the replay window minibatches are drawn from."})
	m.replaySamples = prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_replay_samples",
		Help: "Samples the trainer has loaded from the run's sample files."})
	m.reuse = prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_train_reuse_ratio",
		Help: "Samples trained on per sample generated, over the whole run."})
	m.stepSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "chuzero_train_step_seconds",
		Help: "Duration of one training step.", Buckets: prometheus.ExponentialBuckets(0.01, 2, 12)})
	m.corruptFiles = prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_replay_corrupt_files_total",
		Help: "Damaged sample files the trainer skipped (logged with the reason)."})
	m.quarantinedFiles = prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_replay_quarantined_files_total",
		Help: "Unreadable sample files the trainer moved to samples/quarantine, each with NAME.reason beside it."})
	m.invalidSamples = prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_replay_invalid_samples_total",
		Help: "Samples the trainer skipped for failing validation: a position that does not parse, a value or policy out of range (logged)."})
	m.prunedFiles = prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_replay_pruned_files_total",
		Help: "Sample files the trainer deleted as older than the replay window and its margin."})
	m.reanalysed = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "chuzero_train_reanalysed_samples_total",
		Help: "Window samples re-searched with the newest network before steps (train.reanalyse), by result: replaced (targets rewritten), failed (left as stored, logged)."}, []string{"result"})
	return []prometheus.Collector{m.reanalysed, m.trainSteps, m.trainSamples, m.trainSkipped, m.loss, m.heldOutLoss, m.learningRate, m.gradNorm, m.window, m.replaySamples, m.reuse, m.stepSeconds, m.corruptFiles, m.quarantinedFiles, m.invalidSamples, m.prunedFiles}
}

// checkpointMetrics creates the checkpoint metrics and returns them for
// registering.
func (m *Metrics) checkpointMetrics() []prometheus.Collector {
	m.ckptSaves = prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_checkpoint_saves_total",
		Help: "Checkpoints written by this process."})
	m.ckptLast = prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_checkpoint_last_success_timestamp_seconds",
		Help: "Unix time of the last checkpoint written."})
	m.ckptStep = prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_checkpoint_step",
		Help: "Training step of the newest checkpoint."})
	return []prometheus.Collector{m.ckptSaves, m.ckptLast, m.ckptStep}
}

// evalMetrics creates the metrics of evaluation matches and gating and
// returns them for registering.
func (m *Metrics) evalMetrics() []prometheus.Collector {
	m.evalElo = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "chuzero_eval_elo",
		Help: "Elo of the last evaluated checkpoint relative to each anchor (first, greedy, hachu-d1, ...); ±1e9 for a clean sweep."}, []string{"opponent"})
	m.evalEloLow = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "chuzero_eval_elo_low",
		Help: "Lower end of the 95% interval of chuzero_eval_elo."}, []string{"opponent"})
	m.evalEloHigh = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "chuzero_eval_elo_high",
		Help: "Upper end of the 95% interval of chuzero_eval_elo."}, []string{"opponent"})
	m.evalStep = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "chuzero_eval_checkpoint_step",
		Help: "Training step of the checkpoint last evaluated against each anchor."}, []string{"opponent"})
	m.evalGames = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "chuzero_eval_games_total",
		Help: "Evaluation games, by anchor and result for the checkpoint (win, draw, loss)."}, []string{"opponent", "result"})
	m.gatingDecision = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "chuzero_gating_decisions_total",
		Help: "Gating decisions, by outcome: accept (promoted), reject, inconclusive (game limit reached)."}, []string{"decision"})
	m.gatingLLR = prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_gating_llr",
		Help: "Log-likelihood ratio of the last gating SPRT at its end."})
	m.bestStep = prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_gating_best_step",
		Help: "Training step of the best checkpoint (the one self-play uses under gating)."})
	return []prometheus.Collector{m.evalElo, m.evalEloLow, m.evalEloHigh, m.evalStep, m.evalGames, m.gatingDecision, m.gatingLLR, m.bestStep}
}

// ProcessMetrics creates the build information and the Go runtime and
// process collectors.
func ProcessMetrics() []prometheus.Collector {
	bi := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "chuzero_build_info",
		Help: "Build information: version, Go version and the matrix-multiply kernel; always 1."},
		[]string{"version", "goversion", "blas"})
	bi.WithLabelValues(buildVersion(), runtime.Version(), model.BLAS).Set(1)
	return []prometheus.Collector{bi, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})}
}

// buildVersion is the module version of the binary, "devel" when built
// from a checkout.
func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "devel"
}
