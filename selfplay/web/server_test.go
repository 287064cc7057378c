package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"chuzero/checkpoints"
	"chuzero/rules"
)

func TestMain(m *testing.M) {
	code := m.Run()
	removeTestRuns()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			os.Stderr.WriteString("goleak: " + err.Error() + "\n")
			code = 1
		}
	}
	os.Exit(code)
}

// newTestServer serves run dir with the test networks and no rescan
// delay.
func newTestServer(t *testing.T, dir string) *Server {
	t.Helper()
	cfg := DefaultConfig(checkpoints.Run{Dir: dir})
	cfg.Networks, cfg.Rescan = randomNetworks{}, 0
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// get asks s for path and returns the status, content type and body.
func get(t *testing.T, s http.Handler, path string) (int, string, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec.Code, rec.Header().Get("Content-Type"), rec.Body.String()
}

// getJSON asks for path, wants status code and decodes the body into v.
func getJSON(t *testing.T, s http.Handler, path string, code int, v any) {
	t.Helper()
	got, ctype, body := get(t, s, path)
	if got != code || !strings.HasPrefix(ctype, "application/json") {
		t.Fatalf("GET %s = %d %s, want %d JSON\n%.500s", path, got, ctype, code, body)
	}
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("GET %s: %v\n%.500s", path, err, body)
	}
}

// firstOfKind returns the id of the newest game of a kind.
func firstOfKind(t *testing.T, s http.Handler, kind string) string {
	t.Helper()
	var v GamesView
	getJSON(t, s, "/api/games?kind="+kind, http.StatusOK, &v)
	if len(v.Games) == 0 {
		t.Fatalf("no %s game", kind)
	}
	return v.Games[0].ID
}

// TestPages asks for every page and endpoint of a Sho and a Chu run and
// checks the status, the type and a piece of the content.
func TestPages(t *testing.T) {
	for _, v := range []rules.VariantID{rules.Sho, rules.Chu} {
		t.Run(v.String(), func(t *testing.T) {
			s := newTestServer(t, testRun(t, v))
			self, eval := firstOfKind(t, s, KindSelfPlay), firstOfKind(t, s, KindEval)
			tests := []struct {
				path, ctype string
				code        int
				want        string
			}{
				{"/", "text/html", 200, `data-key="step">4<`},
				{"/", "text/html", 200, "step-000000004"},
				{"/games", "text/html", 200, `href="/games/` + self + `"`},
				{"/games?kind=eval", "text/html", 200, "2 of 12 games"},
				{"/games/" + self, "text/html", 200, `data-game="` + self + `"`},
				{"/games/" + eval, "text/html", 200, "greedy"},
				{"/position", "text/html", 200, `<option value="step-000000004"`},
				{"/position?sfen=x&checkpoint=first", "text/html", 200, `<textarea name="sfen"`},
				{"/api/run", "application/json", 200, `"key":"games","label":"self-play games","value":"6"`},
				{"/api/games", "application/json", 200, `"total":12`},
				{"/api/games?kind=gating&limit=1", "application/json", 200, `"matched":2`},
				{"/api/games/" + self, "application/json", 200, `"id":"` + self + `"`},
				{"/api/position", "application/json", 200, `"checkpoint":"step-000000004"`},
				{"/api/position?checkpoint=step-000000000", "application/json", 200, `"step":0`},
				{"/plots/loss.png", "image/png", 200, "\x89PNG"},
				{"/plots/elo.png", "image/png", 200, "\x89PNG"},
				{"/static/board.js", "text/javascript", 200, "const Board"},
				{"/static/style.css", "text/css", 200, ".board"},
				{"/games/nope", "text/html", 404, `no game &#34;nope&#34; in this run`},
				{"/api/games/nope", "application/json", 404, `{"error":"no game \"nope\" in this run"}`},
				{"/api/games/" + self + "x", "application/json", 404, "no game"},
				{"/api/position?sfen=notasfen", "application/json", 400, "bad request"},
				{"/api/position?checkpoint=..%2F..%2Fconfig.json", "application/json", 400, `no checkpoint \"../../config.json\"`},
				{"/api/position?checkpoint=", "application/json", 200, `"legal":`},
				{"/plots/index.html", "text/html", 404, "no plot"},
				{"/plots/..%2Fconfig.json", "text/html", 404, "no plot"},
				{"/static/nothing.js", "text/plain", 404, "404"},
				{"/config.json", "text/html", 404, "no page /config.json"},
				{"/api/nothing", "application/json", 404, "no page"},
			}
			for _, tt := range tests {
				code, ctype, body := get(t, s, tt.path)
				if code != tt.code || !strings.HasPrefix(ctype, tt.ctype) || !strings.Contains(body, tt.want) {
					t.Errorf("GET %s = %d %s, want %d %s containing %q\n%.300s", tt.path, code, ctype, tt.code, tt.ctype, tt.want, body)
				}
			}
		})
	}
}

