package model

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"chuzero/encode"
)

// fileStat is what the window knows of a loaded sample file: its training
// and held-out samples and games, and where they end in the sequence of
// every sample ever loaded (for pruning).
type fileStat struct {
	Train, Held, Games int64
	TrainEnd, HeldEnd  int64
}

// InvalidSamplesError reports the samples of a file that failed
// validation (a position that does not parse, a value out of range, a
// policy index off the policy); they were skipped, the rest loaded.
type InvalidSamplesError struct {
	File  string
	Count int
	First error // the first sample's problem
}

func (e *InvalidSamplesError) Error() string {
	return fmt.Sprintf("model: %s: %d invalid samples skipped (first: %v)", e.File, e.Count, e.First)
}

// fileLoad is one file read by Refresh: its counts, and the newest of its
// samples that the window can still use.
type fileLoad struct {
	stat          fileStat
	samples, held []encode.Sample
	invalid       int
	firstBad      error
}

// Refresh loads the sample files that appeared since the last call, newest
// first: once the newest files fill the window, older ones are only
// counted (the window's schedule depends on every sample), never held, so
// memory is the window's whatever the run's age. A damaged file is
// reported (in the returned error and Corrupt) and skipped; an invalid
// sample is reported, counted (Invalid) and skipped; the rest still load.
// A file that cannot be read is moved to QuarantineDir with its reason
// (unless KeepFiles), so no restart parses it again.
// Then, unless KeepFiles, the files older than the window and its margin
// are deleted (Prune).
func (r *Replay) Refresh() (added int, err error) {
	var errs []error
	if r.ledger == nil {
		l, err := readLedger(r.dir)
		errs = append(errs, err)
		r.ledger = &l
		r.total, r.games, r.heldN = l.Samples, l.Games, l.Held
	}
	names, err := filepath.Glob(filepath.Join(r.dir, "*"+encode.SampleFileExt))
	if err != nil {
		return 0, err
	}
	sort.Strings(names)
	var fresh []string
	var bound int64 // records in the fresh files: a bound of the window they can fill
	for _, name := range names {
		if _, ok := r.files[name]; ok || r.corrupt[name] != nil {
			continue
		}
		n, err := encode.SampleFileRecords(name)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) { // removed meanwhile: nothing to load
				r.corrupt[name] = err
				errs = append(errs, err, r.quarantine(name, err))
			}
			continue
		}
		fresh = append(fresh, name)
		bound += int64(n)
	}
	loads := make([]*fileLoad, len(fresh))
	wantTrain, wantHeld := int(r.cfg.windowAt(r.total+bound)), r.cfg.HoldOutMax
	for i := len(fresh) - 1; i >= 0; i-- {
		fl, err := r.readFile(fresh[i], wantTrain, wantHeld)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				r.corrupt[fresh[i]] = err
				errs = append(errs, err, r.quarantine(fresh[i], err))
			}
			continue
		}
		if fl.invalid > 0 {
			r.invalid += int64(fl.invalid)
			errs = append(errs, &InvalidSamplesError{File: fresh[i], Count: fl.invalid, First: fl.firstBad})
		}
		loads[i] = fl
		wantTrain, wantHeld = max(0, wantTrain-len(fl.samples)), max(0, wantHeld-len(fl.held))
	}
	for i, fl := range loads { // in name order: the window is a function of the files present
		if fl == nil {
			continue
		}
		r.total += fl.stat.Train
		r.games += fl.stat.Games
		r.heldN += fl.stat.Held
		fl.stat.TrainEnd, fl.stat.HeldEnd = r.total, r.heldN
		r.files[fresh[i]] = fl.stat
		r.samples = append(r.samples, fl.samples...)
		r.held = append(r.held, fl.held...)
		added += int(fl.stat.Train)
	}
	r.samples = keepNewest(r.samples, int(r.cfg.windowAt(r.total)))
	r.held = keepNewest(r.held, r.cfg.HoldOutMax)
	errs = append(errs, r.Prune())
	return added, errors.Join(errs...)
}

// readFile reads one sample file, validating each sample and keeping the
// newest wantTrain training and wantHeld held-out ones; samples beyond
// those are counted, not validated.
func (r *Replay) readFile(name string, wantTrain, wantHeld int) (*fileLoad, error) {
	sr, c, err := encode.OpenSampleFile(name)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if sr.Variant != r.spec.Variant {
		return nil, fmt.Errorf("model: %s holds %s samples, this run trains %s", name, sr.Variant, r.spec.Variant)
	}
	fl := &fileLoad{}
	var prev uint64
	for first := true; ; {
		var s encode.Sample
		if err := sr.Next(&s); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		held := r.cfg.HeldOut(s.GameID)
		if (held && wantHeld > 0) || (!held && wantTrain > 0) {
			if err := s.Validate(r.spec); err != nil {
				if fl.invalid++; fl.firstBad == nil {
					fl.firstBad = fmt.Errorf("game %x ply %d: %w", s.GameID, s.Ply, err)
				}
				continue
			}
		}
		if held {
			fl.stat.Held++
			fl.held = appendBounded(fl.held, s, wantHeld)
			continue
		}
		if first || s.GameID != prev {
			fl.stat.Games++
		}
		first, prev = false, s.GameID
		fl.stat.Train++
		fl.samples = appendBounded(fl.samples, s, wantTrain)
	}
	fl.samples, fl.held = keepNewest(fl.samples, wantTrain), keepNewest(fl.held, wantHeld)
	return fl, nil
}

// appendBounded appends s to a list that needs only its newest n: past 2n
// (and a chunk's worth) it drops the older half, so a list never holds
// much more than n.
func appendBounded(list []encode.Sample, s encode.Sample, n int) []encode.Sample {
	if n <= 0 {
		return list
	}
	if len(list) >= 2*n+1024 {
		list = keepNewest(list, n)
	}
	return append(list, s)
}

// keepNewest trims list to its last n elements in place, clearing the
// tail it frees so the garbage collector can take the samples.
func keepNewest(list []encode.Sample, n int) []encode.Sample {
	over := len(list) - max(n, 0)
	if over <= 0 {
		return list
	}
	m := copy(list, list[over:])
	clear(list[m:])
	return list[:m]
}
