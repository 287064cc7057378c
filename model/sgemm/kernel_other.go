//go:build !amd64 || purego

package sgemm

// available lists the implementations this machine can run: without amd64
// assembly, only the pure-Go one.
func available() []*impl { return []*impl{implGeneric} }

// l2Size returns the assumed size in bytes of the L2 cache of one core.
func l2Size() int { return 1 << 20 }