// TestMissingRun: every page and endpoint of a run directory that does
// not exist is a 404 that says so.
func TestMissingRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "no-such-run")
	s := newTestServer(t, dir)
	for _, path := range []string{"/", "/games", "/games/abc", "/position", "/plots/loss.png", "/api/run", "/api/games", "/api/games/abc", "/api/position"} {
		code, _, body := get(t, s, path)
		if code != http.StatusNotFound || !strings.Contains(body, "run directory "+dir+" does not exist") {
			t.Errorf("GET %s on a missing run = %d\n%.300s", path, code, body)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("serving a missing run made %s: %v", dir, err)
	}
}

// TestGameView checks a replayed game: a position per ply, the board's
// size, the search values of self-play, the notations.
func TestGameView(t *testing.T) {
	for _, tt := range []struct {
		v      rules.VariantID
		kind   string
		size   int
		values bool
	}{
		{rules.Sho, KindSelfPlay, 81, true},
		{rules.Chu, KindSelfPlay, 144, true},
		{rules.Chu, KindEval, 144, false},
		{rules.Sho, KindArena, 81, false},
	} {
		s := newTestServer(t, testRun(t, tt.v))
		id := firstOfKind(t, s, tt.kind)
		var g GameView
		getJSON(t, s, "/api/games/"+id, http.StatusOK, &g)
		if g.Error != "" || len(g.Plies) != g.Game.Plies+1 || g.Board.Files*g.Board.Ranks != tt.size {
			t.Fatalf("%v %s %s: %d plies for %d, board %dx%d, error %q", tt.v, tt.kind, id, len(g.Plies), g.Game.Plies, g.Board.Files, g.Board.Ranks, g.Error)
		}
		for i, p := range g.Plies {
			if len(p.Squares) != tt.size || (i > 0) != (p.Move != nil) || (p.Value != nil) != (tt.values && i < len(g.Plies)-1) {
				t.Fatalf("%v %s ply %d: %d squares, move %v, value %v", tt.v, id, i, len(p.Squares), p.Move, p.Value)
			}
			if i > 0 && (p.Move.Hodges == "" || p.Move.USI == "" || p.Move.Machine == "" || p.Move.To < 0 && !p.Move.Pass) {
				t.Fatalf("%v %s ply %d: move %+v", tt.v, id, i, p.Move)
			}
		}
		start := g.Plies[0].Squares
		if tt.v == rules.Chu && (start[0] != "l" || start[143] != "L" || g.Board.Pieces["N"].Kanji != "獅") {
			t.Errorf("chu start: %q ... %q, Lion %+v", start[0], start[143], g.Board.Pieces["N"])
		}
	}
}

