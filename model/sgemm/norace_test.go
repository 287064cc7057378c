//go:build !race

package sgemm

// raceEnabled is true under the race detector, which slows the tests down
// and makes sync.Pool drop buffers at random.
const raceEnabled = false
