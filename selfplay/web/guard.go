package web

import (
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// Guard protects a handler served on a network address: requests whose
// Host header names neither an IP address, "localhost" nor one of Hosts
// are refused (a page of another site whose name resolves to this machine,
// DNS rebinding, cannot read the UI), and with User set, every request
// needs HTTP basic authentication as User and Password.
type Guard struct {
	Hosts          []string // host names the server is reached by, beyond IP addresses and localhost
	User, Password string
}

// Wrap returns h behind the guard.
func (g Guard) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.hostAllowed(r.Host) {
			http.Error(w, fmt.Sprintf("host %q is not one this server answers to (chuzero -allow-host)", r.Host), http.StatusMisdirectedRequest)
			return
		}
		if g.User != "" {
			u, p, ok := r.BasicAuth()
			if !ok || subtle.ConstantTimeCompare([]byte(u), []byte(g.User))&subtle.ConstantTimeCompare([]byte(p), []byte(g.Password)) != 1 {
				w.Header().Set("WWW-Authenticate", `Basic realm="chuzero", charset="UTF-8"`)
				http.Error(w, "authentication required", http.StatusUnauthorized)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

func (g Guard) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if host == "" || strings.EqualFold(host, "localhost") || net.ParseIP(host) != nil {
		return host != ""
	}
	for _, a := range g.Hosts {
		if strings.EqualFold(host, a) {
			return true
		}
	}
	return false
}

// ReadAuthFile reads "user:password" from a file (its first line), for
// Guard.
func ReadAuthFile(path string) (user, password string, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", "", fmt.Errorf("web: %w", err)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	user, password, ok := strings.Cut(strings.TrimSpace(line), ":")
	if !ok || user == "" || password == "" {
		return "", "", fmt.Errorf("web: %s: want one line user:password", path)
	}
	return user, password, nil
}

// HTTPServer returns the server every chuzero web listener uses: header,
// read, write and idle timeouts and a header size limit, so that slow or
// idle clients cannot hold connections open.
func HTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 2 * time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
}
