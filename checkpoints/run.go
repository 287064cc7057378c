package checkpoints

import (
	"path/filepath"

	"chuzero/encode"
)

// Run is the layout of a run directory, the one place that names its
// parts: every package that reads or writes a run asks it for paths.
//
//	config.json        the effective run config
//	samples/           training samples (*.samples), one file per batch of games
//	games/             game records (*.jsonl)
//	checkpoints/       step-NNNNNNNNN.ckpt (the Store)
//	logs/              train.jsonl, eval.jsonl, gating.jsonl
//	anchors/           first.ckpt, previous.ckpt: evaluation anchors safe from pruning
//	best.json          under gating, the checkpoint self-play uses, beside its copy best.ckpt
//	eval/, gating/     the records of evaluation and gating matches
//	arena/             matches of "chuzero arena -run"
//	strength/          the strength benchmark's gauntlet
//	report/            "chuzero report"'s plots and page
//	nats/              the JetStream storage of "chuzero trainer -embedded-nats"
//	outbox/            a NATS worker's batches not yet acknowledged (samples/, games/)
type Run struct {
	Dir string
}

// RunsDir is the folder, relative to the working directory, that holds
// the default runs: runs/<variant>.
const RunsDir = "runs"

// RunAt is the run of a -run flag: dir, or when dir is empty the default
// run RunsDir/<variant> (runs/chu without a variant).
func RunAt(dir, variant string) Run {
	if dir != "" {
		return Run{Dir: dir}
	}
	if variant == "" {
		variant = "chu"
	}
	return Run{Dir: filepath.Join(RunsDir, variant)}
}

// The parts of a run directory, relative to it.
const (
	ConfigFile     = "config.json"
	SamplesDir     = "samples"
	GamesDir       = "games"
	CheckpointsDir = "checkpoints"
	LogsDir        = "logs"
	AnchorsDir     = "anchors"
	NatsKeysDir    = "nats-keys"
	BestFile       = "best.json"
	BestCheckpoint = "best.ckpt"
	EvalDir        = "eval"
	GatingDir      = "gating"
	ArenaDir       = "arena"
	StrengthDir    = "strength"
	LearningFile   = "learning.txt" // scripts/learning.sh's table
	ReportDir      = "report"
	NatsDir        = "nats"
	OutboxDir      = "outbox"
)

// RecordExt ends the name of every file of game records (JSON lines): the
// batches in games/ and the logs in logs/.
const RecordExt = ".jsonl"

// The files of a match directory (eval/MATCH, gating/MATCH, arena/MATCH,
// strength/), which an arena match writes.
const (
	MatchRecords = "games.jsonl"  // a line per game (arena.GameRecord)
	MatchPGN     = "games.pgn"    // the games as PGN
	MatchResults = "results.json" // the standings: pairs, Elo, SPRT
)

func (r Run) path(parts ...string) string {
	return filepath.Join(append([]string{r.Dir}, parts...)...)
}

// Config is the run's effective config file.
func (r Run) Config() string { return r.path(ConfigFile) }

// Samples is the directory of sample files.
func (r Run) Samples() string { return r.path(SamplesDir) }

// Games is the directory of game records.
func (r Run) Games() string { return r.path(GamesDir) }

// Checkpoints is the checkpoint directory (see Store).
func (r Run) Checkpoints() string { return r.path(CheckpointsDir) }

// Logs is the directory of the run's logs.
func (r Run) Logs() string { return r.path(LogsDir) }

// Log is the log file name in Logs.
func (r Run) Log(name string) string { return r.path(LogsDir, name) }

// Anchor is the pinned copy of anchor checkpoint name ("first", "previous").
func (r Run) Anchor(name string) string { return r.path(AnchorsDir, name+Ext) }

// Anchors is the directory of the pinned checkpoints.
func (r Run) Anchors() string { return r.path(AnchorsDir) }

// Best is best.json, and BestCheckpoint its checkpoint's copy.
func (r Run) Best() string { return r.path(BestFile) }

// BestCheckpoint is the copy of the best checkpoint beside best.json.
func (r Run) BestCheckpoint() string { return r.path(BestCheckpoint) }

// Eval is the directory of one evaluation match's records.
func (r Run) Eval(match string) string { return r.path(EvalDir, match) }

// Gating is the directory of one gating match's records.
func (r Run) Gating(match string) string { return r.path(GatingDir, match) }

// Arena is the directory of "chuzero arena -run" matches.
func (r Run) Arena() string { return r.path(ArenaDir) }

// Strength is the strength benchmark's gauntlet directory.
func (r Run) Strength() string { return r.path(StrengthDir) }

// Learning is the learning probe's table (scripts/learning.sh).
func (r Run) Learning() string { return r.path(LearningFile) }

// Report is the directory of "chuzero report"'s output.
func (r Run) Report() string { return r.path(ReportDir) }

// Nats is the JetStream storage directory of an embedded NATS server.
func (r Run) Nats() string { return r.path(NatsDir) }

// NatsKeys is the directory of the embedded NATS server's NKEY seeds
// (mode 0700, the seeds 0600): trainer.nk and worker.nk.
func (r Run) NatsKeys() string { return r.path(NatsKeysDir) }

// Outbox is a NATS self-play worker's directory of batches not yet
// acknowledged by the stream, laid out as a run directory.
func (r Run) Outbox() Run { return Run{Dir: r.path(OutboxDir)} }

// Batch returns the paths of batch name's two files: its samples (in
// Samples) and its game records (in Games).
func (r Run) Batch(name string) (samples, records string) {
	return r.path(SamplesDir, name+encode.SampleFileExt), r.path(GamesDir, name+RecordExt)
}

// Store opens the run's checkpoint store (creating the directory).
func (r Run) Store() (*Store, error) { return Open(r.Checkpoints()) }
