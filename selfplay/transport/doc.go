// Package transport is the seam between self-play and training: how a
// finished batch of games (its sample file and record file, a Batch)
// reaches the trainer's run directory, and how the run's config and
// current network reach self-play. Worker is the self-play side,
// Trainer the training side.
//
// Two implementations: Dir, the run directory itself (the default, and
// today's files byte for byte: self-play writes samples/ and games/, the
// trainer writes checkpoints/, self-play polls them), and package
// transport/jetstream, over NATS JetStream for workers on many machines.
//
//	d, err := transport.NewDir(checkpoints.Run{Dir: runDir})
//	runner.Publisher = d // selfplay.Runner: batches go to runDir
//
// The trainer's run directory stays the one source of truth of a run: the
// replay window, checkpoints, logs and reports all come from it.
package transport