// TestDamagedGamesFile: a damaged line in the middle of a games file is
// skipped with a warning, a cut last line (a file being written) silently;
// the other games stay listed and open.
func TestDamagedGamesFile(t *testing.T) {
	dir := copyRun(t, rules.Sho)
	files, _ := filepath.Glob(filepath.Join(dir, "games", "*.jsonl"))
	if len(files) < 2 {
		t.Fatalf("%d games files", len(files))
	}
	b, _ := os.ReadFile(files[0])
	lines := bytes.SplitAfter(b, []byte("\n"))
	damaged := append(append([]byte(nil), lines[0]...), []byte("{\"id\": broken\n")...)
	for _, l := range lines[1:] {
		damaged = append(damaged, l...)
	}
	if err := os.WriteFile(files[0], damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(files[1], os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"id":"cut","moves":["f3`)
	f.Close()
	s := newTestServer(t, dir)
	var v GamesView
	getJSON(t, s, "/api/games", http.StatusOK, &v)
	if v.Total != 12 || len(v.Warnings) != 1 || !strings.Contains(v.Warnings[0], files[0]+":2: skipped") {
		t.Fatalf("damaged file: %d games, warnings %q", v.Total, v.Warnings)
	}
	for _, g := range v.Games {
		if code, _, body := get(t, s, "/api/games/"+g.ID); code != http.StatusOK {
			t.Errorf("game %s of a damaged run: %d %.200s", g.ID, code, body)
		}
	}
	if code, _, body := get(t, s, "/games"); code != 200 || !strings.Contains(body, "1 damaged lines skipped") {
		t.Errorf("games page of a damaged run: %d %.300s", code, body)
	}
	// the writer finishes the line: the game appears
	f, _ = os.OpenFile(files[1], os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`4"],"result":"1/2-1/2"}` + "\n")
	f.Close()
	getJSON(t, s, "/api/games", http.StatusOK, &v)
	if v.Total != 13 {
		t.Errorf("after the cut line was finished: %d games, want 13", v.Total)
	}
}

// TestReadOnly: serving every page leaves the run directory as it was.
func TestReadOnly(t *testing.T) {
	dir := copyRun(t, rules.Chu)
	before := treeState(t, dir)
	s := newTestServer(t, dir)
	id := firstOfKind(t, s, KindSelfPlay)
	for _, path := range []string{"/", "/api/run", "/games", "/api/games", "/games/" + id, "/api/games/" + id, "/position", "/api/position", "/plots/loss.png"} {
		if code, _, _ := get(t, s, path); code != 200 {
			t.Errorf("GET %s = %d", path, code)
		}
	}
	if after := treeState(t, dir); after != before {
		t.Errorf("the run directory changed:\nbefore %s\nafter  %s", before, after)
	}
}

// treeState lists every path under dir with its size and modification
// time.
func treeState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err == nil {
			fmt.Fprintf(&b, "%s %v %d\n", path, fi.ModTime(), fi.Size())
		}
		return nil
	})
	return b.String()
}

