package transport

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"regexp"
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
