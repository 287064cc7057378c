package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"chuzero/checkpoints"
	"chuzero/rules"
	"chuzero/selfplay"
	"chuzero/selfplay/runconfig"
)

// runConfig is what the pages read of config.json: the file, indented,
// and the rules the run plays.
type runConfig struct {
	text    string // config.json indented ("" without one)
	variant string
	rules   rules.Config
	// self is the self-play section (selfplay.Config with its search's
	// settings, the variant's defaults where the file has none): the
	// quiescence blend the run's searches use.
	self selfplay.Config
	err  error // config.json is missing or does not give valid rules
}

// readRunConfig reads the run's config.json.
func readRunConfig(run checkpoints.Run) runConfig {
	b, err := os.ReadFile(run.Config())
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return runConfig{err: errors.New("web: the run has no config.json")}
		}
		return runConfig{err: fmt.Errorf("web: %w", err)}
	}
	c := runConfig{text: string(b)}
	var buf bytes.Buffer
	if json.Indent(&buf, b, "", "  ") == nil {
		c.text = buf.String()
	}
	cfg, err := runconfig.Read(run)
	if err == nil {
		c.variant = cfg.Variant
		c.rules, err = cfg.RulesConfig()
	}
	if err == nil {
		c.self, err = cfg.SelfPlayConfig(run)
	}
	if err != nil {
		c.err = fmt.Errorf("web: %s: %w", run.Config(), err)
	}
	return c
}

// networkEntry is a checkpoint the position page offers: the store's
// checkpoints by name, and the pinned copies as "first", "previous" and
// "best".
type networkEntry struct {
	Label string `json:"label"` // what the select box shows
	checkpoints.Entry
}

// networkList lists the checkpoints the position page offers. The step
// of a pinned copy is read from the file once per version of it (a
// checkpoint is read whole: megabytes).
type networkList struct {
	run checkpoints.Run

	mu   sync.Mutex
	pins map[string]pinned // by path
}

type pinned struct {
	size int64
	mod  time.Time
	step int64
}

// list returns the run's checkpoints, newest first, then the pinned ones.
// It only reads: the store is not opened (opening creates it).
func (n *networkList) list() []networkEntry {
	run := n.run
	list, _ := (&checkpoints.Store{Dir: run.Checkpoints()}).List()
	var out []networkEntry
	for i := len(list) - 1; i >= 0; i-- {
		e := list[i]
		out = append(out, networkEntry{Label: fmt.Sprintf("%s (step %d)", e.Name, e.Step), Entry: e})
	}
	if e, ok, err := run.ReadBest(); err == nil && ok && exists(e.Path) {
		out = append(out, networkEntry{Label: "best: " + e.Name, Entry: named(e, "best")})
	}
	for _, name := range []string{"first", "previous"} {
		if e, ok := n.pinned(name); ok {
			out = append(out, networkEntry{Label: fmt.Sprintf("anchor %s: %s", name, checkpoints.Name(e.Step)), Entry: e})
		}
	}
	return out
}

// pinned returns the anchor name's pinned copy, if there is one.
func (n *networkList) pinned(name string) (checkpoints.Entry, bool) {
	path := n.run.Anchor(name)
	fi, err := os.Stat(path)
	if err != nil {
		return checkpoints.Entry{}, false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	p, ok := n.pins[path]
	if !ok || p.size != fi.Size() || !p.mod.Equal(fi.ModTime()) {
		e, err := n.run.Pinned(name)
		if err != nil {
			return checkpoints.Entry{}, false
		}
		p = pinned{size: fi.Size(), mod: fi.ModTime(), step: e.Step}
		if n.pins == nil {
			n.pins = map[string]pinned{}
		}
		n.pins[path] = p
	}
	return checkpoints.Entry{Name: name, Step: p.step, Path: path, ModTime: p.mod, Size: p.size}, true
}

// named returns e under another name (a pinned copy keeps its step).
func named(e checkpoints.Entry, name string) checkpoints.Entry {
	e.Name = name
	return e
}

// findNetwork returns the checkpoint of a name from the listing: a name
// from a request is matched, never joined onto a path.
func findNetwork(list []networkEntry, name string) (checkpoints.Entry, bool) {
	if name == "" && len(list) > 0 {
		return list[0].Entry, true
	}
	for _, e := range list {
		if e.Name == name {
			return e.Entry, true
		}
	}
	return checkpoints.Entry{}, false
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// fingerprint identifies the state of what the report reads (config, logs,
// games files, the strength benchmark) by names, sizes and modification
// times, without reading any file.
func fingerprint(run checkpoints.Run) string {
	h := fnv.New64a()
	for _, dir := range []string{run.Logs(), run.Games(), run.Strength()} {
		names := dirNames(dir, false)
		sort.Strings(names)
		for _, n := range names {
			if fi, err := os.Stat(filepath.Join(dir, n)); err == nil {
				fmt.Fprintf(h, "%s/%s %d %d\n", dir, n, fi.Size(), fi.ModTime().UnixNano())
			}
		}
	}
	if fi, err := os.Stat(run.Config()); err == nil {
		fmt.Fprintf(h, "config %d %d\n", fi.Size(), fi.ModTime().UnixNano())
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// isDir reports whether path is a directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
