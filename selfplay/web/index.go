package web

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"chuzero/checkpoints"
	"chuzero/checkpoints/atomicfile"
)

// Kinds of game, by where the record lies in the run directory.
const (
	KindSelfPlay = "selfplay" // games/*.jsonl (selfplay.Record)
	KindEval     = "eval"     // eval/<match>/games.jsonl (arena.GameRecord)
	KindGating   = "gating"   // gating/<match>/games.jsonl
	KindArena    = "arena"    // arena/<match>/games.jsonl, and strength/games.jsonl as match "strength"
)

// GameInfo is one game of the index: what the games list shows, and where
// the game's line lies.
type GameInfo struct {
	ID      string    `json:"id"`              // the self-play game id, or kind-match-index for a match game
	Kind    string    `json:"kind"`            // KindSelfPlay, KindEval, KindGating, KindArena
	Match   string    `json:"match,omitempty"` // the match directory (eval, gating, arena)
	Index   int64     `json:"index"`           // the game's index in its run or match
	Sente   string    `json:"sente"`           // the players (self-play: the network, both sides)
	Gote    string    `json:"gote"`            //
	Result  string    `json:"result"`          // 1-0 (Sente won), 0-1, 1/2-1/2
	Reason  string    `json:"reason"`          // rules.Reason text, "resignation", "max plies", ...
	Plies   int       `json:"plies"`           //
	Started time.Time `json:"started"`         //
	Seconds float64   `json:"seconds"`         // the game's duration

	raw  string  // the id the record carries ("" for a match game)
	src  *source // the file holding the game's line
	off  int64   // the line's byte offset in it
	size int     // the line's length, without its newline
}

// Finished is when the game finished: its start and its duration.
func (g *GameInfo) Finished() time.Time {
	return g.Started.Add(time.Duration(g.Seconds * float64(time.Second)))
}

// source is one games file and the games it held when last scanned.
type source struct {
	path, kind, match string
	size              int64
	mod               time.Time
	games             []GameInfo
	warnings          []string // damaged lines (not a cut last line) and read errors
	partial           bool     // the last line was cut: the file is being written
}

// index lists the games of a run directory. It rescans a file only when its
// size or modification time changed, and keeps a few fields per game, never
// the moves: a game's line is read again from its file when asked for.
type index struct {
	run   checkpoints.Run
	every time.Duration // rescan the directories at most this often

	mu      sync.Mutex
	checked time.Time
	sources map[string]*source // by path
	list    []*GameInfo        // newest first
	byID    map[string]*GameInfo
	intern  map[string]string // one copy of each repeated string (players, reasons)
}

func newIndex(run checkpoints.Run, every time.Duration) *index {
	return &index{run: run, every: every, sources: map[string]*source{}, intern: map[string]string{}}
}

// snapshot returns the games, newest first, and the warnings about
// damaged files, after looking for new and changed files. The slice is
// shared: do not modify it.
func (x *index) snapshot() ([]*GameInfo, []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.refresh(false)
	var warn []string
	for _, p := range sortedKeys(x.sources) {
		warn = append(warn, x.sources[p].warnings...)
	}
	return x.list, warn
}

// lookup finds the game of an id; force rescans first whatever the time
// since the last scan.
func (x *index) lookup(id string, force bool) (*GameInfo, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.refresh(force)
	g, ok := x.byID[id]
	return g, ok
}

// refresh rescans the run's games files that changed since the last scan
// (at most every x.every unless forced) and rebuilds the list if any did.
func (x *index) refresh(force bool) {
	now := time.Now()
	if !force && x.list != nil && now.Sub(x.checked) < x.every {
		return
	}
	x.checked = now
	found := x.discover()
	changed := false
	for path := range x.sources {
		if _, ok := found[path]; !ok {
			delete(x.sources, path)
			changed = true
		}
	}
	for path, src := range found {
		old := x.sources[path]
		if old != nil && old.size == src.size && old.mod.Equal(src.mod) {
			continue
		}
		scanSource(src, x.internString)
		x.sources[path] = src
		changed = true
	}
	if changed || x.list == nil {
		x.rebuild()
	}
}

// discover lists the run's games files with their size and modification
// time (not yet scanned).
func (x *index) discover() map[string]*source {
	out := map[string]*source{}
	add := func(path, kind, match string) {
		fi, err := os.Stat(path)
		if err != nil || !fi.Mode().IsRegular() {
			return
		}
		out[path] = &source{path: path, kind: kind, match: match, size: fi.Size(), mod: fi.ModTime()}
	}
	for _, name := range dirNames(x.run.Games(), false) {
		if strings.HasSuffix(name, checkpoints.RecordExt) {
			add(filepath.Join(x.run.Games(), name), KindSelfPlay, "")
		}
	}
	matches := []struct {
		kind string
		dir  func(string) string
	}{{KindEval, x.run.Eval}, {KindGating, x.run.Gating}, {KindArena, func(m string) string { return filepath.Join(x.run.Arena(), m) }}}
	for _, m := range matches {
		for _, name := range dirNames(m.dir(""), true) {
			add(filepath.Join(m.dir(name), checkpoints.MatchRecords), m.kind, name)
		}
	}
	add(filepath.Join(x.run.Strength(), checkpoints.MatchRecords), KindArena, "strength")
	return out
}

// dirNames lists the names in dir that are directories (dirs) or regular
// files (!dirs), skipping hidden ones (an atomic writer's temporary files
// start with a dot); a missing directory has none.
func dirNames(dir string, dirs bool) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || e.IsDir() != dirs || (!dirs && !e.Type().IsRegular()) {
			continue
		}
		out = append(out, e.Name())
	}
	return out
}

// rebuild sorts the games of every source, newest first, and gives each
// an id unique in the run.
func (x *index) rebuild() {
	var list []*GameInfo
	for _, p := range sortedKeys(x.sources) {
		src := x.sources[p]
		for i := range src.games {
			list = append(list, &src.games[i])
		}
	}
	// ids in file order, so a duplicate always gets the same suffix
	byID := make(map[string]*GameInfo, len(list))
	for _, g := range list {
		base := safeID(g.raw)
		if g.raw == "" {
			base = matchID(g)
		}
		id := base
		for n := 2; byID[id] != nil; n++ {
			id = fmt.Sprintf("%s-%d", base, n)
		}
		g.ID = id
		byID[id] = g
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Finished().After(list[j].Finished()) })
	x.list, x.byID = list, byID
}

// matchID is the id of a match game: kind, match and index ("eval-step-000000200-vs-first-3").
func matchID(g *GameInfo) string {
	return safeID(fmt.Sprintf("%s-%s-%d", g.Kind, g.Match, g.Index))
}

// safeID keeps letters, digits, '.', '_' and '-' of s and replaces the rest
// with '_': an id is a path element of /games/ID.
func safeID(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

func (x *index) internString(s string) string {
	if v, ok := x.intern[s]; ok {
		return v
	}
	if len(x.intern) < 1<<16 {
		x.intern[s] = s
	}
	return s
}

// readLine reads the line of g from its file. The index holds the path:
// nothing of a request reaches the file system.
func readLine(g *GameInfo) ([]byte, error) {
	f, err := atomicfile.OpenRegular(g.src.path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errGone
		}
		return nil, err
	}
	defer f.Close()
	b := make([]byte, g.size)
	if _, err := f.ReadAt(b, g.off); err != nil {
		return nil, errGone
	}
	return b, nil
}

// errGone says the file of an indexed game changed under the index.
var errGone = errors.New("web: the game's file changed")

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
