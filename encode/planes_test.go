package encode

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"chuzero/rules"
)

// planeDump writes the non-zero entries of every plane as text: constant
// planes as one value, the others as the squares set (in the side to move's
// view, algebraic as if Sente).
func planeDump(s *Spec, planes []float32) string {
	hw := s.Height * s.Width
	var b strings.Builder
	for i, name := range s.PlaneNames() {
		p := planes[i*hw : (i+1)*hw]
		var on []string
		constant := true
		for j, v := range p {
			if v != p[0] {
				constant = false
			}
			if v != 0 {
				on = append(on, fmt.Sprintf("%c%d", 'a'+j%s.Width, j/s.Width+1))
			}
		}
		switch {
		case len(on) == 0:
			continue
		case constant:
			fmt.Fprintf(&b, "%3d %s: all %g\n", i, name, p[0])
		default:
			fmt.Fprintf(&b, "%3d %s: %s\n", i, name, strings.Join(on, " "))
		}
	}
	return b.String()
}

// TestPlanesGolden pins the plane layout on a Chu position with Gote to
// move, a counter-strike square and history (run with -update to rewrite).
func TestPlanesGolden(t *testing.T) {
	c := rules.DefaultConfig(rules.Chu)
	c.BareKing = rules.BareKingRuleOff
	r := rules.MustNew(c)
	g, err := r.NewGameFromSFEN("11k/12/12/12/8n3/12/4o7/5B6/1r2N7/4G7/12/K11 b - 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"e3f3", "b4b3", "f5i8"} { // the bishop takes the Lion: Gote to move, counter-strike on i8
		if _, err := g.PlayString(m); err != nil {
			t.Fatal(err)
		}
	}
	spec := MustSpec(rules.Chu, DefaultOptions())
	var hist [MaxHistory]rules.Move
	st := StateOf(g, hist[:])
	planes := make([]float32, spec.PlaneSize())
	if err := spec.Encode(&st, planes); err != nil {
		t.Fatal(err)
	}
	got := g.Position().SFEN() + "\n" + planeDump(spec, planes)
	golden := filepath.Join("testdata", "planes_chu.golden")
	if *update {
		os.WriteFile(golden, []byte(got), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("plane dump changed (-update rewrites it):\n%s", got)
	}
}

func TestPlanesPointOfView(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	spec := MustSpec(rules.Sho, DefaultOptions())
	g := rules.NewGame(r.StartPosition())
	planes := make([]float32, spec.PlaneSize())
	kingPlane := spec.ownPieces + int(r.KindByFEN("K")) - 1
	check := func(who string) {
		st := StateOf(g, nil)
		spec.Encode(&st, planes)
		// the side to move's king is always on the bottom rank, file e
		hw := spec.Height * spec.Width
		if planes[kingPlane*hw+4] != 1 {
			t.Errorf("%s to move: own king not at the bottom centre", who)
		}
	}
	check("sente")
	g.PlayString("c3c4")
	check("gote")
	if err := spec.Encode(&State{Pos: g.Position()}, make([]float32, 3)); err == nil {
		t.Errorf("Encode accepted a short buffer")
	}
	chu := rules.MustNew(rules.DefaultConfig(rules.Chu))
	p := chu.StartPosition()
	if err := spec.Encode(&State{Pos: &p}, planes); err == nil {
		t.Errorf("Encode accepted a Chu position for a Sho spec")
	}
}

func TestEncodeZeroAllocs(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Chu))
	spec := MustSpec(rules.Chu, DefaultOptions())
	g := rules.NewGame(r.StartPosition())
	g.PlayString("f3f5")
	var hist [MaxHistory]rules.Move
	planes := make([]float32, spec.PlaneSize())
	st := StateOf(g, hist[:])
	spec.Encode(&st, planes)
	if n := testing.AllocsPerRun(100, func() {
		st := StateOf(g, hist[:])
		spec.Encode(&st, planes)
	}); n != 0 {
		t.Errorf("Encode allocates %.1f times", n)
	}
}

