package selfplay

import (
	"math"
	"testing"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/rules"
)

// handGame is a Sho game of 19 plies: Gote's pawn takes on e5 at ply 3
// (Sente's material -2 from position 4 on), quiet pawn and gold moves,
// and Sente's bishop retakes at ply 18 (material 0 again at the end).
var handGame = []string{"e3e4", "e7e6", "e4e5", "e6e5", "a3a4", "a7a6", "b3b4", "b7b6", "c3c4", "c7c6",
	"g3g4", "g7g6", "h3h4", "h7h6", "i3i4", "i7i6", "d1d2", "d9d8", "b2e5"}

// handValue is the root value of ply j's search for Sente: the searches
// of the hand-built game report j/20 for Sente (so -j/20 at Gote's plies).
func handValue(j int) float64 { return float64(j) / 20 }

// handTrace plays handGame into a trace as self-play would: a sample at
// every ply, full searches except at plies 1, 4, 7, ... whose policy is
// one entry with index 100+j.
func handTrace(t *testing.T) (*trace, []encode.Sample, *rules.Game) {
	t.Helper()
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	g := rules.NewGame(r.StartPosition())
	tr := newTrace(r)
	var samples []encode.Sample
	for j, m := range handGame {
		p := g.Position()
		tr.position(p)
		pl := plyTrace{side: p.SideToMove(), value: float32(signFor(rules.Sente, p.SideToMove()) * handValue(j)),
			sample: len(samples)}
		if j%3 != 1 {
			pl.policy = []encode.PolicyEntry{{Index: uint32(100 + j), Prob: 1}}
		}
		s := encode.NewSample(g, 1)
		s.FullSearch, s.Policy, s.RootValue = pl.policy != nil, pl.policy, pl.value
		samples = append(samples, s)
		tr.plies = append(tr.plies, pl)
		if _, err := g.PlayString(m); err != nil {
			t.Fatalf("ply %d %s: %v", j, m, err)
		}
	}
	tr.position(g.Position())
	return tr, samples, g
}

// wantShortValue is the short-term value target by brute force: the
// weighted mean over many plies ahead, z past the last search.
func wantShortValue(i, h int, c rules.Color, z float64) float64 {
	var sum, weights float64
	for k := 0; k < 5000; k++ {
		x := z
		if j := i + k; j < len(handGame) {
			x = signFor(rules.Sente, c) * handValue(j)
		}
		w := math.Pow(1-1/float64(h), float64(k))
		sum += w * x
		weights += w
	}
	return sum / weights
}

// TestLabelsHandBuiltGame checks every label of every sample of a known
// game, for a truncated end and a decisive one.
func TestLabelsHandBuiltGame(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	ends := []struct {
		name      string
		result    rules.Result
		truncated bool
		senteZ    float64 // the game's value for Sente
	}{
		{"truncated", rules.Result{Outcome: rules.Draw, Reason: rules.ReasonMaxPlies}, true, handValue(18)},
		{"gote wins", rules.WinFor(rules.Gote, rules.ReasonResign), false, -1},
	}
	for _, e := range ends {
		tr, samples, g := handTrace(t)
		start := r.StartPosition()
		if tr.army != 119 || r.PieceValues()[start.At(rules.Sq(4, 0)).Kind()] != 119 {
			t.Fatalf("material scale %v; want 119, the king's value", tr.army)
		}
		end := &gameEnd{result: e.result, truncated: e.truncated, final: g.Position()}
		if e.truncated {
			end.endValue, end.endSide = handValue(18), rules.Sente // ply 18 is Sente's
		}
		tr.finish(samples, end)
		for i := range samples {
			checkHandLabels(t, e.name, i, &samples[i], g.Position(), e.truncated, e.senteZ)
		}
	}
}

