package natsjs

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server is an in-process NATS server with JetStream ("chuzero trainer
// -embedded-nats"): for a small setup with no server to install.
type Server struct {
	s *server.Server
}

// ServerOptions configure the embedded server.
type ServerOptions struct {
	Addr     string // host:port; port 0 picks one
	StoreDir string // JetStream file storage
	// Keys, when set, admit only the run's two roles (the trainer, and
	// workers under WorkerPermissions of Run); required off loopback.
	Keys *Keys
	Run  string
	// JetStream limits: memory (default 256 MiB) and file storage
	// (default 16 GiB), so that no client can fill the machine.
	MaxMemory, MaxStore int64
}

// Default JetStream limits of the embedded server.
const (
	DefaultServerMaxMemory = 256 << 20
	DefaultServerMaxStore  = 16 << 30
)

// StartServer starts a server listening on o.Addr with JetStream file
// storage under o.StoreDir. Off loopback it refuses to start without
// o.Keys.
func StartServer(o ServerOptions) (*Server, error) {
	host, port, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return nil, fmt.Errorf("natsjs: server address %q: %w", o.Addr, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return nil, fmt.Errorf("natsjs: server address %q: bad port", o.Addr)
	}
	if p == 0 {
		p = server.RANDOM_PORT
	}
	if o.Keys == nil && !IsLoopback(o.Addr) {
		return nil, errNoAuth
	}
	if o.MaxMemory <= 0 {
		o.MaxMemory = DefaultServerMaxMemory
	}
	if o.MaxStore <= 0 {
		o.MaxStore = DefaultServerMaxStore
	}
	opts := &server.Options{Host: host, Port: p, JetStream: true, StoreDir: o.StoreDir, NoSigs: true, NoLog: true,
		ServerName: "chuzero-embedded", JetStreamMaxMemory: o.MaxMemory, JetStreamMaxStore: o.MaxStore}
	if o.Keys != nil {
		if opts.Nkeys, err = o.Keys.nkeyUsers(o.Run); err != nil {
			return nil, err
		}
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("natsjs: %w", err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		s.WaitForShutdown()
		return nil, errors.New("natsjs: the embedded server did not start")
	}
	return &Server{s: s}, nil
}

// URL returns the address clients connect to.
func (s *Server) URL() string { return s.s.ClientURL() }

// Close shuts the server down and waits for it.
func (s *Server) Close() {
	s.s.Shutdown()
	s.s.WaitForShutdown()
}
