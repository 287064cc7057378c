package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"chuzero/mcts"
	"chuzero/model"
	"chuzero/selfplay"
	"chuzero/selfplay/report"
)

// Metrics are the Prometheus metrics of a run, registered on a registry
// the command owns. Every name starts with chuzero_; the README documents
// each one.
type Metrics struct {
	games          *prometheus.CounterVec
	gameLength     prometheus.Histogram
	positions      prometheus.Counter
	simulations    prometheus.Counter
	moves          *prometheus.CounterVec
	batchSize      prometheus.Histogram
	batchSeconds   prometheus.Histogram
	resignThresh   prometheus.Gauge
	resignChecks   prometheus.Counter
	resignFalse    prometheus.Counter
	trainSteps     prometheus.Counter
	trainSamples   prometheus.Counter
	trainSkipped   prometheus.Counter
	loss           *prometheus.GaugeVec
	heldOutLoss    *prometheus.GaugeVec
	learningRate   prometheus.Gauge
	gradNorm       prometheus.Gauge
	window         prometheus.Gauge
	replaySamples  prometheus.Gauge
	reuse          prometheus.Gauge
	stepSeconds    prometheus.Histogram
	ckptSaves      prometheus.Counter
	ckptLast       prometheus.Gauge
	ckptStep       prometheus.Gauge
	corruptFiles   prometheus.Counter
	evaluatorSteps prometheus.Gauge
	evalElo        *prometheus.GaugeVec
	evalEloLow     *prometheus.GaugeVec
	evalEloHigh    *prometheus.GaugeVec
	evalStep       *prometheus.GaugeVec
	evalGames      *prometheus.CounterVec
	gatingDecision *prometheus.CounterVec
	gatingLLR      prometheus.Gauge
	bestStep       prometheus.Gauge

	mu          sync.Mutex
	cacheCounts mcts.CacheCounts // of every cache this process made
	resignRatio float64
}