// checkHandLabels checks the labels of sample i of the hand-built game.
func checkHandLabels(t *testing.T, end string, i int, s *encode.Sample, final *rules.Position, truncated bool, senteZ float64) {
	t.Helper()
	r := final.Rules()
	c := rules.Sente
	if i%2 == 1 {
		c = rules.Gote
	}
	sign := signFor(rules.Sente, c)
	z := sign * senteZ
	wantOutcome := encode.Win
	if z < 0 {
		wantOutcome = encode.Loss
	}
	if truncated {
		wantOutcome = encode.Draw
	}
	if s.Truncated != truncated || s.Outcome != wantOutcome || (truncated && !near(float64(s.EndValue), z)) {
		t.Errorf("%s ply %d: truncated %v outcome %v end value %v; want %v %v %v", end, i, s.Truncated, s.Outcome, s.EndValue, truncated, wantOutcome, z)
	}
	a := s.Aux
	var wantReply []encode.PolicyEntry
	if i+1 < len(handGame) && (i+1)%3 != 1 {
		wantReply = []encode.PolicyEntry{{Index: uint32(101 + i), Prob: 1}}
	}
	if len(a.ReplyPolicy) != len(wantReply) || (len(wantReply) == 1 && a.ReplyPolicy[0] != wantReply[0]) {
		t.Errorf("%s ply %d: reply policy %v, want %v", end, i, a.ReplyPolicy, wantReply)
	}
	// Sente's material: 0 before position 4, -2 from 4 to 18, 0 at the end (19)
	senteAt := func(pos int) float64 {
		if pos >= 4 && pos <= 18 {
			return -2
		}
		return 0
	}
	ahead := min(i+encode.AuxAheadPlies, len(handGame))
	if !near(float64(a.MaterialEnd), 0) || !near(float64(a.MaterialAhead), sign*senteAt(ahead)/119) {
		t.Errorf("%s ply %d: material end %v ahead %v; want 0, %v", end, i, a.MaterialEnd, a.MaterialAhead, sign*senteAt(ahead)/119)
	}
	for _, sq := range r.Squares() {
		want := int8(0)
		if pc := final.At(sq); pc.IsPiece() {
			want = int8(signFor(pc.Color(), c))
		}
		if got := a.Ownership[r.Index(sq)]; got != want {
			t.Fatalf("%s ply %d: ownership of %s is %d, want %d", end, i, r.SquareName(sq), got, want)
		}
	}
	for h, horizon := range encode.ShortValueHorizons {
		if want := wantShortValue(i, horizon, c, z); !near(float64(a.ShortValue[h]), want) {
			t.Errorf("%s ply %d: short value over %d plies %v, want %v", end, i, horizon, a.ShortValue[h], want)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-5 }

// TestCappedValue: a truncated game's value target is the final search's
// value, blended by CappedMaterialWeight with tanh(scale·material) of the
// position at the cap, for each side.
func TestCappedValue(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	tr := newTrace(r)
	tr.balance = []float64{0, -tr.army / 4} // Sente a quarter of its army down at the cap
	lead := math.Tanh(3 * 0.25)
	cases := []struct {
		w, search, want float64
		side            rules.Color
	}{
		{0, 0.3, 0.3, rules.Sente},
		{1, 0.3, -lead, rules.Sente},
		{1, 0.3, lead, rules.Gote},
		{0.5, -0.2, 0.5*-0.2 + 0.5*lead, rules.Gote},
	}
	for _, c := range cases {
		cfg := DefaultConfig(rules.Sho)
		cfg.CappedMaterialWeight, cfg.CappedQuiescence = c.w, false
		gm := &game{cfg: &cfg, tr: tr}
		if got := gm.cappedValue(c.side, c.search); !near(got, c.want) {
			t.Errorf("weight %v, %v, search %v: %v, want %v", c.w, c.side, c.search, got, c.want)
		}
	}
	bad := DefaultConfig(rules.Sho)
	bad.Run = checkpoints.Run{Dir: t.TempDir()}
	bad.CappedQuiescence = false
	bad.CappedMaterialWeight, bad.CappedMaterialScale = 0.5, 0
	if bad.Validate() == nil {
		t.Error("a material weight with no scale validated")
	}
	bad.CappedMaterialWeight, bad.CappedMaterialScale = 1.5, 3
	if bad.Validate() == nil {
		t.Error("a material weight of 1.5 validated")
	}
}

// TestCappedQuiescence: with CappedQuiescence (the default) the material
// at the cap is resolved by the capture search: a gold hanging to Sente's
// rook at the cap counts for Sente, not for Gote as the static count has
// it.
func TestCappedQuiescence(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	g, err := r.NewGameFromSFEN("4k4/9/9/9/2g6/9/9/2R6/4K4 b - 1")
	if err != nil {
		t.Fatal(err)
	}
	values := r.PieceValues()
	rook, gold := values[r.KindByFEN("R")], values[r.KindByFEN("G")]
	static := math.Tanh(3 * (rook - gold) / r.Army())
	resolved := math.Tanh(3 * rook / r.Army())
	tr := newTrace(r)
	tr.position(g.Position())
	for _, c := range []struct {
		qs   bool
		side rules.Color
		want float64
	}{
		{false, rules.Sente, static}, {true, rules.Sente, resolved}, {true, rules.Gote, -resolved},
	} {
		cfg := DefaultConfig(rules.Sho)
		cfg.CappedQuiescence = c.qs
		gm := &game{cfg: &cfg, tr: tr, g: g}
		if got := gm.cappedValue(c.side, 0); math.Abs(got-c.want) > 1e-2 {
			t.Errorf("quiescence %v, %v: %v, want %v", c.qs, c.side, got, c.want)
		}
	}
}
