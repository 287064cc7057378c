package web

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"time"
)

// assets are the stylesheet and scripts under /static/; templates the
// pages. Both are embedded: the UI works offline, with no build step.
//
//go:embed assets
var assets embed.FS

//go:embed templates
var templateFiles embed.FS

// pages are the page templates, each parsed with the layout.
var pages = func() map[string]*template.Template {
	funcs := template.FuncMap{
		"stamp": stamp,
		"dur":   func(s float64) string { return (time.Duration(s * float64(time.Second))).Round(time.Second).String() },
	}
	out := map[string]*template.Template{}
	for _, name := range []string{"run", "games", "game", "position", "error"} {
		out[name] = template.Must(template.New("layout.html").Funcs(funcs).ParseFS(templateFiles,
			"templates/layout.html", "templates/"+name+".html"))
	}
	return out
}()

// page is what the layout gets: the title, the run, and the page's data.
type page struct {
	Title string
	Run   string
	Nav   string // the current section: run, games, position
	Data  any
}

// render writes the page name with data, or a plain error if the template
// fails (it is rendered to a buffer first, so no half page goes out).
func (s *Server) render(w http.ResponseWriter, code int, name, title string, data any) {
	var buf bytes.Buffer
	if err := pages[name].Execute(&buf, page{Title: title, Run: s.run.Dir, Nav: name, Data: data}); err != nil {
		http.Error(w, "web: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(buf.Bytes())
}

func (s *Server) pageRun(w http.ResponseWriter, r *http.Request) {
	s.render(w, http.StatusOK, "run", "run "+s.run.Dir, s.runView())
}

func (s *Server) apiRun(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, r, http.StatusOK, s.runView())
}

// gamesPage is the games page's data: the list and its page links.
type gamesPage struct {
	*GamesView
	Prev, Next string
}

func (s *Server) pageGames(w http.ResponseWriter, r *http.Request) {
	v := s.games(r)
	p := gamesPage{GamesView: v}
	p.Prev, p.Next = v.pageLinks()
	s.render(w, http.StatusOK, "games", "games", p)
}

func (s *Server) apiGames(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, r, http.StatusOK, s.games(r))
}

func (s *Server) games(r *http.Request) *GamesView {
	f, offset, limit := parseGamesQuery(r.URL.Query())
	games, warn := s.index.snapshot()
	return gamesView(games, warn, f, offset, limit)
}

// findGame looks the id up in the index, rescanning once if it is not
// there (a game written since the last scan).
func (s *Server) findGame(id string) (*GameInfo, bool) {
	if g, ok := s.index.lookup(id, false); ok {
		return g, true
	}
	return s.index.lookup(id, true)
}

func (s *Server) pageGame(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	g, ok := s.findGame(id)
	if !ok {
		s.fail(w, r, http.StatusNotFound, fmt.Errorf("no game %q in this run", id))
		return
	}
	s.render(w, http.StatusOK, "game", "game "+g.ID, g)
}

func (s *Server) apiGame(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	v, err := s.gameView(id)
	switch {
	case errors.Is(err, errNoGame):
		s.fail(w, r, http.StatusNotFound, fmt.Errorf("no game %q in this run", id))
	case err != nil:
		s.fail(w, r, http.StatusInternalServerError, err)
	default:
		writeJSON(w, r, http.StatusOK, v)
	}
}

// errNoGame: the id is not in the index.
var errNoGame = errors.New("web: no such game")

// gameView reads and replays the game of an id. When its file changed
// under the index (rewritten by a match), the index is rescanned and the
// line read again, once.
func (s *Server) gameView(id string) (*GameView, error) {
	for try := 0; ; try++ {
		g, ok := s.findGame(id)
		if !ok {
			return nil, errNoGame
		}
		line, err := readLine(g)
		var v *GameView
		var rec gameRecord
		if err == nil {
			v, rec, err = decodeGame(g, line)
		}
		if err != nil {
			if try == 0 {
				s.index.lookup(id, true)
				continue
			}
			if errors.Is(err, errGone) {
				return nil, errNoGame
			}
			return nil, fmt.Errorf("web: game %s: %w", id, err)
		}
		return v, v.replay(rec)
	}
}

// positionPage is the position page's data: the form's values.
type positionPage struct {
	SFEN        string
	Selected    string
	Checkpoints []networkEntry
}

func (s *Server) pagePosition(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.render(w, http.StatusOK, "position", "position", positionPage{SFEN: q.Get("sfen"), Selected: q.Get("checkpoint"), Checkpoints: s.nets.list()})
}

func (s *Server) apiPosition(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	wait := time.NewTimer(s.cfg.EvaluationWait)
	defer wait.Stop()
	select {
	case s.evals <- struct{}{}:
		defer func() { <-s.evals }()
	case <-wait.C:
		s.fail(w, r, http.StatusServiceUnavailable, fmt.Errorf("%d position evaluations are running; try again", cap(s.evals)))
		return
	case <-r.Context().Done():
		return // the client left while waiting
	}
	if r.Context().Err() != nil {
		return
	}
	v, err := s.position(r.Context(), q.Get("sfen"), q.Get("checkpoint"))
	switch {
	case errors.Is(err, errBadRequest):
		s.fail(w, r, http.StatusBadRequest, err)
	case errors.Is(err, errNoRules):
		s.fail(w, r, http.StatusNotFound, err)
	case err != nil:
		s.fail(w, r, http.StatusInternalServerError, err)
	default:
		writeJSON(w, r, http.StatusOK, v)
	}
}

func (s *Server) plot(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	png, ok, err := s.plots.get(name)
	switch {
	case !ok:
		s.fail(w, r, http.StatusNotFound, fmt.Errorf("no plot %q", name))
	case err != nil:
		s.fail(w, r, http.StatusInternalServerError, err)
	default:
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(png)
	}
}