func BenchmarkEncodePlanes(b *testing.B) {
	for _, v := range rules.Variants {
		b.Run(v.String(), func(b *testing.B) {
			r := rules.MustNew(rules.DefaultConfig(v))
			spec := MustSpec(v, DefaultOptions())
			var states []*rules.Game
			randomGames(b, r, 5, 200, func(g *rules.Game) {
				if len(states) < 32 && g.Len() > 20 {
					c := rules.NewGame(g.Start())
					for _, m := range g.Moves() {
						c.Push(m)
					}
					states = append(states, c)
				}
			})
			planes := make([]float32, spec.PlaneSize())
			var hist [MaxHistory]rules.Move
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				st := StateOf(states[n%len(states)], hist[:])
				spec.Encode(&st, planes)
				n++
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}

func BenchmarkSampleRecord(b *testing.B) {
	r := rules.MustNew(rules.DefaultConfig(rules.Chu))
	samples := gameSamples(b, r, 1, 100)
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		n := 0
		for b.Loop() {
			buf, _ = samples[n%len(samples)].AppendBinary(buf[:0])
			n++
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "samples/s")
	})
	b.Run("decode", func(b *testing.B) {
		var recs [][]byte
		for i := range samples {
			r, _ := samples[i].AppendBinary(nil)
			recs = append(recs, r)
		}
		b.ReportAllocs()
		var s Sample
		n := 0
		for b.Loop() {
			if _, err := decodeRecord(recs[n%len(recs)][4:], &s); err != nil {
				b.Fatal(err)
			}
			n++
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "samples/s")
	})
	b.Run("planes", func(b *testing.B) {
		spec := MustSpec(rules.Chu, DefaultOptions())
		planes := make([]float32, spec.PlaneSize())
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			if err := spec.EncodeSample(&samples[n%len(samples)], planes, n%2 == 1); err != nil {
				b.Fatal(err)
			}
			n++
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "samples/s")
	})
}

// TestProgressPlane: the progress plane is plies / ProgressPlies, held at
// 1 past it (a match longer than the self-play cap shows the network the
// cap's input, not a new one); 0 keeps the layout of networks made before
// the option, plies / the rules' MaxPlies. The option travels in Info.
func TestProgressPlane(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	g := rules.NewGame(r.StartPosition())
	for g.Len() < 200 {
		g.Push(g.LegalMoves()[g.Len()%len(g.LegalMoves())])
		if g.Result().Over() {
			t.Fatalf("the walk ended at ply %d", g.Len())
		}
	}
	progress := func(o Options, plies int) float32 {
		spec := MustSpec(rules.Sho, o)
		for g.Len() > plies {
			g.Undo()
		}
		pos := *g.Position()
		st := State{Pos: &pos}
		dst := make([]float32, spec.PlaneSize())
		if err := spec.Encode(&st, dst); err != nil {
			t.Fatal(err)
		}
		hw := spec.Height * spec.Width
		return dst[spec.progressPlane*hw]
	}
	maxPlies := float32(r.Config().MaxPlies)
	for _, c := range []struct {
		o     Options
		plies int
		want  float32
	}{
		{Options{HistoryPlies: 4, ProgressPlies: 150}, 200, 1}, // the walk is undone from the longest game down
		{Options{HistoryPlies: 4, ProgressPlies: 150}, 75, 0.5},
		{Options{HistoryPlies: 4}, 75, 75 / maxPlies},
	} {
		if got := progress(c.o, c.plies); math.Abs(float64(got-c.want)) > 1e-6 {
			t.Errorf("%+v at ply %d: progress %v, want %v", c.o, c.plies, got, c.want)
		}
	}
	spec := MustSpec(rules.Sho, Options{HistoryPlies: 4, ProgressPlies: 150})
	if info := spec.Info(); info.ProgressPlies != 150 || info.Options() != spec.Options() || spec.Check(info) != nil {
		t.Errorf("info %+v does not carry the spec's options %+v", info, spec.Options())
	}
	old := MustSpec(rules.Sho, Options{HistoryPlies: 4})
	if spec.Check(old.Info()) == nil {
		t.Error("a spec of another progress scale checks as the same")
	}
	if _, err := NewSpec(rules.Sho, Options{ProgressPlies: -1}); err == nil {
		t.Error("a negative progress scale is accepted")
	}
}
