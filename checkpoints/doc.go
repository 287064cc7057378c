// Package checkpoints stores networks: named float32 tensors with their
// shapes, and metadata (variant, rules, encode spec, architecture, training
// step, parent, samples seen, creation time, optimizer), in a versioned
// file with a SHA-256 trailer, written atomically (atomicfile.Writer); the
// model package converts its weights to and from it. Store is a run's
// checkpoint directory, and Run the layout of a whole run directory, which
// every package asks for paths, with the checkpoints pinned against
// pruning (best.json and best.ckpt, anchors/first.ckpt and previous.ckpt),
// and the run's logs: their schema (TrainEntry, EvalEntry, GatingEntry),
// an Appender that survives a crash mid-line, and ReadLog.
//
//	c := &checkpoints.Checkpoint{Meta: meta, Tensors: tensors}
//	err := checkpoints.WriteFile("run/checkpoints/step-000100.ckpt", c)
//	c, err = checkpoints.ReadFile("run/checkpoints/step-000100.ckpt")
package checkpoints
