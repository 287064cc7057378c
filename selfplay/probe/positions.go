package probe

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"chuzero/encode"
	"chuzero/mcts/qsearch"
	"chuzero/rules"
)

// Games summarises the self-play games whose samples a run's sample files
// hold (the files present: a long run prunes its oldest).
type Games struct {
	Files    int   // sample files read
	BadFiles int   // files skipped whole or in part: damaged, unreadable or not regular
	Samples  int64 // samples read
	Games    int   // distinct games
	Decisive int   // games with a winner
	Capped   int   // games stopped by the self-play ply cap
	Plies    int64 // plies of all games (the last sample's ply + 1 each)
}

// DecisiveShare is the share of games with a winner.
func (g Games) DecisiveShare() float64 { return ratio(float64(g.Decisive), float64(g.Games)) }

// CappedShare is the share of games stopped by the ply cap.
func (g Games) CappedShare() float64 { return ratio(float64(g.Capped), float64(g.Games)) }

// MeanPlies is the mean length of the games, in plies.
func (g Games) MeanPlies() float64 { return ratio(float64(g.Plies), float64(g.Games)) }

type gameStat struct {
	plies    uint32
	decisive bool
	capped   bool
}

// Read reads every sample file of dir in name order: it counts the games
// and returns up to cfg.Positions samples drawn uniformly (a seeded
// reservoir) from the held-out games' positions at every cfg.Every-th ply.
// A damaged or unreadable file is counted in BadFiles and the samples
// read before the damage are kept; an entry that is not a regular file is
// never opened (a FIFO would block).
func Read(dir string, cfg Config) (Games, []encode.Sample, error) {
	var g Games
	ents, err := os.ReadDir(dir)
	if err != nil {
		return g, nil, fmt.Errorf("probe: %w", err)
	}
	games := map[uint64]*gameStat{}
	res := reservoir{n: cfg.Positions, rng: rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15))}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), encode.SampleFileExt) {
			continue
		}
		if !e.Type().IsRegular() {
			g.BadFiles++
			continue
		}
		g.Files++
		if err := readFile(filepath.Join(dir, e.Name()), cfg, &g, games, &res); err != nil {
			g.BadFiles++
		}
	}
	for _, st := range games {
		g.Games++
		g.Plies += int64(st.plies)
		if st.decisive {
			g.Decisive++
		}
		if st.capped {
			g.Capped++
		}
	}
	sort.SliceStable(res.kept, func(i, j int) bool { return res.order[i] < res.order[j] })
	return g, res.kept, nil
}

func readFile(path string, cfg Config, g *Games, games map[uint64]*gameStat, res *reservoir) error {
	sr, c, err := encode.OpenSampleFile(path)
	if err != nil {
		return err
	}
	defer c.Close()
	for {
		var s encode.Sample
		err := sr.Next(&s)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		g.Samples++
		st := games[s.GameID]
		if st == nil {
			st = &gameStat{}
			games[s.GameID] = st
		}
		st.plies = max(st.plies, s.Ply+1)
		st.decisive = st.decisive || (s.Outcome != encode.Draw && !s.Truncated)
		st.capped = st.capped || s.Truncated
		if (cfg.HeldOut == nil || cfg.HeldOut(s.GameID)) && int(s.Ply)%cfg.Every == 0 {
			res.add(s)
		}
	}
}

// reservoir keeps a uniform sample of n items of a stream, with the
// stream order of each (to restore it).
type reservoir struct {
	n     int
	seen  int
	rng   *rand.Rand
	kept  []encode.Sample
	order []int
}

func (r *reservoir) add(s encode.Sample) {
	r.seen++
	if len(r.kept) < r.n {
		r.kept = append(r.kept, s)
		r.order = append(r.order, r.seen)
		return
	}
	if j := r.rng.IntN(r.seen); j < r.n {
		r.kept[j], r.order[j] = s, r.seen
	}
}

// Position is one probed position with what the capture search makes of
// it, shared by every network the probe asks.
type Position struct {
	Sample  *encode.Sample
	Pos     rules.Position
	History []rules.Move // past moves, oldest first
	Moves   []rules.Move // the legal moves
	Index   []int32      // the policy index of each move
	// Capture is the capture search's score of each move for the side to
	// move (its piece-value points ×100; beyond ±qsearch.MateBound a mate).
	Capture []int32
	// Value is the capture search's value of the position for the side to
	// move, scaled as the search blends it (tanh(k·score/army)).
	Value float64
	// Result is the game's result for the side to move: 1, 0 or -1.
	Result float64
	// Target is the result the value head trains toward: Result, or for a
	// game stopped at the ply cap the search's estimate standing for it
	// (Sample.EndValue).
	Target float64
}

// Best returns the highest capture score of the position's moves.
func (p *Position) Best() int32 {
	best := p.Capture[0]
	for _, c := range p.Capture[1:] {
		best = max(best, c)
	}
	return best
}

// Prepare rebuilds the samples' positions and runs the capture search on
// each position and each of its moves. Positions with no legal move are
// left out.
func Prepare(samples []encode.Sample, spec *encode.Spec, cfg Config) ([]Position, error) {
	var out []Position
	var q *qsearch.Search
	for i := range samples {
		s := &samples[i]
		pos, hist, err := s.Position(nil)
		if err != nil {
			return nil, fmt.Errorf("probe: game %d ply %d: %w", s.GameID, s.Ply, err)
		}
		g := rules.NewGame(pos)
		moves := g.LegalMoves()
		if len(moves) == 0 {
			continue
		}
		idx, err := spec.LegalIndices(&pos, moves, nil)
		if err != nil {
			return nil, fmt.Errorf("probe: game %d ply %d: %w", s.GameID, s.Ply, err)
		}
		if q == nil || q.Rules() != g.Rules() {
			q = cfg.Search.CaptureSearch(g.Rules())
		}
		p := Position{Sample: s, Pos: pos, History: hist, Moves: moves, Index: idx,
			Capture: make([]int32, len(moves)), Value: q.Scaled(g, cfg.Search.QuiescenceScale), Result: result(s.Outcome)}
		p.Target = p.Result
		if s.Truncated {
			p.Target = float64(s.EndValue)
		}
		for j, m := range moves {
			g.Push(m)
			p.Capture[j] = -q.Value(g)
			g.Undo()
		}
		out = append(out, p)
	}
	return out, nil
}

func result(o encode.Outcome) float64 {
	switch o {
	case encode.Win:
		return 1
	case encode.Loss:
		return -1
	}
	return 0
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
