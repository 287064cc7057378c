package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"chuzero/checkpoints"
	"chuzero/selfplay/web"
)

func init() {
	register(command{name: "serve", summary: "the web UI of a run directory: status, plots, games in a board viewer, a position's policy", run: runServe})
}

// serveOptions are the flags of "chuzero serve".
type serveOptions struct {
	runDir, addr string
	access       webAccess
}

// runServe implements
//
//	chuzero serve -run DIR [-addr 127.0.0.1:8080]
//
// It serves the web UI of the run (selfplay/web) until SIGINT or SIGTERM.
// The run may be finished, or running in another process.
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", "serve -run DIR [-addr 127.0.0.1:8080]", stderr)
	var o serveOptions
	fs.StringVar(&o.runDir, "run", "", "run directory; required")
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to serve on (loopback by default; :8080 serves every interface, with -auth-file)")
	o.access.register(fs, "")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if o.runDir == "" {
		fmt.Fprintln(stderr, "chuzero serve: -run DIR is required")
		fs.Usage()
		return 2
	}
	if !exists(o.runDir) {
		fmt.Fprintf(stderr, "chuzero serve: run directory %s does not exist\n", o.runDir)
		return 1
	}
	ctx, stop := signalContext(0)
	defer stop()
	err := serveWeb(ctx, o, func(addr string) { fmt.Fprintf(stdout, "serving %s on http://%s/\n", o.runDir, addr) })
	if err != nil {
		fmt.Fprintf(stderr, "chuzero serve: %v\n", err)
		return 1
	}
	return 0
}

// serveWeb serves the web UI of o.runDir on o.addr until ctx ends, then
// shuts the server down and waits for it; ready gets the address once
// the server listens.
func serveWeb(ctx context.Context, o serveOptions, ready func(addr string)) error {
	ui, err := newWebUI(checkpoints.RunAt(o.runDir, ""), nil) // -run is required: never the default
	if err != nil {
		return err
	}
	if _, err := o.access.wrap(o.addr, ui); err != nil { // before listening
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	h, err := o.access.wrap(ln.Addr().String(), ui)
	if err != nil {
		ln.Close()
		return err
	}
	srv := web.HTTPServer(h)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	ready(ln.Addr().String())
	select {
	case err = <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if srv.Shutdown(sctx) != nil {
		srv.Close() // a request still running after two seconds
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
