package probe

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/mcts/eval"
	"chuzero/mcts/qsearch"
	"chuzero/rules"
)

var sho = rules.MustNew(rules.DefaultConfig(rules.Sho))

// playGame plays a seeded random Sho game of up to plies plies and
// returns a sample per position, every second one full-searched with its
// whole target on the move played; the game is decisive (a Sente win) or
// capped as asked.
func playGame(t *testing.T, id uint64, plies int, capped bool) []encode.Sample {
	t.Helper()
	spec := encode.MustSpec(rules.Sho, encode.DefaultOptions())
	rng := rand.New(rand.NewPCG(id, 7))
	g := rules.NewGame(sho.StartPosition())
	var out []encode.Sample
	for i := 0; i < plies && !g.Result().Over(); i++ {
		s := encode.NewSample(g, id)
		moves := g.LegalMoves()
		m := moves[rng.IntN(len(moves))]
		if i%2 == 0 {
			s.FullSearch = true
			s.Policy = []encode.PolicyEntry{{Index: uint32(spec.Index(g.Position(), m)), Prob: 1}}
		}
		switch {
		case capped:
			s.Truncated, s.Outcome, s.EndValue = true, encode.Draw, float32(rng.Float64()-0.5)
		case g.Position().SideToMove() == rules.Sente:
			s.Outcome = encode.Win
		default:
			s.Outcome = encode.Loss
		}
		out = append(out, s)
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func writeSamples(t *testing.T, path string, samples []encode.Sample) {
	t.Helper()
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
}

func TestReadCountsGamesAndSkipsBadFiles(t *testing.T) {
	dir := t.TempDir()
	writeSamples(t, filepath.Join(dir, "a"+encode.SampleFileExt), playGame(t, 1, 40, false))
	writeSamples(t, filepath.Join(dir, "b"+encode.SampleFileExt), append(playGame(t, 2, 30, true), playGame(t, 3, 20, true)...))
	// a damaged file and a FIFO: counted, never fatal, the FIFO never opened
	if err := os.WriteFile(filepath.Join(dir, "c"+encode.SampleFileExt), []byte("not a sample file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "d"+encode.SampleFileExt), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Every, cfg.Positions = 5, 1000
	g, ps, err := Read(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := Games{Files: 3, BadFiles: 2, Samples: 90, Games: 3, Decisive: 1, Capped: 2, Plies: 90}
	if g != want {
		t.Fatalf("games %+v, want %+v", g, want)
	}
	if len(ps) != 8+6+4 {
		t.Fatalf("%d positions at every 5th ply, want 18", len(ps))
	}
	for _, s := range ps {
		if s.Ply%5 != 0 {
			t.Fatalf("position at ply %d", s.Ply)
		}
	}
	cfg.Positions = 7
	cfg.HeldOut = func(id uint64) bool { return id != 2 }
	if _, ps, _ = Read(dir, cfg); len(ps) != 7 {
		t.Fatalf("%d positions, want the bound 7", len(ps))
	}
	for _, s := range ps {
		if s.GameID == 2 {
			t.Fatal("a position of a game not held out")
		}
	}
}

// oracle answers with the capture search: all the prior on the move it
// scores best (or worst, when worst is set) and its value as the value.
type oracle struct {
	worst bool
	q     *qsearch.Search
}

func (o *oracle) Evaluate(req *eval.Request) error {
	g := rules.NewGame(req.Pos)
	pick, score := 0, int32(0)
	for i, m := range req.Moves {
		g.Push(m)
		c := -o.q.Value(g)
		g.Undo()
		if i == 0 || (c > score) != o.worst && c != score {
			pick, score = i, c
		}
	}
	for i := range req.Priors {
		req.Priors[i] = 0
	}
	req.Priors[pick] = 1
	v := float32(o.q.Scaled(g, 3))
	req.WDL = [3]float32{(1 + v) / 2, 0, (1 - v) / 2}
	return nil
}

type uniform struct{}

func (uniform) Evaluate(req *eval.Request) error {
	for i := range req.Priors {
		req.Priors[i] = 1 / float32(len(req.Priors))
	}
	req.WDL = [3]float32{0, 1, 0}
	return nil
}

func probed(t *testing.T) ([]Position, Config) {
	t.Helper()
	dir := t.TempDir()
	var samples []encode.Sample
	for id := uint64(1); id <= 6; id++ {
		samples = append(samples, playGame(t, id, 80, id%2 == 0)...)
	}
	writeSamples(t, filepath.Join(dir, "a"+encode.SampleFileExt), samples)
	cfg := DefaultConfig()
	_, chosen, err := Read(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := Prepare(chosen, encode.MustSpec(rules.Sho, encode.DefaultOptions()), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return ps, cfg
}

func TestMeasureKnownEvaluators(t *testing.T) {
	ps, cfg := probed(t)
	if len(ps) < 40 {
		t.Fatalf("only %d positions", len(ps))
	}
	best, err := Measure("oracle", &oracle{q: qsearch.New(sho, cfg.Search.QuiescenceDepth)}, ps, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if best.CaptureAgree != 1 || best.CaptureRank != 1 || best.Blunders != 0 || best.Entropy != 0 || best.CaptureMass != 1 {
		t.Fatalf("the capture-search oracle: %+v", best)
	}
	for i := range ps {
		if s := ps[i].Sample; s.Truncated != (ps[i].Target == float64(s.EndValue) && ps[i].Result == 0) {
			t.Fatalf("game %d ply %d: target %v, result %v", s.GameID, s.Ply, ps[i].Target, ps[i].Result)
		}
	}
	if math.Abs(best.CorrCapture-1) > 1e-6 {
		t.Fatalf("the oracle's value is the capture value, correlation %v", best.CorrCapture)
	}
	worst, _ := Measure("worst", &oracle{worst: true, q: qsearch.New(sho, cfg.Search.QuiescenceDepth)}, ps, cfg)
	blunders := 0
	for i := range ps {
		lo := ps[i].Capture[0]
		for _, c := range ps[i].Capture {
			lo = min(lo, c)
		}
		if int64(ps[i].Best())-int64(lo) >= int64(cfg.Blunder) {
			blunders++
		}
	}
	if blunders == 0 || worst.Blunders != float64(blunders)/float64(len(ps)) {
		t.Fatalf("worst-move blunders %v, want %d of %d", worst.Blunders, blunders, len(ps))
	}
	u, _ := Measure("uniform", uniform{}, ps, cfg)
	var legal float64
	for i := range ps {
		legal += float64(len(ps[i].Moves))
	}
	legal /= float64(len(ps))
	if math.Abs(u.Entropy-u.MaxEntropy) > 1e-5 || math.Abs(u.Effective-legal) > 1e-3 || u.CorrResult != 0 {
		t.Fatalf("uniform: entropy %v of %v, effective %v of %v legal, corr %v", u.Entropy, u.MaxEntropy, u.Effective, legal, u.CorrResult)
	}
	// every decisive sample's result is ±1, every capped one's 0: the draw
	// evaluator's error is the decisive share of the positions
	var decisive float64
	for i := range ps {
		decisive += math.Abs(ps[i].Result)
	}
	if want := decisive / float64(len(ps)); math.Abs(u.MSE-want) > 1e-9 {
		t.Fatalf("uniform MSE %v, want %v", u.MSE, want)
	}
}

// residualDraw calls every position a draw, as a residual of the capture
// value with weight 0.75: it plays the capture value, scaled.
type residualDraw struct{ uniform }

func (r residualDraw) Evaluate(req *eval.Request) error {
	req.Residual = 0.75
	return r.uniform.Evaluate(req)
}

// The played value: the oracle's match blend is the capture value, and a
// residual that adds nothing plays the capture value too (scaled), so both
// correlate with the result as the capture value does; the residual's
// weight is reported.
func TestMeasurePlayedValue(t *testing.T) {
	ps, cfg := probed(t)
	best, err := Measure("oracle", &oracle{q: qsearch.New(sho, cfg.Search.QuiescenceDepth)}, ps, cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Measure("residual", residualDraw{}, ps, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if c := best.CorrCaptureResult; c == 0 || math.Abs(best.CorrPlayed-c) > 1e-6 || math.Abs(res.CorrPlayed-c) > 1e-6 {
		t.Fatalf("played value: oracle %v, residual %v, want the capture value's %v", best.CorrPlayed, res.CorrPlayed, c)
	}
	if best.Residual != 0 || res.Residual != 0.75 || res.CorrResult != 0 {
		t.Fatalf("residual weights %v and %v, the residual draw's correlation %v", best.Residual, res.Residual, res.CorrResult)
	}
}

func TestCaptureScoresAHangingPiece(t *testing.T) {
	// Sente's rook on 1i takes Gote's undefended gold on 1e
	p, err := sho.ParseSFEN("4k4/9/9/9/8g/9/9/9/4K3R b - 1")
	if err != nil {
		t.Fatal(err)
	}
	s := encode.NewSample(rules.NewGame(p), 1)
	ps, err := Prepare([]encode.Sample{s}, encode.MustSpec(rules.Sho, encode.DefaultOptions()), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	pos := &ps[0]
	tb := qsearch.NewTable(sho)
	var captures int
	for i, m := range pos.Moves {
		if pos.Capture[i] == pos.Best() {
			captures++
			if got := pos.Pos.USI(m); !strings.HasSuffix(got, "1e") {
				t.Errorf("best capture-search move %s, want the rook taking on 1e", got)
			}
		}
	}
	if captures != 1 || pos.Value <= 0 || pos.Best() < tb.Balance(&pos.Pos) {
		t.Fatalf("capture scores %v, value %v", pos.Capture, pos.Value)
	}
}

func TestWriteTable(t *testing.T) {
	ps, cfg := probed(t)
	u, _ := Measure("step-0", uniform{}, ps, cfg)
	r := Report{Every: cfg.Every, Positions: len(ps), Targets: TargetsOf(ps), Results: []Result{u, u}}
	var b strings.Builder
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"effective moves", "value in [-1.0,-0.6)", "first move = capture-best", "step-0"} {
		if !strings.Contains(out, want) {
			t.Fatalf("table lacks %q:\n%s", want, out)
		}
	}
	if r.Targets.N == 0 || r.Targets.TopMass != 1 || r.Targets.Entropy != 0 {
		t.Fatalf("one-hot targets: %+v", r.Targets)
	}
}

func TestSpread(t *testing.T) {
	var l []checkpoints.Entry
	for _, s := range []int64{0, 100, 200, 300, 450, 800, 1000} {
		l = append(l, checkpoints.Entry{Step: s})
	}
	steps := func(es []checkpoints.Entry) []int64 {
		var out []int64
		for _, e := range es {
			out = append(out, e.Step)
		}
		return out
	}
	for _, c := range []struct {
		n    int
		want []int64
	}{
		{1, []int64{1000}},
		{2, []int64{0, 1000}},
		{3, []int64{0, 450, 1000}},
		{4, []int64{0, 300, 800, 1000}},
		{9, []int64{0, 100, 200, 300, 450, 800, 1000}},
	} {
		if got := steps(Spread(l, c.n)); !slices.Equal(got, c.want) {
			t.Errorf("Spread(%d) = %v, want %v", c.n, got, c.want)
		}
	}
}
