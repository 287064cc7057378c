//go:build !unix

package main

import "time"

// cpuTime is not known on this system.
func cpuTime() (time.Duration, bool) { return 0, false }
