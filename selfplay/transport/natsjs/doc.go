// Package natsjs is the transport of package transport over NATS
// JetStream, for self-play workers on many machines feeding one trainer.
//
// Per run (Config.Run) there are: a stream CHUZERO_<run> with subjects
// chuzero.<run>.samples and chuzero.<run>.games, carrying each batch's
// sample file and record file in parts (see message.go for the headers);
// a durable consumer "trainer" on it; a key-value bucket chuzero_<run>
// with the keys "config" (the run's config.json), "network" (the
// current network) and "resign" (the run-wide resignation threshold, which the trainer
// process decides and this package only carries: resign.go); and an object store chuzero_<run>_networks with the
// newest networks.
//
// A worker (NewWorker) writes each batch to its outbox, publishes it with
// message ids from its content (a retry or a restart duplicates nothing),
// and follows the "network" key, downloading each new network into its
// local checkpoint store. The trainer (NewTrainer) creates the stream and
// buckets, writes the batches it receives into its run directory and
// acknowledges them only then, and publishes its checkpoints.
//
//	w, err := natsjs.NewWorker(cfg, dir, metrics, log)
//	runner.Publisher = w
//	go w.Follow(ctx, store, onNewNetwork)
//
//	t, err := natsjs.NewTrainer(ctx, cfg, dir, rules.Sho, metrics, log)
//	go t.Receive(ctx) // samples/ and games/ fill; the training loop reads them
//	t.PublishCheckpoint(ctx, entry)
//
// StartServer runs an in-process server with JetStream storage, for a
// setup with no server to install.
package natsjs

// UpstreamLeak is the one goroutine of nats.go (v1.55.0) that can outlive
// its use, for leak checks (goleak.IgnoreTopFunction): ObjectStore.Put, by
// which the trainer publishes a checkpoint, starts
// resetPendingAcksOnReconnect on a private JetStream context, and its
// deferred cleanup nils the status channel that goroutine has not read
// yet, so now and then (seen under -race) it waits on a nil channel for
// good. The race is in the library (jetstream/publish.go and object.go):
// one small goroutine per unlucky upload, nothing a caller can close.
const UpstreamLeak = "github.com/nats-io/nats.go/jetstream.(*jetStream).resetPendingAcksOnReconnect"
