package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"chuzero/checkpoints"
	"chuzero/selfplay/training"
)

func init() {
	register(command{name: "verify", summary: "check a run directory: checkpoints, sample files, game records", run: runVerify})
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
	r := training.Verify(checkpoints.RunAt(*dir, "")) // -run is required: never the default
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
		fmt.Fprintf(stdout, "%d duplicate sample files (copies), %d sample files in quarantine (samples/quarantine, each with its .reason)\n",
			r.DuplicateSampleFiles, r.QuarantinedSampleFiles)
		for _, p := range r.Problems {
			fmt.Fprintln(stdout, "problem:", p)
		}
	}
	if len(r.Problems) > 0 {
		return 1
	}
	return 0
}
