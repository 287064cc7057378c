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

// StartServer starts a server listening on addr (host:port; port 0 picks
// one) with JetStream file storage under storeDir. Give addr a loopback
// host unless workers on other machines must reach it.
func StartServer(addr, storeDir string) (*Server, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("natsjs: server address %q: %w", addr, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return nil, fmt.Errorf("natsjs: server address %q: bad port", addr)
	}
	if p == 0 {
		p = server.RANDOM_PORT
	}
	opts := &server.Options{Host: host, Port: p, JetStream: true, StoreDir: storeDir, NoSigs: true, NoLog: true,
		ServerName: "chuzero-embedded"}
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
