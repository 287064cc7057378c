package selfplay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/rules"
)

// ErrWrite marks the error of a run stopped because its files could not be
// written (a full disk, a directory gone read-only): games already written
// stay; the rest are named by count in the error.
var ErrWrite = errors.New("selfplay: games not written")

// writer groups finished games into files.
type writer struct {
	dir      string
	variant  rules.VariantID
	perFile  int
	interval time.Duration
	prefix   string
	seq      int
	pending  []finished
}

func newWriter(dir string, v rules.VariantID, perFile int, interval time.Duration) (*writer, error) {
	run := checkpoints.Run{Dir: dir}
	for _, d := range []string{run.Samples(), run.Games()} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("selfplay: %w", err)
		}
	}
	if interval <= 0 {
		interval = time.Hour
	}
	// file names sort by time and stay unique across processes sharing dir
	host, _ := os.Hostname()
	prefix := fmt.Sprintf("%s-%s-%d", time.Now().UTC().Format("20060102T150405Z"), sanitize(host), os.Getpid())
	return &writer{dir: dir, variant: v, perFile: perFile, interval: interval, prefix: prefix}, nil
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

// flush writes the pending games: samples first, then records.
func (w *writer) flush() error {
	w.seq++
	var last uint64
	for _, f := range w.pending {
		last = max(last, f.rec.Index)
	}
	// the name ends in the highest game index it holds: a restarted run
	// continues after it (see the commands' nextGameIndex)
	name := fmt.Sprintf("%s-%05d-g%d", w.prefix, w.seq, last)
	sw, err := encode.CreateSampleFile(filepath.Join(checkpoints.Run{Dir: w.dir}.Samples(), name+encode.SampleFileExt), w.variant)
	if err != nil {
		return err
	}
	for _, f := range w.pending {
		if err := sw.WriteChunk(f.samples); err != nil {
			sw.Abort()
			return err
		}
	}
	if err := sw.Close(); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, f := range w.pending {
		if err := enc.Encode(f.rec); err != nil {
			return err
		}
	}
	return encode.WriteAtomic(filepath.Join(checkpoints.Run{Dir: w.dir}.Games(), name+".jsonl"), buf.Bytes())
}
