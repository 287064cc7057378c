package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/selfplay"
)

func init() {
	register(command{name: "verify", summary: "check a run directory: checkpoints, sample files, game records", run: runVerify})
}

// verifyReport is what "chuzero verify" finds in a run directory.
type verifyReport struct {
	Checkpoints  int      `json:"checkpoints"`
	FirstStep    int64    `json:"first_step"`
	LastStep     int64    `json:"last_step"`
	SampleFiles  int      `json:"sample_files"`
	Samples      int      `json:"samples"`
	RecordFiles  int      `json:"record_files"`
	Games        int      `json:"games"`
	DuplicateIDs int      `json:"duplicate_ids"` // game ids recorded more than once
	Unpaired     int      `json:"unpaired"`      // a sample file without its record file, or the reverse
	Problems     []string `json:"problems"`      // damaged or unloadable files, duplicates
}

// runVerify implements "chuzero verify -run DIR".
func runVerify(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("verify", "verify -run DIR [-json]", stderr)
	dir := fs.String("run", "", "run directory (required)")
	asJSON := fs.Bool("json", false, "print the findings as JSON")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if *dir == "" {
		fmt.Fprintln(stderr, "chuzero verify: -run DIR is required")
		return 2
	}
	if _, err := os.Stat(*dir); err != nil {
		fmt.Fprintf(stderr, "chuzero verify: %v\n", err)
		return 1
	}
	r := verifyRun(checkpoints.Run{Dir: *dir})
	if *asJSON {
		b, _ := json.MarshalIndent(r, "", "  ")
		fmt.Fprintln(stdout, string(b))
	} else {
		fmt.Fprintf(stdout, "%d checkpoints (steps %d..%d), %d sample files with %d samples, %d games in %d record files, %d duplicate game ids, %d unpaired files\n",
			r.Checkpoints, r.FirstStep, r.LastStep, r.SampleFiles, r.Samples, r.Games, r.RecordFiles, r.DuplicateIDs, r.Unpaired)
		for _, p := range r.Problems {
			fmt.Fprintln(stdout, "problem:", p)
		}
	}
	if len(r.Problems) > 0 {
		return 1
	}
	return 0
}

// verifyRun reads every checkpoint, sample file and record file of run.
func verifyRun(run checkpoints.Run) verifyReport {
	r := verifyReport{FirstStep: -1, LastStep: -1}
	if store, err := checkpoints.Open(run.Checkpoints()); err == nil {
		list, _ := store.List()
		for _, e := range list {
			if _, err := checkpoints.ReadFile(e.Path); err != nil {
				r.Problems = append(r.Problems, err.Error())
				continue
			}
			if r.Checkpoints == 0 {
				r.FirstStep = e.Step
			}
			r.Checkpoints++
			r.LastStep = e.Step
		}
	}
	samples := visibleFiles(run.Samples(), encode.SampleFileExt)
	for _, f := range samples {
		s, err := encode.ReadSampleFile(f)
		if err != nil {
			r.Problems = append(r.Problems, err.Error())
		}
		r.SampleFiles++
		r.Samples += len(s)
	}
	records := visibleFiles(run.Games(), ".jsonl")
	seen := map[string]bool{}
	for _, f := range records {
		recs, err := selfplay.ReadRecords(f)
		if err != nil {
			r.Problems = append(r.Problems, fmt.Sprintf("%s: %v", f, err))
		}
		r.RecordFiles++
		for _, rec := range recs {
			if seen[rec.ID] {
				r.DuplicateIDs++
				r.Problems = append(r.Problems, fmt.Sprintf("%s: game %s recorded twice", f, rec.ID))
			}
			seen[rec.ID] = true
			r.Games++
		}
	}
	r.Unpaired = unpaired(samples, encode.SampleFileExt, records, ".jsonl")
	return r
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
