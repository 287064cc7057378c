package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/model"
	"chuzero/rules"
	"chuzero/selfplay"
)

// verifyRun reads every checkpoint, pin, sample and record file of run,
// and changes nothing in it.
func verifyRun(run checkpoints.Run) verifyReport {
	r := verifyReport{FirstStep: -1, LastStep: -1}
	r.verifyCheckpoints(run)
	r.verifyPins(run)
	r.verifySamples(run)
	records := visibleFiles(run.Games(), ".jsonl")
	seen := map[string]bool{}
	for _, f := range records {
		recs, err := selfplay.ReadRecords(f)
		if err != nil {
			r.problem("%s: %v", f, err)
		}
		r.RecordFiles++
		for _, rec := range recs {
			if seen[rec.ID] {
				r.DuplicateIDs++
				r.problem("%s: game %s recorded twice", f, rec.ID)
			}
			seen[rec.ID] = true
			r.Games++
		}
	}
	samples := visibleFiles(run.Samples(), encode.SampleFileExt)
	r.Unpaired = unpaired(samples, encode.SampleFileExt, prunedAway(records, samples, r.prunedThrough), ".jsonl")
	return r
}

func (r *verifyReport) problem(format string, args ...any) {
	r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
}

// verifyCheckpoints reads every checkpoint of the store (without opening
// it as a writer would: no directory made, no temporary file removed).
func (r *verifyReport) verifyCheckpoints(run checkpoints.Run) {
	if _, err := os.Stat(run.Checkpoints()); errors.Is(err, os.ErrNotExist) {
		return
	}
	list, err := (&checkpoints.Store{Dir: run.Checkpoints()}).List()
	if err != nil {
		r.problem("%v", err)
	}
	for _, e := range list {
		if _, err := checkpoints.ReadFile(e.Path); err != nil {
			r.problem("%v", err)
			continue
		}
		if r.Checkpoints == 0 {
			r.FirstStep = e.Step
		}
		r.Checkpoints++
		r.LastStep = e.Step
	}
}

// verifyPins reads the anchors and the best checkpoint, and checks that
// best.ckpt holds the step best.json names.
func (r *verifyReport) verifyPins(run checkpoints.Run) {
	pins, _ := filepath.Glob(filepath.Join(run.Anchors(), "*"+checkpoints.Ext))
	for _, p := range pins {
		if _, err := checkpoints.ReadFile(p); err != nil {
			r.problem("%v", err)
			continue
		}
		r.Anchors++
	}
	e, ok, err := run.ReadBest()
	switch {
	case err != nil:
		r.problem("%v", err)
	case ok:
		c, err := checkpoints.ReadFile(e.Path)
		if err != nil {
			r.problem("%s names %s: %v", run.Best(), e.Name, err)
			return
		}
		if c.Meta.Step != e.Step {
			r.problem("%s names step %d, %s holds step %d", run.Best(), e.Step, e.Path, c.Meta.Step)
			return
		}
		r.Best = e.Name
	case fileExists(run.BestCheckpoint()):
		r.problem("%s without %s", run.BestCheckpoint(), run.Best())
	}
}

// verifySamples reads every sample file, validating each sample, and the
// prune ledger.
func (r *verifyReport) verifySamples(run checkpoints.Run) {
	specs := map[rules.VariantID]*encode.Spec{}
	for _, f := range visibleFiles(run.Samples(), encode.SampleFileExt) {
		r.SampleFiles++
		n, invalid, err := verifySampleFile(f, specs)
		r.Samples += n
		r.InvalidSamples += invalid
		if err != nil {
			r.problem("%v", err)
		}
	}
	if r.InvalidSamples > 0 {
		r.problem("%d samples fail validation (training skips them)", r.InvalidSamples)
	}
	data, err := os.ReadFile(model.LedgerPath(run.Samples()))
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	var l struct {
		Files   int64  `json:"files"`
		Through string `json:"through"`
	}
	if err == nil {
		err = json.Unmarshal(data, &l)
	}
	if err != nil {
		r.problem("%s: %v", model.LedgerPath(run.Samples()), err)
	}
	r.PrunedFiles, r.prunedThrough = l.Files, strings.TrimSuffix(l.Through, encode.SampleFileExt)
}

// verifySampleFile streams one sample file, validating every sample
// against its variant's spec; it returns the samples read and how many
// were invalid (the first one's problem in err).
func verifySampleFile(path string, specs map[rules.VariantID]*encode.Spec) (n, invalid int, err error) {
	sr, c, err := encode.OpenSampleFile(path)
	if err != nil {
		return 0, 0, err
	}
	defer c.Close()
	spec := specs[sr.Variant]
	if spec == nil {
		if spec, err = encode.NewSpec(sr.Variant, encode.Options{}); err != nil {
			return 0, 0, err
		}
		specs[sr.Variant] = spec
	}
	var first error
	for {
		var s encode.Sample
		if err := sr.Next(&s); err == io.EOF {
			break
		} else if err != nil {
			return n, invalid, err
		}
		n++
		if err := s.Validate(spec); err != nil {
			if invalid++; first == nil {
				first = fmt.Errorf("%s: game %x ply %d: %w", path, s.GameID, s.Ply, err)
			}
		}
	}
	return n, invalid, first
}

// prunedAway leaves out the record files whose sample files pruning
// deleted: those named up to the ledger's newest whose sample file is
// gone. (Pruning goes by the order files were loaded, not by name: a batch
// a worker republished late keeps its older name and outlives newer
// files.)
func prunedAway(records, samples []string, through string) []string {
	if through == "" {
		return records
	}
	present := map[string]bool{}
	for _, f := range samples {
		present[strings.TrimSuffix(filepath.Base(f), encode.SampleFileExt)] = true
	}
	var out []string
	for _, f := range records {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		if name > through || present[name] {
			out = append(out, f)
		}
	}
	return out
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
