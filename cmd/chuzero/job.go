package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"chuzero/checkpoints"
	"chuzero/selfplay/training"
)

// job is the setup that "train", "selfplay" and "trainer" share: the flag
// set with the run flags, the logger, the effective config and run
// directory, the context that SIGINT, SIGTERM or -duration cancel, the
// metrics registry and its server, and the progress line. Use it as
//
//	j := newJob("train", synopsis, true, true, stdout, stderr)
//	maxSteps := j.fs.Int64("max-steps", ...) // the command's own flags
//	if code, done := j.open(args, maxSteps); done {
//		return code
//	}
//	defer j.close()
//
// then build the command's parts, j.serve, and run on j.ctx.
type job struct {
	name   string
	stdout io.Writer
	stderr io.Writer
	fs     *flag.FlagSet
	rf     runFlags

	// beforeSetup, if set, runs after the flags are parsed and before the
	// config is loaded (selfplay -nats: fetch the run's config).
	beforeSetup func() error

	log  *slog.Logger
	cfg  training.Config
	run  checkpoints.Run
	ctx  context.Context // cancelled by a signal or after -duration
	reg  *prometheus.Registry
	prog *progress // nil with -quiet

	stopSignals  context.CancelFunc
	stopMetrics  func()
	stopProg     context.CancelFunc
	progFinished chan struct{}
}

// newJob returns the job of command name with its flag set; withTrain and
// withSelf choose the run flags it registers (see runFlags.register).
func newJob(name, synopsis string, withTrain, withSelf bool, stdout, stderr io.Writer) *job {
	j := &job{name: name, stdout: stdout, stderr: stderr, fs: newFlagSet(name, synopsis, stderr)}
	j.rf.register(j.fs, withTrain, withSelf)
	return j
}

// open parses args and sets the job up: logger, config and run directory
// (written), signal context, registry and, without -quiet, the progress
// line, which counts towards *maxSteps when maxSteps is not nil. It
// returns done with the exit status when the command should stop: help,
// a flag error (2) or a failed setup (1, reported on stderr); close need
// not be called then.
func (j *job) open(args []string, maxSteps *int64) (code int, done bool) {
	if code, done := parseFlags(j.fs, args); done {
		return code, true
	}
	var err error
	if j.log, err = newLogger(j.stderr, j.rf.logFormat); err != nil {
		return j.fail(err), true
	}
	if j.beforeSetup != nil {
		if err := j.beforeSetup(); err != nil {
			return j.fail(err), true
		}
	}
	if j.cfg, j.run, err = j.rf.setup(j.fs); err != nil {
		return j.fail(err), true
	}
	j.ctx, j.stopSignals = signalContext(j.rf.duration)
	j.reg = prometheus.NewRegistry()
	if !j.rf.quiet {
		var steps int64
		if maxSteps != nil {
			steps = *maxSteps
		}
		j.prog = newProgress(os.Stderr, j.log, j.rf.duration, steps)
	}
	return 0, false
}

// fail reports err as the command's error and returns exit status 1.
func (j *job) fail(err error) int {
	fmt.Fprintf(j.stderr, "chuzero %s: %v\n", j.name, err)
	return 1
}

// serve serves /metrics and /healthz (healthy until j.ctx ends) and the
// run's web UI at / as the config and -metrics-addr say, and prints the
// addresses; close stops the server.
func (j *job) serve() error {
	ui, err := newWebUI(j.run, j.reg)
	if err != nil {
		return err
	}
	addr, stop, err := serveMetrics(j.cfg.Metrics, j.rf.set["metrics-addr"], &j.rf.access, j.reg, func() error { return j.ctx.Err() }, ui, j.log)
	if err != nil {
		return err
	}
	paddr, pstop, err := servePprof(j.rf.pprofAddr, j.log)
	if err != nil {
		stop()
		return err
	}
	j.stopMetrics = func() { stop(); pstop() }
	if addr != "" {
		j.log.Info("metrics", "url", "http://"+addr+"/metrics", "web", "http://"+addr+"/")
		fmt.Fprintf(j.stdout, "metrics: http://%s/metrics\nweb: http://%s/\n", addr, addr)
	}
	if paddr != "" {
		j.log.Info("profiles", "url", "http://"+paddr+"/debug/pprof/")
		fmt.Fprintf(j.stdout, "pprof: http://%s/debug/pprof/\n", paddr)
	}
	return nil
}

// startProgress runs the progress line, if there is one, until ctx ends
// or stopProgress is called.
func (j *job) startProgress(ctx context.Context) {
	if j.prog == nil {
		return
	}
	ctx, j.stopProg = context.WithCancel(ctx)
	j.progFinished = make(chan struct{})
	go func() { j.prog.run(ctx); close(j.progFinished) }()
}

// stopProgress stops the progress line and waits for its last print; it
// does nothing when none runs.
func (j *job) stopProgress() {
	if j.progFinished == nil {
		return
	}
	j.stopProg()
	<-j.progFinished
	j.progFinished = nil
}

// close stops the progress line and the metrics server, waiting for
// both, and releases the signal context.
func (j *job) close() {
	j.stopProgress()
	if j.stopMetrics != nil {
		j.stopMetrics()
	}
	j.stopSignals()
}

// options are the run's options for the library (training.Options): the run
// directory and config, the logger, the registry and the progress line.
func (j *job) options() training.Options {
	o := training.Options{Run: j.run, Config: j.cfg, Log: j.log, Registry: j.reg}
	if j.prog != nil { // a nil *progress is not a nil Observer
		o.Observer = j.prog
	}
	return o
}

// newLogger writes to w as text or JSON.
func newLogger(w io.Writer, format string) (*slog.Logger, error) {
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, fmt.Errorf("-log %q: want text or json", format)
}

// signalContext is cancelled by SIGINT or SIGTERM, or after d (if > 0).
func signalContext(d time.Duration) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	if d <= 0 {
		return ctx, stop
	}
	tctx, cancel := context.WithTimeout(ctx, d)
	return tctx, func() { cancel(); stop() }
}
