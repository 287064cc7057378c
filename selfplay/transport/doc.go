// Package transport is the seam between self-play and training: how a
// finished batch of games (its sample file and record file, a Batch)
// reaches the trainer's run directory, and how the run's config and
// current network reach self-play. Self-play hands its batches to a
// Publisher.
//
// Two transports: Dir, the run directory itself (the default: self-play
// writes samples/ and games/, the trainer writes checkpoints/, self-play
// polls them, so config and networks need no sending), and package
// transport/natsjs over NATS JetStream for workers on many machines (its
// Worker publishes batches and follows the config and the network, its
// Trainer receives the batches and publishes the config and each network;
// selfplay/training wires them).
//
//	d, err := transport.NewDir(checkpoints.RunAt(runDir, variant))
//	runner.Publisher = d // selfplay.Runner: batches go to runDir
//
// The trainer's run directory stays the one source of truth of a run: the
// replay window, checkpoints, logs and reports all come from it.
package transport
