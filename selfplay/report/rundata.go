package report

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"chuzero/checkpoints"
	"chuzero/selfplay"
	"chuzero/selfplay/runconfig"
)

// maxWarnings is how many warnings a Summary keeps word for word; the
// rest are only counted.
const maxWarnings = 20

// runData is what a report needs from a run directory: the logs whole,
// and from each game record only a few numbers (gamePoint), so that a run
// of a million games costs tens of megabytes, not the records.
type runData struct {
	variant         string
	resignThreshold *float64

	train  []checkpoints.TrainEntry
	eval   []checkpoints.EvalEntry
	gating []checkpoints.GatingEntry
	games  []gamePoint

	strength []checkpoints.EvalEntry // the strength benchmark's pairs (RUN/strength), if any
	learning string                  // the learning probe's table (RUN/learning.txt), if any

	start, end time.Time // earliest and latest timestamp of logs and games (zero: none)
	sum        Summary   // counts filled while reading
}

// gamePoint is one finished game, reduced to what the plots use.
type gamePoint struct {
	end     int64 // finish time: Started + Seconds, Unix nanoseconds
	plies   int32
	checked bool // resigning forbidden and a side would have resigned
	falsePo bool // checked and the would-be resignation was wrong
}

// gameLine is the part of a selfplay.Record that the report decodes; the
// move, value and visit lists are skipped without being allocated.
type gameLine struct {
	Variant       string                `json:"variant"`
	Result        string                `json:"result"`
	Winner        string                `json:"winner"`
	Reason        string                `json:"reason"`
	Plies         int                   `json:"plies"`
	ResignAllowed bool                  `json:"resign_allowed"`
	WouldResign   *selfplay.WouldResign `json:"would_resign"`
	Started       time.Time             `json:"started"`
	Seconds       float64               `json:"seconds"`
}

// readRun reads the config, the three logs and the games of run.
// Damaged lines are skipped and reported as warnings in sum; only an
// unreadable directory or file is an error.
func readRun(run checkpoints.Run) (*runData, error) {
	fi, err := os.Stat(run.Dir)
	if err != nil {
		return nil, fmt.Errorf("report: run directory: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("report: run directory %s is not a directory", run.Dir)
	}
	d := &runData{}
	if err := d.readConfig(run); err != nil {
		return nil, err
	}
	if err := readJSONLines(d, run.Log(checkpoints.TrainLog), func(e checkpoints.TrainEntry) { d.train = append(d.train, e) }); err != nil {
		return nil, err
	}
	if err := readJSONLines(d, run.Log(checkpoints.EvalLog), func(e checkpoints.EvalEntry) { d.eval = append(d.eval, e) }); err != nil {
		return nil, err
	}
	if err := readJSONLines(d, run.Log(checkpoints.GatingLog), func(e checkpoints.GatingEntry) { d.gating = append(d.gating, e) }); err != nil {
		return nil, err
	}
	sort.SliceStable(d.train, func(i, j int) bool { return d.train[i].Time.Before(d.train[j].Time) })
	sort.SliceStable(d.eval, func(i, j int) bool { return d.eval[i].Time.Before(d.eval[j].Time) })
	sort.SliceStable(d.gating, func(i, j int) bool { return d.gating[i].Time.Before(d.gating[j].Time) })
	for _, e := range d.train {
		d.seen(e.Time)
	}
	for _, e := range d.eval {
		d.seen(e.Time)
	}
	for _, e := range d.gating {
		d.seen(e.Time)
	}
	if err := d.readGames(run.Games()); err != nil {
		return nil, err
	}
	if err := d.readStrength(run); err != nil {
		return nil, err
	}
	d.readLearning(run)
	sort.Slice(d.games, func(i, j int) bool { return d.games[i].end < d.games[j].end })
	return d, nil
}

// readConfig takes the variant and the resignation threshold from
// config.json, if there is one.
func (d *runData) readConfig(run checkpoints.Run) error {
	c, err := runconfig.Read(run)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		d.warn(fmt.Sprintf("%s: %v", run.Config(), err))
		return nil
	}
	d.variant = c.Variant
	th := c.Self.ResignThreshold
	d.resignThreshold = &th
	return nil
}