// TestRewrittenMatchFile: a match rewrites its games file (here with its
// lines reversed) after the index read it; a game still opens, from a
// rescan, and is the game asked for.
func TestRewrittenMatchFile(t *testing.T) {
	dir := copyRun(t, rules.Sho)
	cfg := DefaultConfig(checkpoints.Run{Dir: dir})
	cfg.Rescan = time.Hour // the index would not look again by itself
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	id := firstOfKind(t, s, KindEval)
	var before GameView
	getJSON(t, s, "/api/games/"+id, http.StatusOK, &before)
	files, _ := filepath.Glob(filepath.Join(dir, "eval", "*", checkpoints.MatchRecords))
	b, _ := os.ReadFile(files[0])
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	lines[len(lines)-1] += "\n"
	var reversed strings.Builder
	for i := len(lines) - 1; i >= 0; i-- {
		reversed.WriteString(lines[i])
	}
	if err := os.WriteFile(files[0], []byte(reversed.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var after GameView
	getJSON(t, s, "/api/games/"+id, http.StatusOK, &after)
	if after.Game.Index != before.Game.Index || len(after.Plies) != len(before.Plies) || after.Plies[len(after.Plies)-1].SFEN != before.Plies[len(before.Plies)-1].SFEN {
		t.Errorf("game %s after the rewrite: index %d, %d plies; before %d, %d plies", id, after.Game.Index, len(after.Plies), before.Game.Index, len(before.Plies))
	}
}

// TestEmptyRun: a run directory a command has just made (nothing in it
// yet) shows empty pages; only the position page, which needs the run's
// rules, says that config.json is missing.
func TestEmptyRun(t *testing.T) {
	s := newTestServer(t, t.TempDir())
	for _, tt := range []struct {
		path string
		code int
		want string
	}{
		{"/", 200, `data-key="games">0<`},
		{"/api/run", 200, `"rows":null`},
		{"/games", 200, "0 of 0 games"},
		{"/api/games", 200, `"total":0`},
		{"/position", 200, "no checkpoint"},
		{"/api/position", 404, "the run has no config.json"},
		{"/plots/game_length.png", 200, "\x89PNG"},
	} {
		if code, _, body := get(t, s, tt.path); code != tt.code || !strings.Contains(body, tt.want) {
			t.Errorf("GET %s on an empty run = %d, want %d with %q\n%.300s", tt.path, code, tt.code, tt.want, body)
		}
	}
}

// TestPinnedNetworks: the position page offers the pinned anchors and the
// best checkpoint beside the store's, by name, with their steps.
func TestPinnedNetworks(t *testing.T) {
	dir := copyRun(t, rules.Chu)
	run := checkpoints.Run{Dir: dir}
	list, _ := (&checkpoints.Store{Dir: run.Checkpoints()}).List()
	if err := run.Pin("first", list[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := run.SetBest(list[2]); err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, dir)
	for _, tt := range []struct {
		ckpt string
		step int64
	}{{"first", 2}, {"best", 4}, {"step-000000000", 0}} {
		var v PositionView
		getJSON(t, s, "/api/position?checkpoint="+tt.ckpt, http.StatusOK, &v)
		if v.Network == nil || v.Network.Checkpoint != tt.ckpt || v.Network.Step != tt.step {
			t.Errorf("checkpoint %s: %+v, want step %d", tt.ckpt, v.Network, tt.step)
		}
	}
	if _, _, body := get(t, s, "/position"); !strings.Contains(body, "anchor first: step-000000002") || !strings.Contains(body, "best: step-000000004") {
		t.Errorf("the position page's networks:\n%.2000s", body)
	}
}

// TestPositionQuiescence: the position page shows what the capture search
// makes of the position (a gold hanging to a rook: the static balance and
// the resolved one), and the leaf value the run's search gives it with
// the quiescence blend of its config.
func TestPositionQuiescence(t *testing.T) {
	dir := copyRun(t, rules.Sho)
	run := checkpoints.Run{Dir: dir}
	cfg, _ := json.Marshal(map[string]any{"variant": "sho", "rules": map[string]string{"MaxPlies": fmt.Sprint(testMaxPlies)},
		"seed": 1, "selfplay": map[string]any{"quiescence": 0.6, "quiescence_final": 0.2, "quiescence_steps": 4}})
	if err := os.WriteFile(run.Config(), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, dir)
	var v PositionView
	getJSON(t, s, "/api/position?checkpoint=step-000000002&sfen="+url.QueryEscape("4k4/9/9/9/2g6/9/9/2R6/4K4 b - 1"), http.StatusOK, &v)
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	values := r.PieceValues()
	rook, gold := values[r.KindByFEN("R")], values[r.KindByFEN("G")]
	q, n := v.Quiescence, v.Network
	if q == nil || n == nil {
		t.Fatalf("no quiescence or network: %+v", v)
	}
	if math.Abs(q.Static-(rook-gold)) > 0.01 || math.Abs(q.Score-rook) > 0.01 || q.Nodes < 2 {
		t.Errorf("quiescence %+v: want static %v, resolved %v", q, rook-gold, rook)
	}
	if want := math.Tanh(3 * q.Score / r.Army()); math.Abs(q.Value-want) > 1e-3 {
		t.Errorf("quiescence value %v, want %v", q.Value, want)
	}
	// step 2 of a blend annealed from 0.6 to 0.2 over 4 steps
	if math.Abs(n.Lambda-0.4) > 1e-9 || math.Abs(n.Leaf-(0.6*float64(n.Value)+0.4*q.Value)) > 1e-6 {
		t.Errorf("network %+v: want λ 0.4 and the blended leaf value", n)
	}
}
