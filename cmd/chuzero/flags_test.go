package main

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"chuzero/rules"
	"chuzero/selfplay/training"
)

// TestFlagHelpMatchesDefaults: the help of the thread and games flags
// states the defaults the run config really has.
func TestFlagHelpMatchesDefaults(t *testing.T) {
	_, _, errs := runCmd("train", "-h")
	cfg := training.Default(rules.Chu)
	for _, want := range []string{
		fmt.Sprintf("half the cores, %d here", cfg.Train.Threads),
		fmt.Sprintf("every core, %d here", cfg.Self.Threads),
		fmt.Sprintf("self-play games at once (default %d)", cfg.Self.Games),
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("train -h does not say %q (GOMAXPROCS %d):\n%s", want, runtime.GOMAXPROCS(0), errs)
		}
	}
}
