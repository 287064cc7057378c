package natsjs

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the transport's Prometheus metrics, on the worker
// (published, network downloads) and on the trainer (consumed, rejected,
// lag, per worker).
type Metrics struct {
	publishedBatches, publishedParts, publishedBytes prometheus.Counter
	publishRetries, publishDuplicates                prometheus.Counter
	consumedBatches, consumedParts, consumedBytes    prometheus.Counter
	duplicates, redelivered, writeErrors, reconnects prometheus.Counter
	deferredParts, retriedBatches                    prometheus.Counter
	rejected                                         *prometheus.CounterVec
	pending, ackPending, redeliveredNow              prometheus.Gauge
	outboxBytes                                      prometheus.Gauge
	workerGames                                      *prometheus.CounterVec
	workerSeen                                       *prometheus.GaugeVec
	networksPublished, networkCacheHits              prometheus.Counter
	networkBytes                                     prometheus.Counter
	networkDownload                                  prometheus.Histogram
	networkDelay                                     prometheus.Gauge
	resignThreshold                                  prometheus.Gauge
}

// NewMetrics returns the metrics, registered with reg (nil: none).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	c := func(name, help string) prometheus.Counter {
		return prometheus.NewCounter(prometheus.CounterOpts{Name: "chuzero_transport_" + name, Help: help})
	}
	g := func(name, help string) prometheus.Gauge {
		return prometheus.NewGauge(prometheus.GaugeOpts{Name: "chuzero_transport_" + name, Help: help})
	}
	m := &Metrics{
		publishedBatches:  c("published_batches_total", "Batches of games the stream acknowledged (worker)."),
		publishedParts:    c("published_messages_total", "Messages (parts of sample and record files) the stream acknowledged (worker)."),
		publishedBytes:    c("published_bytes_total", "File bytes the stream acknowledged (worker)."),
		publishRetries:    c("publish_retries_total", "Publish attempts that failed and were retried (worker)."),
		publishDuplicates: c("publish_duplicates_total", "Messages the stream dropped as already stored (worker)."),
		consumedBatches:   c("consumed_batches_total", "Batches written into the run directory and acknowledged (trainer)."),
		consumedParts:     c("consumed_messages_total", "Messages received from the stream (trainer)."),
		consumedBytes:     c("consumed_bytes_total", "File bytes received from the stream (trainer)."),
		duplicates:        c("duplicate_batches_total", "Batches received again whose files were already there (trainer)."),
		redelivered:       c("redelivered_messages_total", "Messages delivered more than once (trainer)."),
		writeErrors:       c("write_errors_total", "Batches that could not be written into the run directory (trainer)."),
		reconnects:        c("reconnects_total", "Reconnections to the NATS server."),
		deferredParts:     c("deferred_messages_total", "Parts of a new batch left in the stream, to come again, while the trainer held its most open batches (trainer)."),
		retriedBatches:    c("incomplete_batches_total", "Batches incomplete after the assembly timeout, their parts sent back to the stream to come again (trainer)."),
		rejected: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "chuzero_transport_rejected_messages_total",
			Help: "Messages or batches rejected (trainer), by reason: headers, size, hash, samples (a damaged sample file), invalid_sample (a sample that fails validation: its position, values or policy), variant, records, conflict, parts (a batch claiming more parts than the trainer can hold), open_batches (a worker over its open batches, MaxWorkerAssemblies)."}, []string{"reason"}),
		pending:        g("pending_messages", "Messages in the stream not yet delivered to the trainer (stream lag)."),
		ackPending:     g("ack_pending_messages", "Messages delivered to the trainer and not yet acknowledged."),
		redeliveredNow: g("redelivering_messages", "Messages the server is delivering again (unacknowledged in time)."),
		outboxBytes:    g("outbox_bytes", "Bytes of batches waiting in the outbox while the stream is away (worker)."),
		workerGames: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "chuzero_transport_worker_games_total",
			Help: "Games received from each worker (trainer); rate()*3600 is its games/h."}, []string{"worker"}),
		workerSeen: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "chuzero_transport_worker_last_seen_timestamp_seconds",
			Help: "When a batch of each worker last arrived (trainer)."}, []string{"worker"}),
		networksPublished: c("networks_published_total", "Networks put into the object store (trainer)."),
		networkCacheHits:  c("network_cache_hits_total", "Networks announced that the worker had already (worker)."),
		networkBytes:      c("network_download_bytes_total", "Network bytes downloaded (worker)."),
		networkDownload: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "chuzero_transport_network_download_seconds",
			Help: "Time to download a network (worker).", Buckets: prometheus.ExponentialBuckets(0.01, 2, 14)}),
		networkDelay:    g("network_delay_seconds", "From the trainer publishing the last network to the worker having it (worker; clocks of two machines)."),
		resignThreshold: g("resign_threshold", "The run-wide resignation threshold last published (trainer)."),
	}
	if reg != nil {
		reg.MustRegister(m.publishedBatches, m.publishedParts, m.publishedBytes, m.publishRetries, m.publishDuplicates,
			m.consumedBatches, m.consumedParts, m.consumedBytes, m.duplicates, m.redelivered, m.writeErrors, m.reconnects,
			m.deferredParts, m.retriedBatches, m.rejected, m.pending, m.ackPending, m.redeliveredNow, m.outboxBytes, m.workerGames, m.workerSeen,
			m.networksPublished, m.networkCacheHits, m.networkBytes, m.networkDownload, m.networkDelay, m.resignThreshold)
	}
	return m
}
