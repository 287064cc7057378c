package web

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"chuzero/checkpoints"
	"chuzero/selfplay/report"
)

// Config configures the web UI of one run directory.
type Config struct {
	Run      checkpoints.Run     // the run directory (required); it may not exist yet
	Networks Networks            // evaluates positions for the position page (nil: the board alone)
	Metrics  prometheus.Gatherer // the serving process's metrics, shown on the run page (nil: none, a finished run)
	Poll     time.Duration       // how often the run page refreshes its numbers
	Rescan   time.Duration       // the games index looks for new or changed files at most this often (0: on every request)
	Redraw   time.Duration       // the plots are drawn again at most this often (0: whenever the run changed)
	Plots    report.Options      // size of the plots
	// MaxEvaluations bounds the position evaluations (network and capture
	// search) running at once; a request waits up to EvaluationWait for
	// its turn, then is answered 503.
	MaxEvaluations int
	EvaluationWait time.Duration
}

// DefaultConfig returns the config of the UI of run directory run: the
// run page refreshes every 5 s, the index rescans at most every 2 s, the
// plots (960×540 pixels) are drawn again at most once a minute, two
// position evaluations run at once (a request waits up to 10 s).
func DefaultConfig(run checkpoints.Run) Config {
	return Config{Run: run, Poll: 5 * time.Second, Rescan: 2 * time.Second, Redraw: time.Minute, Plots: report.DefaultOptions(),
		MaxEvaluations: 2, EvaluationWait: 10 * time.Second}
}

// Validate reports a problem with c.
func (c Config) Validate() error {
	switch {
	case c.Run.Dir == "":
		return errors.New("web: no run directory")
	case c.Poll < time.Second:
		return fmt.Errorf("web: poll interval %v below a second", c.Poll)
	case c.MaxEvaluations < 1 || c.EvaluationWait < 0:
		return fmt.Errorf("web: %d evaluations at once, wait %v", c.MaxEvaluations, c.EvaluationWait)
	case c.Rescan < 0 || c.Redraw < 0:
		return fmt.Errorf("web: negative rescan or redraw interval (%v, %v)", c.Rescan, c.Redraw)
	}
	return c.Plots.Validate()
}

// Server serves the pages and JSON of one run directory. It only reads
// the directory, and the run may be writing it meanwhile.
type Server struct {
	cfg   Config
	run   checkpoints.Run
	index *index
	plots *plotCache
	nets  *networkList
	mux   *http.ServeMux
	evals chan struct{} // a token per evaluation running
}

// New returns the server of cfg. It reads nothing until the first
// request and starts no goroutine.
func New(cfg Config) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	run := cfg.Run
	s := &Server{cfg: cfg, run: run, index: newIndex(run, cfg.Rescan), plots: &plotCache{run: run, opt: cfg.Plots, every: cfg.Redraw},
		nets: &networkList{run: run}, mux: http.NewServeMux(), evals: make(chan struct{}, cfg.MaxEvaluations)}
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		return nil, err
	}
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	s.handle("GET /{$}", s.pageRun)
	s.handle("GET /games", s.pageGames)
	s.handle("GET /games/{id}", s.pageGame)
	s.handle("GET /position", s.pagePosition)
	s.handle("GET /plots/{name}", s.plot)
	s.handle("GET /api/run", s.apiRun)
	s.handle("GET /api/games", s.apiGames)
	s.handle("GET /api/games/{id}", s.apiGame)
	s.handle("GET /api/position", s.apiPosition)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, http.StatusNotFound, fmt.Errorf("no page %s", r.URL.Path))
	})
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// handle registers h, which is answered 404 while the run directory does
// not exist.
func (s *Server) handle(pattern string, h http.HandlerFunc) {
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		if !isDir(s.run.Dir) {
			s.fail(w, r, http.StatusNotFound, fmt.Errorf("run directory %s does not exist", s.run.Dir))
			return
		}
		h(w, r)
	})
}

// isAPI reports whether r asks for JSON.
func isAPI(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/api/") }

// fail answers an error: JSON {"error": ...} on /api/, else the error page.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, code int, err error) {
	if isAPI(r) {
		writeJSON(w, r, code, map[string]string{"error": err.Error()})
		return
	}
	s.render(w, code, "error", "Error", struct {
		Code    int
		Status  string
		Message string
	}{code, http.StatusText(code), err.Error()})
}

// writeJSON writes v as JSON, gzipped when the client takes it.
func writeJSON(w http.ResponseWriter, r *http.Request, code int, v any) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(v)
		return
	}
	h.Set("Content-Encoding", "gzip")
	h.Add("Vary", "Accept-Encoding")
	w.WriteHeader(code)
	zw := gzip.NewWriter(w)
	json.NewEncoder(zw).Encode(v)
	zw.Close()
}
