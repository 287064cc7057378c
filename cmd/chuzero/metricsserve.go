package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"chuzero/checkpoints"
	"chuzero/selfplay/training"
	"chuzero/selfplay/transport/natsjs"
	"chuzero/selfplay/web"
)

// serveMetrics serves /metrics and /healthz on addr, and the web UI ui (if not nil) at / beside them, until the
// returned stop is called (it shuts the server down and waits for it).
// When the default address is taken, it falls back to any free loopback
// port (several processes on one machine); an address given explicitly
// must be free. It returns the address it listens on ("" when disabled).
func serveMetrics(addr string, explicit bool, access *webAccess, reg *prometheus.Registry, health func() error, ui http.Handler, log *slog.Logger) (string, func(), error) {
	if addr == "" || addr == "off" {
		return "", func() {}, nil
	}
	if _, err := access.wrap(addr, http.NotFoundHandler()); err != nil { // before listening
		return "", nil, fmt.Errorf("metrics: %w", err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil && !explicit {
		log.Warn("metrics address busy, using a free port instead", "addr", addr, "err", err)
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		return "", nil, fmt.Errorf("metrics: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		if err := health(); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	if ui != nil {
		mux.Handle("/", ui)
	}
	h, err := access.wrap(ln.Addr().String(), mux)
	if err != nil {
		ln.Close()
		return "", nil, fmt.Errorf("metrics: %w", err)
	}
	return ln.Addr().String(), serveHTTP(ln, web.HTTPServer(h), "metrics", log), nil
}

// servePprof serves Go's profiles (/debug/pprof/) on addr, which must be
// loopback: the profiles show the command line (and any secret in it) and
// let a client take CPU time. It returns the address ("" when off) and a
// stop.
func servePprof(addr string, log *slog.Logger) (string, func(), error) {
	if addr == "" || addr == "off" {
		return "", func() {}, nil
	}
	if !natsjs.IsLoopback(addr) {
		return "", nil, fmt.Errorf("-pprof-addr %s: the profiles are served on loopback only", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("pprof: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := web.HTTPServer(mux)
	srv.WriteTimeout = 0 // a CPU profile or trace takes as long as asked
	return ln.Addr().String(), serveHTTP(ln, srv, "pprof", log), nil
}

// serveHTTP serves srv on ln until the returned stop is called (it shuts
// the server down, waiting up to two seconds for requests in flight).
func serveHTTP(ln net.Listener, srv *http.Server, what string, log *slog.Logger) func() {
	served := make(chan struct{})
	go func() {
		defer close(served)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error(what+" server stopped", "err", err)
		}
	}()
	return func() {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close() // a request still running after two seconds
		}
		<-served
	}
}

// newWebUI returns the web UI of run directory run (selfplay/web) with the
// position page's networks and, when reg is not nil, the process's own
// metrics on the run page.
func newWebUI(run checkpoints.Run, reg *prometheus.Registry) (http.Handler, error) {
	cfg := web.DefaultConfig(run)
	cfg.Networks = &training.PositionNetworks{}
	if reg != nil {
		cfg.Metrics = reg
	}
	return web.New(cfg)
}
