package arena

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"chuzero/checkpoints"
	"chuzero/checkpoints/atomicfile"
	"chuzero/rules"
)

// Config configures a match.
type Config struct {
	Rules rules.Config // the referee's rules
	// Openings are played in turn, each twice per pairing (colours
	// swapped). Empty: random balanced openings of OpeningPlies plies.
	Openings     []Opening
	OpeningPlies int // default 6
	// Games per pairing (rounded up to an even number; default: two per
	// opening, or 10 with random openings).
	Games int
	// Concurrency is the number of games played at once (default 1).
	Concurrency int
	// Gauntlet pairs the first entrant with each of the others only (no
	// games among the others): a benchmark against fixed anchors.
	Gauntlet bool
	Seed     uint64
	// SPRT, with exactly two entrants, stops the match as soon as the test
	// decides (the games in flight are finished and counted).
	SPRT *SPRT
	// Dir, if set, receives games.jsonl, games.pgn and results.json,
	// rewritten atomically after every game.
	Dir string
	// Event names the match in the PGN.
	Event string
	Log   *slog.Logger
}

// Match plays games between entrants: every pair of them (a round robin
// for more than two) over the openings, colours swapped.
type Match struct {
	cfg      Config
	rules    *rules.Rules
	entrants []Entrant
	// OnGame is called after each game with the record and the standings
	// so far (from the match's goroutines, one call at a time).
	OnGame func(*GameRecord, *Standings)

	mu      sync.Mutex
	st      *Standings
	records []GameRecord
	// jsonl and pgn hold every finished game in its file form, each
	// encoded once, so rewriting the files after a game costs a copy.
	jsonl, pgn bytes.Buffer
}

// job is one game to play.
type job struct {
	index, pair int
	sente, gote int // entrant indices
	opening     Opening
}

// New returns a match; nothing runs before Run.
func New(cfg Config, entrants ...Entrant) (*Match, error) {
	if len(entrants) < 2 {
		return nil, errors.New("arena: a match needs at least two players")
	}
	names := map[string]bool{}
	for _, e := range entrants {
		if names[e.Name()] {
			return nil, fmt.Errorf("arena: two players are called %q; name them apart", e.Name())
		}
		names[e.Name()] = true
	}
	r, err := rules.New(cfg.Rules)
	if err != nil {
		return nil, err
	}
	if cfg.SPRT != nil {
		if len(entrants) != 2 {
			return nil, errors.New("arena: an SPRT needs exactly two players")
		}
		if err := cfg.SPRT.Validate(); err != nil {
			return nil, err
		}
	}
	if cfg.OpeningPlies <= 0 {
		cfg.OpeningPlies = 6
	}
	if cfg.Games <= 0 {
		cfg.Games = 2 * len(cfg.Openings)
		if cfg.Games == 0 {
			cfg.Games = 10
		}
	}
	cfg.Games += cfg.Games % 2
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 1
	}
	if cfg.Event == "" {
		cfg.Event = "chuzero arena"
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if len(cfg.Openings) == 0 {
		if cfg.Openings, err = RandomOpenings(r, cfg.Games/2, cfg.OpeningPlies, cfg.Seed); err != nil {
			return nil, err
		}
	}
	for i, o := range cfg.Openings {
		if _, err := o.Game(r); err != nil {
			return nil, fmt.Errorf("arena: opening %d (%s): %w", i+1, o, err)
		}
	}
	m := &Match{cfg: cfg, rules: r, entrants: entrants}
	m.st = newStandings(entrants, cfg.SPRT)
	return m, nil
}

// Standings returns a copy of the standings so far.
func (m *Match) Standings() *Standings {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.st.clone()
}

// jobs lists the games: for each opening pair, every pairing, both colours.
func (m *Match) jobs() []job {
	var out []job
	n := len(m.entrants)
	idx := 0
	for k := 0; k < m.cfg.Games/2; k++ {
		o := m.cfg.Openings[k%len(m.cfg.Openings)]
		pair := 0
		for i := 0; i < n; i++ {
			if m.cfg.Gauntlet && i > 0 {
				break
			}
			for j := i + 1; j < n; j++ {
				p := k*n*(n-1)/2 + pair
				out = append(out, job{index: idx, pair: p, sente: i, gote: j, opening: o})
				out = append(out, job{index: idx + 1, pair: p, sente: j, gote: i, opening: o})
				idx += 2
				pair++
			}
		}
	}
	return out
}

// Run plays the match until every game is played, the SPRT decides or ctx
// ends, and returns the standings. Games cut short by ctx are not counted.
// A player that cannot be opened (an engine that does not start) ends the
// match with an error.
func (m *Match) Run(ctx context.Context) (*Standings, error) {
	if m.cfg.Dir != "" {
		if err := os.MkdirAll(m.cfg.Dir, 0o755); err != nil {
			return nil, err
		}
	}
	jobs := m.jobs()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan job)
	stop := make(chan struct{}) // closed when the SPRT has decided
	var stopOnce sync.Once
	var wg sync.WaitGroup
	errs := make(chan error, m.cfg.Concurrency)
	for w := 0; w < m.cfg.Concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				rec, err := m.play(ctx, j)
				if err != nil {
					if ctx.Err() == nil {
						errs <- err
						cancel()
					}
					return
				}
				if m.record(rec) {
					stopOnce.Do(func() { close(stop) })
				}
			}
		}()
	}
feed:
	for _, j := range jobs {
		select {
		case next <- j:
		case <-stop:
			break feed
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	close(errs)
	st := m.Standings()
	if err := <-errs; err != nil {
		return st, err
	}
	return st, nil
}

// record adds a finished game; it reports whether the SPRT has decided.
func (m *Match) record(rec *GameRecord) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.st.add(rec)
	m.records = append(m.records, *rec)
	if m.cfg.Dir != "" {
		if err := m.save(); err != nil {
			m.cfg.Log.Error("saving the match records failed", "dir", m.cfg.Dir, "err", err)
		}
	}
	if m.OnGame != nil {
		m.OnGame(rec, m.st.clone())
	}
	return m.st.SPRT != nil && m.st.SPRT.Decision != Continue
}

// save adds the newest record to the file forms and rewrites the match
// files atomically (called with mu held, after each game).
func (m *Match) save() error {
	rec := &m.records[len(m.records)-1]
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	m.jsonl.Write(append(b, '\n'))
	if err := rec.WritePGN(&m.pgn, m.cfg.Event); err != nil {
		return err
	}
	res, err := json.MarshalIndent(m.st.Summary(), "", "  ")
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{checkpoints.MatchRecords: m.jsonl.Bytes(), checkpoints.MatchPGN: m.pgn.Bytes(), checkpoints.MatchResults: append(res, '\n')} {
		if err := atomicfile.Write(filepath.Join(m.cfg.Dir, name), data); err != nil {
			return err
		}
	}
	return nil
}
