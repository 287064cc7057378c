package main

import (
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// runUntil runs chuzero with args in this process until cond holds (it is
// polled every 100 ms, at most polls times), then stops it as Ctrl-C would
// and returns its exit status and output. The bound is a count of what
// the run did (cond), with the polls as a guard against a hang only.
func runUntil(t *testing.T, args []string, polls int, cond func(stdout string) bool) (code int, stdout, stderr string) {
	t.Helper()
	// while the run is up the test process catches SIGINT too, so a
	// signal that arrives after the run stopped cannot kill the tests
	caught := make(chan os.Signal, 1)
	signal.Notify(caught, syscall.SIGINT)
	defer signal.Stop(caught)
	var out, errs syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(args, &out, &errs) }()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case code := <-done:
			t.Fatalf("chuzero %v ended by itself (exit %d) before the test's condition\n%s\n%s", args, code, out.String(), errs.String())
		case <-tick.C:
		}
		if cond(out.String()) {
			break
		}
		if i == polls {
			syscall.Kill(syscall.Getpid(), syscall.SIGINT)
			<-done
			t.Fatalf("chuzero %v: the test's condition did not hold after %d polls\n%s\n%s", args, polls, out.String(), errs.String())
		}
	}
	syscall.Kill(syscall.Getpid(), syscall.SIGINT)
	code = <-done
	return code, out.String(), errs.String()
}
