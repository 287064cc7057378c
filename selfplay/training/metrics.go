package training

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/model"
	"chuzero/selfplay"
)

// Metrics are the Prometheus metrics of a run, registered on a registry
// the command owns. Every name starts with chuzero_; the README documents
// each one.
type Metrics struct {
	games         *prometheus.CounterVec
	gameLength    prometheus.Histogram
	positions     prometheus.Counter
	simulations   prometheus.Counter
	moves         *prometheus.CounterVec
	batchSize     prometheus.Histogram
	batchSeconds  prometheus.Histogram
	resignThresh  prometheus.Gauge
	resignChecks  prometheus.Counter
	resignFalse   prometheus.Counter
	trainSteps    prometheus.Counter
	trainSamples  prometheus.Counter
	trainSkipped  prometheus.Counter
	reanalysed    *prometheus.CounterVec
	reanalyseLast model.ReanalyseStats // the counts already added (step's goroutine only)
	loss          *prometheus.GaugeVec
	heldOutLoss   *prometheus.GaugeVec
	learningRate  prometheus.Gauge
	gradNorm      prometheus.Gauge
	window        prometheus.Gauge
	replaySamples prometheus.Gauge
	reuse         prometheus.Gauge
	stepSeconds   prometheus.Histogram
	ckptSaves     prometheus.Counter
	ckptLast      prometheus.Gauge
	ckptStep      prometheus.Gauge
	corruptFiles  prometheus.Counter
	// quarantinedFiles: damaged sample files moved to samples/quarantine
	quarantinedFiles prometheus.Counter
	invalidSamples   prometheus.Counter
	prunedFiles      prometheus.Counter
	evaluatorSteps   prometheus.Gauge
	evalElo          *prometheus.GaugeVec
	evalEloLow       *prometheus.GaugeVec
	evalEloHigh      *prometheus.GaugeVec
	evalStep         *prometheus.GaugeVec
	evalGames        *prometheus.CounterVec
	gatingDecision   *prometheus.CounterVec
	gatingLLR        prometheus.Gauge
	bestStep         prometheus.Gauge

	mu          sync.Mutex
	cacheCounts mcts.CacheCounts // of every cache this process made
	resignRatio float64
}

// NewMetrics creates and registers the metrics on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{}
	for _, group := range [][]prometheus.Collector{m.selfPlayMetrics(), m.evaluatorMetrics(), m.trainMetrics(),
		m.checkpointMetrics(), m.evalMetrics(), ProcessMetrics()} {
		for _, c := range group {
			reg.MustRegister(c)
		}
	}
	return m
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
func (m *Metrics) eval(e checkpoints.EvalEntry) {
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
	if r := i.Reanalyse; r != m.reanalyseLast {
		m.reanalysed.WithLabelValues("replaced").Add(float64(r.Reanalysed - m.reanalyseLast.Reanalysed))
		m.reanalysed.WithLabelValues("failed").Add(float64(r.Failed - m.reanalyseLast.Failed))
		m.reanalyseLast = r
	}
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