// NewMetrics creates and registers the metrics on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	f := func(c prometheus.Collector) { reg.MustRegister(c) }
	m := &Metrics{
		games: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "chuzero_selfplay_games_total",
			Help: "Self-play games finished and written, by result (1-0, 0-1, 1/2-1/2) and end reason."}, []string{"result", "reason"}),
		gameLength: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "chuzero_selfplay_game_length_plies",
			Help: "Length of finished self-play games in plies.", Buckets: prometheus.ExponentialBuckets(8, 1.6, 14)}),
		positions: prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_selfplay_positions_total",
			Help: "Training samples written by self-play."}),
		simulations: prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_selfplay_simulations_total",
			Help: "Search playouts of self-play."}),
		moves: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "chuzero_selfplay_moves_total",
			Help: "Self-play searches, by kind: full (policy target recorded) or cheap."}, []string{"search"}),
		batchSize: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "chuzero_evaluator_batch_size",
			Help: "Positions per network call of the batching evaluator.", Buckets: prometheus.ExponentialBuckets(1, 2, 9)}),
		batchSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "chuzero_evaluator_batch_seconds",
			Help: "Duration of one batched network call.", Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14)}),
		resignThresh: prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_selfplay_resign_threshold",
			Help: "Root value below which a side resigns."}),
		resignChecks: prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_selfplay_resign_checks_total",
			Help: "Games without resignation in which a side would have resigned."}),
		resignFalse: prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_selfplay_resign_false_positives_total",
			Help: "Of those, games the would-be resigner did not lose."}),
		trainSteps: prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_train_steps_total",
			Help: "Training steps taken by this process."}),
		trainSamples: prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_train_samples_total",
			Help: "Samples trained on by this process."}),
		trainSkipped: prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_train_skipped_steps_total",
			Help: "Training steps skipped for a non-finite loss or gradient."}),
		loss: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "chuzero_train_loss",
			Help: "Loss of the last training step, by head: policy, value, reply, material, ownership, short_value, l2, total."}, []string{"head"}),
		heldOutLoss: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "chuzero_train_heldout_loss",
			Help: "Loss on a batch of held-out games (never trained on), by head: policy, value; measured every held_out_every steps."}, []string{"head"}),
		learningRate: prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_train_learning_rate",
			Help: "Learning rate of the last training step."}),
		gradNorm: prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_train_gradient_norm",
			Help: "Global gradient norm of the last training step, before clipping."}),
		window: prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_replay_window_samples",
			Help: "Samples in the replay window minibatches are drawn from."}),
		replaySamples: prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_replay_samples",
			Help: "Samples the trainer has loaded from the run's sample files."}),
		reuse: prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_train_reuse_ratio",
			Help: "Samples trained on per sample generated, over the whole run."}),
		stepSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "chuzero_train_step_seconds",
			Help: "Duration of one training step.", Buckets: prometheus.ExponentialBuckets(0.01, 2, 12)}),
		ckptSaves: prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_checkpoint_saves_total",
			Help: "Checkpoints written by this process."}),
		ckptLast: prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_checkpoint_last_success_timestamp_seconds",
			Help: "Unix time of the last checkpoint written."}),
		ckptStep: prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_checkpoint_step",
			Help: "Training step of the newest checkpoint."}),
		corruptFiles: prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_replay_corrupt_files_total",
			Help: "Damaged sample files the trainer skipped (logged with the reason)."}),
		evaluatorSteps: prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_selfplay_network_step",
			Help: "Training step of the network self-play uses for new games."}),
		evalElo: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "chuzero_eval_elo",
			Help: "Elo of the last evaluated checkpoint relative to each anchor (first, greedy, hachu-d1, ...); ±1e9 for a clean sweep."}, []string{"opponent"}),
		evalEloLow: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "chuzero_eval_elo_low",
			Help: "Lower end of the 95% interval of chuzero_eval_elo."}, []string{"opponent"}),
		evalEloHigh: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "chuzero_eval_elo_high",
			Help: "Upper end of the 95% interval of chuzero_eval_elo."}, []string{"opponent"}),
		evalStep: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "chuzero_eval_checkpoint_step",
			Help: "Training step of the checkpoint last evaluated against each anchor."}, []string{"opponent"}),
		evalGames: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "chuzero_eval_games_total",
			Help: "Evaluation games, by anchor and result for the checkpoint (win, draw, loss)."}, []string{"opponent", "result"}),
		gatingDecision: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "chuzero_gating_decisions_total",
			Help: "Gating decisions, by outcome: accept (promoted), reject, inconclusive (game limit reached)."}, []string{"decision"}),
		gatingLLR: prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_gating_llr",
			Help: "Log-likelihood ratio of the last gating SPRT at its end."}),
		bestStep: prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_gating_best_step",
			Help: "Training step of the best checkpoint (the one self-play uses under gating)."}),
	}
	for _, c := range []prometheus.Collector{m.games, m.gameLength, m.positions, m.simulations, m.moves, m.batchSize,
		m.batchSeconds, m.resignThresh, m.resignChecks, m.resignFalse, m.trainSteps, m.trainSamples, m.trainSkipped,
		m.loss, m.heldOutLoss, m.learningRate, m.gradNorm, m.window, m.replaySamples, m.reuse, m.stepSeconds, m.ckptSaves, m.ckptLast,
		m.ckptStep, m.corruptFiles, m.evaluatorSteps, m.evalElo, m.evalEloLow, m.evalEloHigh, m.evalStep, m.evalGames,
		m.gatingDecision, m.gatingLLR, m.bestStep} {
		f(c)
	}
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "chuzero_evaluator_cache_hit_ratio",
		Help: "Share of evaluations answered by the cache, over the run of this process."}, m.cacheHitRatio))
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "chuzero_selfplay_resign_false_positive_ratio",
		Help: "resign_false_positives_total / resign_checks_total."}, func() float64 {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.resignRatio
	}))
	bi := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "chuzero_build_info",
		Help: "Build information: version, Go version and the matrix-multiply kernel; always 1."},
		[]string{"version", "goversion", "blas"})
	f(bi)
	bi.WithLabelValues(buildVersion(), runtime.Version(), model.BLAS).Set(1)
	f(collectors.NewGoCollector())
	f(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "devel"
}

func (m *Metrics) cacheHitRatio() float64 { return m.cacheCounts.HitRatio() }

// game records a finished self-play game.
func (m *Metrics) game(rec *selfplay.Record, st selfplay.Stats) {
	m.games.WithLabelValues(rec.Result, slug(rec.Reason)).Inc()
	m.gameLength.Observe(float64(rec.Plies))
	m.positions.Add(float64(rec.Samples))
	if rec.WouldResign != nil {
		m.resignChecks.Inc()
		if rec.FalsePositive() {
			m.resignFalse.Inc()
		}
	}
	m.mu.Lock()
	m.resignRatio = st.ResignFalsePositiveRate()
	m.mu.Unlock()
}

