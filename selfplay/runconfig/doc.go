// Package runconfig is the schema of a training run's config.json: the
// variant and rules, the seed, the network's shape (by name), the
// self-play and search settings, the evaluation and gating sections, and
// the metrics address, with their defaults and the order in which the
// defaults, an existing run's config.json and a -config file override one
// another (Load).
//
// It is the light half of the run config, for readers of a run (the
// report, the web pages): it imports neither the network (Gorgonia) nor
// NATS. The trainer's own section ("train": schedule, optimizer, replay
// window) is the network package's, so this package keeps it as raw JSON
// (Config.Train); package selfplay/training embeds Config and replaces
// that field with the typed section.
//
//	c, err := runconfig.Read(run) // config.json over its variant's defaults
//	sp, err := c.SelfPlayConfig(run)
package runconfig
