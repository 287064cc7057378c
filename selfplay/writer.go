package selfplay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/rules"
	"chuzero/selfplay/transport"
)

// ErrWrite marks the error of a run stopped because its files could not be
// written (a full disk, a directory gone read-only): games already written
// stay; the rest are named by count in the error.
var ErrWrite = errors.New("selfplay: games not written")

// writer groups finished games into batches and hands them to a
// publisher (the run directory by default).
type writer struct {
	pub      transport.Publisher
	variant  rules.VariantID
	perFile  int
	interval time.Duration
	pending  []finished
}

// Batch names are unique within the process (one prefix, one sequence for
// every writer: two runners in a process, or a runner replaced within a
// second, never reuse a name) and across processes (host, pid, start).
var (
	namePrefix = sync.OnceValue(func() string {
		host, _ := os.Hostname()
		return fmt.Sprintf("%s-%s-%d", time.Now().UTC().Format("20060102T150405Z"), sanitize(host), os.Getpid())
	})
	nameSeq atomic.Int64
)

func newWriter(pub transport.Publisher, v rules.VariantID, perFile int, interval time.Duration) *writer {
	if interval <= 0 {
		interval = time.Hour
	}
	return &writer{pub: pub, variant: v, perFile: perFile, interval: interval}
}

func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "host"
	}
	return string(b)
}

// run writes games arriving on in until it is closed, then flushes the
// rest; done is called for every game after its files are in place. On a
// write error it returns at once, leaving in to the caller (which must
// stop the games and drain it).
func (w *writer) run(in <-chan finished, done func(finished), files *int64, mu *sync.Mutex) error {
	t := time.NewTicker(w.interval)
	defer t.Stop()
	flush := func() error {
		if len(w.pending) == 0 {
			return nil
		}
		if err := w.flush(); err != nil {
			return err
		}
		mu.Lock()
		*files++
		mu.Unlock()
		for _, f := range w.pending {
			done(f)
		}
		w.pending = w.pending[:0]
		return nil
	}
	for {
		select {
		case f, ok := <-in:
			if !ok {
				return flush()
			}
			w.pending = append(w.pending, f)
			if len(w.pending) >= w.perFile {
				if err := flush(); err != nil {
					return err
				}
			}
		case <-t.C:
			if err := flush(); err != nil {
				return err
			}
		}
	}
}

func drain(in <-chan finished) {
	for range in {
	}
}

// flush publishes the pending games as one batch: a sample file with a
// chunk per game and a record file with a line per game.
func (w *writer) flush() error {
	var last uint64
	chunks := make([][]encode.Sample, len(w.pending))
	for i, f := range w.pending {
		last = max(last, f.rec.Index)
		chunks[i] = f.samples
	}
	// the name ends in the highest game index it holds: a restarted run
	// continues after it (NextGameIndex)
	// file names sort by time and stay unique across processes sharing dir
	name := fmt.Sprintf("%s-%05d-g%d", namePrefix(), nameSeq.Add(1), last)
	samples, err := encode.EncodeSampleFile(w.variant, chunks)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, f := range w.pending {
		if err := enc.Encode(f.rec); err != nil {
			return err
		}
	}
	// the publisher bounds its own waits; the games' context may be over
	// already (the last batch of a run is flushed after it ends)
	return w.pub.Publish(context.Background(), transport.Batch{Name: name, Samples: samples, Records: buf.Bytes(), Games: len(w.pending)})
}

// NextGameIndex returns one past the highest game index recorded in the
// games directory dir (batch names end in -g<last index>, as flush names
// them), so that a resumed run does not replay seeds.
func NextGameIndex(dir string) uint64 {
	names, _ := filepath.Glob(filepath.Join(dir, "*"+checkpoints.RecordExt))
	var next uint64
	for _, n := range names {
		base := strings.TrimSuffix(filepath.Base(n), checkpoints.RecordExt)
		i := strings.LastIndex(base, "-g")
		if i < 0 {
			continue
		}
		var last uint64
		if _, err := fmt.Sscanf(base[i+2:], "%d", &last); err == nil && last+1 > next {
			next = last + 1
		}
	}
	return next
}