// eval records an evaluation match.
func (m *Metrics) eval(e report.EvalEntry) {
	m.evalElo.WithLabelValues(e.Opponent).Set(e.Elo)
	m.evalEloLow.WithLabelValues(e.Opponent).Set(e.EloLow)
	m.evalEloHigh.WithLabelValues(e.Opponent).Set(e.EloHigh)
	m.evalStep.WithLabelValues(e.Opponent).Set(float64(e.Step))
	m.evalGames.WithLabelValues(e.Opponent, "win").Add(float64(e.Wins))
	m.evalGames.WithLabelValues(e.Opponent, "draw").Add(float64(e.Draws))
	m.evalGames.WithLabelValues(e.Opponent, "loss").Add(float64(e.Losses))
}

// gating records a gating decision.
func (m *Metrics) gating(decision string, llr float64) {
	m.gatingDecision.WithLabelValues(decision).Inc()
	m.gatingLLR.Set(llr)
}

// move records one self-play search.
func (m *Metrics) move(full bool, sims int) {
	kind := "cheap"
	if full {
		kind = "full"
	}
	m.moves.WithLabelValues(kind).Inc()
	m.simulations.Add(float64(sims))
}

// batch records one network call.
func (m *Metrics) batch(size int, d time.Duration) {
	m.batchSize.Observe(float64(size))
	m.batchSeconds.Observe(d.Seconds())
}

// step records a trainer report.
func (m *Metrics) step(i model.StepInfo) {
	m.window.Set(float64(i.Window))
	m.replaySamples.Set(float64(i.Samples))
	m.reuse.Set(i.Reuse)
	if i.Waiting {
		return
	}
	if i.Skipped {
		m.trainSkipped.Inc()
		return
	}
	m.trainSteps.Inc()
	m.trainSamples.Add(float64(i.Batch))
	m.loss.WithLabelValues("policy").Set(i.Stats.PolicyLoss)
	m.loss.WithLabelValues("value").Set(i.Stats.ValueLoss)
	m.loss.WithLabelValues("l2").Set(i.Stats.L2Loss)
	m.loss.WithLabelValues("total").Set(i.Stats.Loss)
	for head, v := range map[string]float64{"reply": i.Stats.ReplyLoss, "material": i.Stats.MaterialLoss,
		"ownership": i.Stats.OwnershipLoss, "short_value": i.Stats.ShortValueLoss} {
		m.loss.WithLabelValues(head).Set(v)
	}
	if h := i.HeldOut; h != nil {
		m.heldOutLoss.WithLabelValues("policy").Set(h.PolicyLoss)
		m.heldOutLoss.WithLabelValues("value").Set(h.ValueLoss)
	}
	m.learningRate.Set(i.LR)
	m.gradNorm.Set(i.Stats.GradNorm)
	m.stepSeconds.Observe(i.Seconds)
}

// checkpoint records a checkpoint written.
func (m *Metrics) checkpoint(step int64) {
	m.ckptSaves.Inc()
	m.ckptLast.Set(float64(time.Now().Unix()))
	m.ckptStep.Set(float64(step))
}

// slug turns "bare king" into "bare_king" for a label value.
func slug(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == ' ' {
			b[i] = '_'
		}
	}
	return string(b)
}

// serveMetrics serves /metrics and /healthz on addr until the returned
// stop is called (it shuts the server down and waits for it). When the
// default address is taken, it falls back to any free loopback port
// (several processes on one machine); an address given explicitly must be
// free. It returns the address it listens on ("" when disabled).
func serveMetrics(addr string, explicit bool, reg *prometheus.Registry, health func() error, log *slog.Logger) (string, func(), error) {
	if addr == "" || addr == "off" {
		return "", func() {}, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil && !explicit {
		log.Warn("metrics address busy, using a free port instead", "addr", addr, "err", err)
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		return "", nil, fmt.Errorf("metrics: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		if err := health(); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	served := make(chan struct{})
	go func() {
		defer close(served)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server stopped", "err", err)
		}
	}()
	stop := func() {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close() // a scrape still running after two seconds
		}
		<-served
	}
	return ln.Addr().String(), stop, nil
}
