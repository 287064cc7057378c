package transport

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"regexp"

	"chuzero/checkpoints"
)

// Batch is a batch of finished self-play games as it travels: the whole
// sample file and the whole record file of the batch, under one name. The
// two files land together or not at all: the trainer's replay window
// never sees a sample file without its records.
type Batch struct {
	// Name is the files' common base name, without extension:
	// <UTC time>-<host>-<pid>-<seq>-g<last game index> (see ValidName).
	Name    string
	Samples []byte // a sample file, package encode's format (checksummed)
	Records []byte // a record file, JSON Lines, one game a line
	Games   int    // games in the batch (lines of Records)
}

// Hash returns the batch's content hash (hex SHA-256 of both files, each
// prefixed by its length): equal batches have equal hashes, whatever
// process sends them, so a batch sent twice is recognised.
func (b Batch) Hash() string {
	h := sha256.New()
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(b.Samples)))
	h.Write(n[:])
	h.Write(b.Samples)
	binary.LittleEndian.PutUint64(n[:], uint64(len(b.Records)))
	h.Write(n[:])
	h.Write(b.Records)
	return hex.EncodeToString(h.Sum(nil))
}

var nameRE = regexp.MustCompile(`^[0-9A-Za-z_][0-9A-Za-z_.-]{0,199}$`)

// ValidName reports whether name can be a batch name: 1 to 200 letters,
// digits, '_', '-' or '.', not starting with '.' or '-' (no path
// separator, no hidden or temporary file). Names from the network are
// checked with it before any file is written.
func ValidName(name string) bool { return nameRE.MatchString(name) }

// Publisher takes the finished batches of self-play. Publish returns once
// the batch is durably handed over (in the run directory, or acknowledged
// by the stream); an error leaves the batch to be sent again later.
type Publisher interface {
	Publish(ctx context.Context, b Batch) error
}

// Worker is what a self-play process needs from a transport: publishing
// batches, the run's config, and the run's current network.
type Worker interface {
	Publisher
	// Config returns the run's config file (config.json's bytes).
	Config(ctx context.Context) ([]byte, error)
	// Follow keeps store at the run's current network until ctx ends,
	// calling changed (if not nil) after each new checkpoint lands in it.
	// Self-play keeps reading its networks from store.
	Follow(ctx context.Context, store *checkpoints.Store, changed func(checkpoints.Entry)) error
}

// Trainer is what the training process needs from a transport: the
// batches put into its run directory, and its checkpoints and config made
// known to the workers.
type Trainer interface {
	// Receive puts the batches that arrive into the run directory, each
	// sample file and record file atomically, and acknowledges a batch
	// only once both files are durably there; it returns when ctx ends.
	Receive(ctx context.Context) error
	// PublishConfig makes the run's config file known to the workers.
	PublishConfig(ctx context.Context, config []byte) error
	// PublishCheckpoint makes checkpoint e the run's current network.
	PublishCheckpoint(ctx context.Context, e checkpoints.Entry) error
}
