package model

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"chuzero/encode"
	"chuzero/rules"
)

// gameSamples returns the samples of a random game of v of the given
// plies, with uniform policies on every other ply.
func gameSamples(t *testing.T, v rules.VariantID, seed uint64, plies int) []encode.Sample {
	t.Helper()
	spec := encode.MustSpec(v, encode.DefaultOptions())
	r := rules.MustNew(rules.DefaultConfig(v))
	rng := rand.New(rand.NewPCG(seed, 9))
	g := rules.NewGame(r.StartPosition())
	var out []encode.Sample
	for i := 0; i < plies && !g.Result().Over(); i++ {
		s := encode.NewSample(g, seed)
		if s.FullSearch = i%2 == 0; s.FullSearch {
			idx, _ := spec.LegalIndices(g.Position(), g.LegalMoves(), nil)
			for _, x := range idx {
				s.Policy = append(s.Policy, encode.PolicyEntry{Index: uint32(x), Prob: 1 / float32(len(idx))})
			}
		}
		s.Outcome = encode.Outcome(rng.IntN(3))
		out = append(out, s)
		moves := g.LegalMoves()
		g.Play(moves[rng.IntN(len(moves))])
	}
	return out
}

// writeNamed writes samples as the sample file name in dir.
func writeNamed(t *testing.T, dir, name string, samples []encode.Sample) string {
	t.Helper()
	path := filepath.Join(dir, name+encode.SampleFileExt)
	w, err := encode.CreateSampleFile(path, rules.Sho)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteChunk(samples); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func smallWindow() ReplayConfig {
	cfg := DefaultReplayConfig()
	cfg.WindowMin, cfg.WindowMax, cfg.HoldOut = 60, 150, 0.1
	cfg.HoldOutMax = 20
	return cfg
}

func openReplay(t *testing.T, dir string, cfg ReplayConfig) *Replay {
	t.Helper()
	r, err := NewReplay(dir, encode.MustSpec(rules.Sho, encode.DefaultOptions()), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func ids(list []encode.Sample) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = fmt.Sprintf("%x/%d", s.GameID, s.Ply)
	}
	return out
}

// A trainer that restarts over many files loads them newest first and
// holds the window alone, and it is the window of a trainer that read
// them one at a time.
func TestReplayNewestFirst(t *testing.T) {
	dir := t.TempDir()
	cfg := smallWindow()
	cfg.KeepFiles = true
	live := openReplay(t, dir, cfg)
	for i := range 40 {
		writeNamed(t, dir, fmt.Sprintf("f%04d", i), gameSamples(t, rules.Sho, uint64(i+1), 12))
		if _, err := live.Refresh(); err != nil {
			t.Fatal(err)
		}
		if w := int(cfg.windowAt(live.Total())); len(live.samples) > w {
			t.Fatalf("after file %d: %d samples held, the window is %d", i, len(live.samples), w)
		}
	}
	restarted := openReplay(t, dir, cfg)
	if _, err := restarted.Refresh(); err != nil {
		t.Fatal(err)
	}
	if restarted.Total() != live.Total() || restarted.Games() != live.Games() || restarted.heldN != live.heldN {
		t.Fatalf("restart counts %d samples %d games %d held, live %d %d %d", restarted.Total(), restarted.Games(),
			restarted.heldN, live.Total(), live.Games(), live.heldN)
	}
	a, b := ids(restarted.samples), ids(live.samples)
	if fmt.Sprint(a) != fmt.Sprint(b) || fmt.Sprint(ids(restarted.held)) != fmt.Sprint(ids(live.held)) {
		t.Fatalf("restarted window differs:\n%v\n%v", a, b)
	}
	if w := restarted.Window(); w != int(cfg.windowAt(restarted.Total())) || w != len(restarted.samples) || w >= int(restarted.Total()) {
		t.Errorf("window %d of %d samples held, %d loaded", w, len(restarted.samples), restarted.Total())
	}
}

// corrupted returns a copy of s broken in one way a hostile or buggy
// writer could.
func corrupted(s encode.Sample, how int) encode.Sample {
	s.Policy = append([]encode.PolicyEntry(nil), s.Policy...)
	switch how {
	case 0:
		s.SFEN = "this is no position"
	case 1:
		s.RootValue = float32(math.NaN())
	case 2:
		s.EndValue = float32(math.Inf(1))
	case 3:
		s.Policy = []encode.PolicyEntry{{Index: 1 << 30, Prob: 1}}
	case 4:
		s.Policy = []encode.PolicyEntry{{Index: 3, Prob: 7}}
	case 5:
		s.RootValue = 2
	case 6:
		s.History = []encode.HistMove{{From: 250, Mid: 255, To: 3}}
	}
	return s
}

// Invalid samples are skipped and counted, the rest of their file loads,
// and training batches keep coming.
func TestReplayInvalidSamples(t *testing.T) {
	dir := t.TempDir()
	cfg := smallWindow()
	cfg.HoldOut = 0
	var samples []encode.Sample
	bad := 0
	for i := range 6 {
		g := gameSamples(t, rules.Sho, uint64(100+i), 10)
		for j := range g {
			if j%3 == 1 {
				g[j] = corrupted(g[j], bad%7)
				bad++
			}
		}
		samples = append(samples, g...)
	}
	writeNamed(t, dir, "hostile", samples)
	r := openReplay(t, dir, cfg)
	_, err := r.Refresh()
	var inv *InvalidSamplesError
	if !errors.As(err, &inv) || inv.Count != bad || r.Invalid() != int64(bad) {
		t.Fatalf("Refresh: %v (Invalid %d), want %d invalid samples", err, r.Invalid(), bad)
	}
	if r.Total() != int64(len(samples)-bad) || len(r.Corrupt()) != 0 {
		t.Errorf("%d samples loaded of %d good, %d files corrupt", r.Total(), len(samples)-bad, len(r.Corrupt()))
	}
	// one that slipped past validation (here: put in by hand) is skipped when drawn
	r.samples[0].SFEN = "garbage"
	rng := rand.New(rand.NewPCG(3, 4))
	var b Batch
	for range 20 {
		if err := r.FillBatch(rng, &b, 16); err != nil {
			t.Fatal(err)
		}
	}
	if r.Invalid() == int64(bad) {
		t.Errorf("the bad sample in the window was never drawn or not counted")
	}
}

// Files older than the window and its margin are deleted, their counts
// kept, so a restart sees the same totals; KeepFiles keeps them.
func TestReplayPrune(t *testing.T) {
	for _, keep := range []bool{false, true} {
		dir := t.TempDir()
		cfg := smallWindow()
		cfg.KeepFiles = keep
		live := openReplay(t, dir, cfg)
		for i := range 60 {
			writeNamed(t, dir, fmt.Sprintf("f%04d", i), gameSamples(t, rules.Sho, uint64(i+1), 12))
			if _, err := live.Refresh(); err != nil {
				t.Fatal(err)
			}
		}
		left, _ := filepath.Glob(filepath.Join(dir, "*"+encode.SampleFileExt))
		if keep {
			if len(left) != 60 || live.Pruned() != 0 {
				t.Errorf("KeepFiles: %d files left, %d pruned", len(left), live.Pruned())
			}
			continue
		}
		if live.Pruned() == 0 || int(live.Pruned())+len(left) != 60 || len(left) != live.Files() {
			t.Fatalf("%d pruned, %d left, %d loaded", live.Pruned(), len(left), live.Files())
		}
		var inLeft int64
		for _, f := range left {
			inLeft += live.files[f].Train
		}
		if w := int64(float64(cfg.windowAt(live.Total())) * (1 + cfg.PruneMargin)); inLeft < w {
			t.Errorf("the files left hold %d training samples, less than the window and margin %d", inLeft, w)
		}
		restarted := openReplay(t, dir, cfg)
		if _, err := restarted.Refresh(); err != nil {
			t.Fatal(err)
		}
		if restarted.Total() != live.Total() || restarted.Games() != live.Games() || fmt.Sprint(ids(restarted.samples)) != fmt.Sprint(ids(live.samples)) {
			t.Errorf("after pruning, a restart has %d samples %d games, the live window %d %d", restarted.Total(), restarted.Games(), live.Total(), live.Games())
		}
	}
}

// A crash in the middle of pruning neither loses nor doubles a count: a
// pending file still present is counted as a file, a gone one by the
// ledger.
func TestPruneLedgerCrash(t *testing.T) {
	dir := t.TempDir()
	cfg := smallWindow()
	cfg.KeepFiles, cfg.HoldOut = true, 0
	present := writeNamed(t, dir, "f0001", gameSamples(t, rules.Sho, 1, 12))
	writeNamed(t, dir, "f0002", gameSamples(t, rules.Sho, 2, 12))
	l := pruneLedger{Files: 3, Samples: 30, Games: 3, Through: "f0000.samples",
		Pending: []prunedEntry{{Name: filepath.Base(present), Samples: 12, Game: 1}, {Name: "gone.samples", Samples: 5, Game: 1}}}
	if err := l.write(dir); err != nil {
		t.Fatal(err)
	}
	r := openReplay(t, dir, cfg)
	if _, err := r.Refresh(); err != nil {
		t.Fatal(err)
	}
	if r.Total() != 30+5+24 || r.Games() != 3+1+2 || r.Pruned() != 4 {
		t.Errorf("after a crash mid-prune: %d samples %d games %d pruned, want 59 6 4", r.Total(), r.Games(), r.Pruned())
	}
	os.WriteFile(LedgerPath(dir), []byte("{garbage"), 0o644)
	r = openReplay(t, dir, cfg)
	if _, err := r.Refresh(); err == nil || r.Total() != 24 {
		t.Errorf("a damaged ledger: %v, %d samples (want an error and the 24 present)", err, r.Total())
	}
}

// A restart over ten windows of samples holds about what a restart over
// one window holds: the replay window, whatever the run's age.
func TestReplayRestartMemory(t *testing.T) {
	cfg := smallWindow()
	cfg.WindowMin, cfg.WindowMax, cfg.HoldOut, cfg.KeepFiles = 2000, 2000, 0, true
	base := gameSamples(t, rules.Sho, 11, 40)
	fill := func(files int) string {
		dir := t.TempDir()
		for i := range files {
			chunk := make([]encode.Sample, 0, 200)
			for len(chunk) < 200 {
				for _, s := range base {
					s.GameID = uint64(i*1000 + len(chunk)/len(base))
					chunk = append(chunk, s)
				}
			}
			writeNamed(t, dir, fmt.Sprintf("f%05d", i), chunk[:200])
		}
		return dir
	}
	heap := func(dir string) (uint64, *Replay) {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r := openReplay(t, dir, cfg)
		if _, err := r.Refresh(); err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		return after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc), r
	}
	one, r1 := heap(fill(10))
	ten, r10 := heap(fill(100))
	if r10.Total() != 10*r1.Total() || r10.Window() != r1.Window() {
		t.Fatalf("totals %d and %d, windows %d and %d", r1.Total(), r10.Total(), r1.Window(), r10.Window())
	}
	t.Logf("heap after loading one window: %d KiB, ten windows: %d KiB", one>>10, ten>>10)
	if ten > one*3/2+1<<20 {
		t.Errorf("ten windows of samples take %d KiB at restart, one window %d KiB", ten>>10, one>>10)
	}
	runtime.KeepAlive(r1)
	runtime.KeepAlive(r10)
}