// readGames reads every games file (*.jsonl, not hidden: an atomic
// writer's temporary files start with a dot), each whole file by one of
// GOMAXPROCS workers into its own part, then merges the parts in file
// order.
func (d *runData) readGames(dir string) error {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	var paths []string
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() && !strings.HasPrefix(name, ".") && strings.HasSuffix(name, checkpoints.RecordExt) {
			paths = append(paths, filepath.Join(dir, name))
		}
	}
	parts := make([]*runData, len(paths))
	errs := make([]error, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(paths)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				part := &runData{}
				errs[i] = readJSONLines(part, paths[i], part.addGame)
				parts[i] = part
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, part := range parts {
		d.merge(part)
	}
	return nil
}

// merge adds the games, counts and warnings of a part read from one
// games file.
func (d *runData) merge(p *runData) {
	s, ps := &d.sum, &p.sum
	s.GameFiles++
	s.Games += ps.Games
	s.Plies += ps.Plies
	s.SenteWins += ps.SenteWins
	s.GoteWins += ps.GoteWins
	s.Draws += ps.Draws
	s.Resignations += ps.Resignations
	s.NoResignGames += ps.NoResignGames
	s.ResignChecked += ps.ResignChecked
	s.FalsePositives += ps.FalsePositives
	s.Undated += ps.Undated
	s.Truncated += ps.Truncated
	s.SkippedLines += ps.SkippedLines
	for _, w := range ps.Warnings {
		d.warn(w)
	}
	s.WarningCount += ps.WarningCount - len(ps.Warnings)
	d.games = append(d.games, p.games...)
	d.seen(p.start)
	d.seen(p.end)
	if d.variant == "" {
		d.variant = p.variant
	}
}

// addGame counts one record and keeps its gamePoint.
func (d *runData) addGame(g gameLine) {
	s := &d.sum
	s.Games++
	s.Plies += int64(g.Plies)
	switch g.Result {
	case "1-0":
		s.SenteWins++
	case "0-1":
		s.GoteWins++
	case "1/2-1/2":
		s.Draws++
	}
	if g.Reason == "resignation" {
		s.Resignations++
	}
	if d.variant == "" {
		d.variant = g.Variant
	}
	p := gamePoint{plies: int32(g.Plies)}
	if !g.ResignAllowed {
		s.NoResignGames++
		if g.WouldResign != nil {
			p.checked = true
			rec := selfplay.Record{Winner: g.Winner, WouldResign: g.WouldResign}
			p.falsePo = rec.FalsePositive()
			s.ResignChecked++
			if p.falsePo {
				s.FalsePositives++
			}
		}
	}
	if g.Started.IsZero() {
		s.Undated++
		return
	}
	end := g.Started.Add(time.Duration(g.Seconds * float64(time.Second)))
	d.seen(g.Started)
	d.seen(end)
	p.end = end.UnixNano()
	d.games = append(d.games, p)
}

// seen widens the run's time span to t (the zero time is no time).
func (d *runData) seen(t time.Time) {
	if t.IsZero() {
		return
	}
	if d.start.IsZero() || t.Before(d.start) {
		d.start = t
	}
	if d.end.IsZero() || t.After(d.end) {
		d.end = t
	}
}

// warn records a warning (the first maxWarnings word for word).
func (d *runData) warn(msg string) {
	if len(d.sum.Warnings) < maxWarnings {
		d.sum.Warnings = append(d.sum.Warnings, msg)
	}
	d.sum.WarningCount++
}

// readJSONLines decodes each line of a JSON-lines file into a T and hands
// it to each. A missing file is empty. A line that does not decode is
// skipped: silently when it is the last one (cut short by a crash; counted
// in Summary.Truncated), with a warning naming file and line otherwise.
func readJSONLines[T any](d *runData, path string, each func(T)) error {
	err := checkpoints.ScanLines(path, each, func(line int, last bool, err error) {
		if last {
			d.sum.Truncated++ // a cut last line: the run is writing, or was killed
			return
		}
		d.warn(fmt.Sprintf("%s:%d: skipped: %v", path, line, err))
		d.sum.SkippedLines++
	})
	if err != nil {
		d.warn(err.Error())
	}
	return nil
}
