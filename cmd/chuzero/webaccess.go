package main

import (
	"flag"
	"fmt"
	"net/http"
	"strings"

	"chuzero/selfplay/transport/natsjs"
	"chuzero/selfplay/web"
)

// webAccess are the flags that guard a web listener (the UI, /metrics):
// the host names it answers to, and the basic-auth file it requires off
// loopback.
type webAccess struct {
	hosts, authFile string
}

// register adds -allow-host and -auth-file (prefixed: "metrics-" on the
// jobs, whose listener serves the metrics).
func (a *webAccess) register(fs *flag.FlagSet, prefix string) {
	fs.StringVar(&a.hosts, prefix+"allow-host", "", "host names (comma-separated) the web listener answers to beyond IP addresses and localhost (DNS rebinding guard)")
	fs.StringVar(&a.authFile, prefix+"auth-file", "", "file of one line user:password: HTTP basic authentication for every request; required when the address is off loopback")
}

// wrap returns h guarded for a listener on addr: the Host check always,
// basic authentication when an auth file is given, which an address off
// loopback must have.
func (a *webAccess) wrap(addr string, h http.Handler) (http.Handler, error) {
	g := web.Guard{}
	for _, n := range strings.Split(a.hosts, ",") {
		if n = strings.TrimSpace(n); n != "" {
			g.Hosts = append(g.Hosts, n)
		}
	}
	switch {
	case a.authFile != "":
		var err error
		if g.User, g.Password, err = web.ReadAuthFile(a.authFile); err != nil {
			return nil, err
		}
	case !natsjs.IsLoopback(addr):
		return nil, fmt.Errorf("%s is off loopback: give an auth file of user:password (-auth-file, -metrics-auth-file) so that it demands credentials", addr)
	}
	return g.Wrap(h), nil
}
