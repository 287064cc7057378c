package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"chuzero/checkpoints"
)

func init() {
	register(command{name: "verify", summary: "check a run directory: checkpoints, sample files, game records", run: runVerify})
}

// verifyReport is what "chuzero verify" finds in a run directory.
type verifyReport struct {
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
	// Best is the best checkpoint's name (best.json), "" when none.
	Best     string   `json:"best"`
	Problems []string `json:"problems"` // damaged or unloadable files, duplicates

	prunedThrough string // the newest pruned sample file's base name
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
		best := r.Best
		if best == "" {
			best = "none"
		}
		fmt.Fprintf(stdout, "%d invalid samples, %d sample files pruned, %d anchors, best checkpoint %s\n", r.InvalidSamples, r.PrunedFiles, r.Anchors, best)
		for _, p := range r.Problems {
			fmt.Fprintln(stdout, "problem:", p)
		}
	}
	if len(r.Problems) > 0 {
		return 1
	}
	return 0
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
