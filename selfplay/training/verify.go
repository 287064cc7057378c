package training

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

// VerifyReport is what Verify finds in a run directory ("chuzero verify").
type VerifyReport struct {
	Checkpoints  int   `json:"checkpoints"`
	FirstStep    int64 `json:"first_step"`
	LastStep     int64 `json:"last_step"`
	SampleFiles  int   `json:"sample_files"`
	Samples      int   `json:"samples"`
	RecordFiles  int   `json:"record_files"`
	Games        int   `json:"games"`
	DuplicateIDs int   `json:"duplicate_ids"` // game ids recorded more than once
	Unpaired     int   `json:"unpaired"`      // a sample file without its record file, or the reverse
	// InvalidSamples failed validation (training skips them); PrunedFiles
	// are the sample files the replay window deleted (samples/pruned.json).
	InvalidSamples int   `json:"invalid_samples"`
	PrunedFiles    int64 `json:"pruned_sample_files"`
	Anchors        int   `json:"anchors"` // anchors/*.ckpt that read
	// DuplicateSampleFiles have the bytes of another sample file (a
	// copy); QuarantinedSampleFiles are the files the trainer moved to
	// samples/quarantine, unreadable (each with NAME.reason).
	DuplicateSampleFiles   int `json:"duplicate_sample_files"`
	QuarantinedSampleFiles int `json:"quarantined_sample_files"`
	// Best is the best checkpoint's name (best.json), "" when none.
	Best     string   `json:"best"`
	Problems []string `json:"problems"` // damaged or unloadable files, duplicates

	prunedThrough string // the newest pruned sample file's base name
}

// Verify reads every checkpoint, pin, sample and record file of run, and
// changes nothing in it.
func Verify(run checkpoints.Run) VerifyReport {
	r := VerifyReport{FirstStep: -1, LastStep: -1}
	r.verifyCheckpoints(run)
	r.verifyPins(run)
	r.verifySamples(run)
	records := visibleFiles(run.Games(), checkpoints.RecordExt)
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
	r.verifyCopies(samples)
	quarantined := quarantinedSamples(run)
	r.QuarantinedSampleFiles = len(quarantined)
	samples = append(samples, quarantined...)
	r.Unpaired = unpaired(samples, encode.SampleFileExt, prunedAway(records, samples, r.prunedThrough), checkpoints.RecordExt)
	return r
}

func (r *VerifyReport) problem(format string, args ...any) {
	r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
}

// verifyCheckpoints reads every checkpoint of the store (without opening
// it as a writer would: no directory made, no temporary file removed).
func (r *VerifyReport) verifyCheckpoints(run checkpoints.Run) {
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
func (r *VerifyReport) verifyPins(run checkpoints.Run) {
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
func (r *VerifyReport) verifySamples(run checkpoints.Run) {
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
		name := strings.TrimSuffix(filepath.Base(f), checkpoints.RecordExt)
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

// visibleFiles lists dir's files ending in ext, leaving out the hidden
// temporary files of writes in progress.
func visibleFiles(dir, ext string) []string {
	names, _ := filepath.Glob(filepath.Join(dir, "*"+ext))
	return names
}

// unpaired counts the files of one list whose base name has no file in the
// other (self-play writes a sample file and a record file of each batch).
func unpaired(a []string, extA string, b []string, extB string) int {
	base := func(p, ext string) string { return strings.TrimSuffix(filepath.Base(p), ext) }
	in := map[string]int{}
	for _, p := range a {
		in[base(p, extA)]++
	}
	for _, p := range b {
		in[base(p, extB)]--
	}
	n := 0
	for _, v := range in {
		if v != 0 {
			n++
		}
	}
	return n
}
