//go:build !unix

package main

import "time"

// cpuTime is not known on this system: 0.
func cpuTime() time.Duration { return 0 }
