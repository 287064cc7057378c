package encode

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"chuzero/checkpoints/atomicfile"
	"chuzero/rules"
)

var update = flag.Bool("update", false, "rewrite golden files")

// gameSamples plays a seeded random game and returns one sample per
// position, with a uniform policy target over the legal moves; every
// second sample has random auxiliary targets, every fourth is truncated.
func gameSamples(t testing.TB, r *rules.Rules, seed uint64, plies int) []Sample {
	t.Helper()
	spec := MustSpec(r.Config().Variant, DefaultOptions())
	rng := rand.New(rand.NewPCG(seed, 3))
	g := rules.NewGame(r.StartPosition())
	var out []Sample
	for i := 0; i < plies && !g.Result().Over(); i++ {
		s := NewSample(g, seed)
		s.FullSearch = i%3 != 0
		s.RootValue = float32(rng.Float64()*2 - 1)
		s.RootVisits = uint32(rng.IntN(800))
		moves := g.LegalMoves()
		idx, err := spec.LegalIndices(g.Position(), moves, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range idx {
			s.Policy = append(s.Policy, PolicyEntry{uint32(i), 1 / float32(len(idx))})
		}
		s.Outcome = Outcome(rng.IntN(3))
		if i%2 == 0 {
			s.Aux = randomAux(rng, r, s.Policy)
		}
		if i%4 == 1 {
			s.Truncated, s.Outcome, s.EndValue = true, Draw, float32(rng.Float64()*2-1)
		}
		out = append(out, s)
		if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func writeFile(t testing.TB, path string, v rules.VariantID, chunks ...[]Sample) {
	t.Helper()
	w, err := CreateSampleFile(path, v)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		if err := w.WriteChunk(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestSampleFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, v := range rules.Variants {
		r := rules.MustNew(rules.DefaultConfig(v))
		a, b := gameSamples(t, r, 1, 60), gameSamples(t, r, 2, 40)
		path := filepath.Join(dir, v.String()+SampleFileExt)
		writeFile(t, path, v, a, nil, b)
		got, err := ReadSampleFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want := append(append([]Sample{}, a...), b...)
		if len(got) != len(want) {
			t.Fatalf("%s: read %d samples, wrote %d", v, len(got), len(want))
		}
		spec := MustSpec(v, DefaultOptions())
		for i := range want {
			if !sampleEqual(&got[i], &want[i]) {
				t.Fatalf("%s: sample %d differs:\n got %+v\nwant %+v", v, i, got[i], want[i])
			}
			if err := got[i].Validate(spec); err != nil {
				t.Fatal(err)
			}
		}
	}
	// no temporary files are left behind
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func sampleEqual(a, b *Sample) bool {
	norm := func(s Sample) Sample {
		if len(s.History) == 0 {
			s.History = nil
		}
		if len(s.Policy) == 0 {
			s.Policy = nil
		}
		if s.Aux != nil && len(s.Aux.ReplyPolicy) == 0 {
			aux := *s.Aux
			aux.ReplyPolicy = nil
			s.Aux = &aux
		}
		return s
	}
	return reflect.DeepEqual(norm(*a), norm(*b))
}

// TestSampleRebuildsPosition: the planes of a decoded sample equal the
// planes of the game position it came from.
func TestSampleRebuildsPosition(t *testing.T) {
	for _, v := range rules.Variants {
		r := rules.MustNew(rules.DefaultConfig(v))
		spec := MustSpec(v, DefaultOptions())
		rng := rand.New(rand.NewPCG(9, 9))
		g := rules.NewGame(r.StartPosition())
		a := make([]float32, spec.PlaneSize())
		b := make([]float32, spec.PlaneSize())
		var hist [MaxHistory]rules.Move
		for i := 0; i < 80 && !g.Result().Over(); i++ {
			st := StateOf(g, hist[:])
			if err := spec.Encode(&st, a); err != nil {
				t.Fatal(err)
			}
			s := NewSample(g, 1)
			buf, err := s.AppendBinary(nil)
			if err != nil {
				t.Fatal(err)
			}
			var back Sample
			if _, err := decodeRecord(buf[4:], &back); err != nil {
				t.Fatal(err)
			}
			if err := spec.EncodeSample(&back, b, false); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%s ply %d: planes of the decoded sample differ", v, i)
			}
			// mirroring the sample equals mirroring its planes
			if err := spec.EncodeSample(&back, b, true); err != nil {
				t.Fatal(err)
			}
			m := make([]float32, len(a))
			spec.MirrorPlanes(a, m)
			if !reflect.DeepEqual(m, b) {
				t.Fatalf("%s ply %d: mirrored sample planes differ from mirrored planes", v, i)
			}
			moves := g.LegalMoves()
			g.Play(moves[rng.IntN(len(moves))])
		}
	}
}

// TestSampleFileCorruption: every truncation and every single-byte change
// of a valid file is reported as a CorruptError (never a silent skip or a
// panic), and the error names the file.
func TestSampleFileCorruption(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	path := filepath.Join(t.TempDir(), "x"+SampleFileExt)
	writeFile(t, path, rules.Sho, gameSamples(t, r, 1, 6), gameSamples(t, r, 2, 5))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readAll := func(b []byte) (int, error) {
		sr, err := NewSampleReader(bytes.NewReader(b), "damaged")
		if err != nil {
			return 0, err
		}
		n := 0
		for {
			var s Sample
			err := sr.Next(&s)
			if err == io.EOF {
				return n, nil
			}
			if err != nil {
				return n, err
			}
			n++
		}
	}
	if n, err := readAll(data); err != nil || n != 11 {
		t.Fatalf("intact file: %d samples, %v", n, err)
	}
	check := func(what string, b []byte) {
		_, err := readAll(b)
		var ce *CorruptError
		if !errors.As(err, &ce) || ce.File != "damaged" {
			t.Fatalf("%s: error %v, want a CorruptError", what, err)
		}
	}
	for cut := 0; cut < len(data); cut++ {
		check("truncated", data[:cut])
	}
	for i := 0; i < len(data); i++ {
		b := append([]byte{}, data...)
		b[i] ^= 0x41
		check("flipped", b)
	}
	check("appended", append(append([]byte{}, data...), 0))
}

func TestSampleWriterRefusesOtherVariant(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Chu))
	w, err := CreateSampleFile(filepath.Join(t.TempDir(), "a"+SampleFileExt), rules.Sho)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	if err := w.WriteChunk(gameSamples(t, r, 1, 2)); err == nil {
		t.Errorf("a Chu sample went into a Sho file")
	}
}

// TestGoldenRecord pins the binary record format (version 2, auxiliary
// targets included): one sample, byte for byte.
func TestGoldenRecord(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Chu))
	g := rules.NewGame(r.StartPosition())
	for _, m := range []string{"f3f5", "g10g8", "f5e6,e6f5"} {
		if _, err := g.PlayString(m); err != nil {
			t.Fatal(err)
		}
	}
	s := NewSample(g, 0x0123456789abcdef)
	s.FullSearch = true
	s.RootValue = -0.25
	s.RootVisits = 400
	s.Outcome = Draw
	s.Policy = []PolicyEntry{{7, 0.75}, {36864, 0.25}}
	s.Truncated, s.EndValue = true, 0.5
	own := make([]int8, r.NumSquares())
	own[0], own[1], own[len(own)-1] = 1, -1, 1
	s.Aux = &AuxTargets{ReplyPolicy: []PolicyEntry{{12, 1}}, MaterialEnd: -0.125, MaterialAhead: 0.0625,
		Ownership: own, ShortValue: [3]float32{0.25, -0.5, 1}}
	b, err := s.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "record.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(hexDump(b)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := hexDump(b); got != string(want) {
		t.Errorf("record bytes changed (run with -update after a deliberate format change):\n got %s\nwant %s", got, want)
	}
}

func hexDump(b []byte) string {
	const digits = "0123456789abcdef"
	var sb strings.Builder
	for i, c := range b {
		if i > 0 && i%16 == 0 {
			sb.WriteByte('\n')
		} else if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteByte(digits[c>>4])
		sb.WriteByte(digits[c&15])
	}
	sb.WriteByte('\n')
	return sb.String()
}

// FuzzReadSamples: the reader never panics or over-allocates on any
// input, and whatever it accepts re-encodes to the same records.
func FuzzReadSamples(f *testing.F) {
	r := rules.MustNew(rules.DefaultConfig(rules.Chu))
	path := filepath.Join(f.TempDir(), "seed"+SampleFileExt)
	writeFile(f, path, rules.Chu, gameSamples(f, r, 1, 3))
	data, _ := os.ReadFile(path)
	f.Add(data)
	f.Add(data[:40])
	f.Add([]byte(fileMagic))
	v1, err := os.ReadFile(v1File)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(v1)
	f.Fuzz(func(t *testing.T, b []byte) {
		sr, err := NewSampleReader(bytes.NewReader(b), "fuzz")
		if err != nil {
			return
		}
		for {
			var s Sample
			err := sr.Next(&s)
			if err != nil {
				return
			}
			enc, err := s.AppendBinary(nil)
			if err != nil {
				t.Fatalf("accepted sample does not re-encode: %v", err)
			}
			// compared as bytes: a NaN field round-trips bit for bit
			var back Sample
			if _, err := decodeRecord(enc[4:], &back); err != nil {
				t.Fatalf("accepted sample does not decode again: %v", err)
			}
			again, _ := back.AppendBinary(nil)
			if !bytes.Equal(again, enc) {
				t.Fatalf("accepted sample does not round-trip")
			}
		}
	})
}

// TestEncodeSampleFileMatchesWriter: the in-memory encoding is the file
// CreateSampleFile writes, byte for byte.
func TestEncodeSampleFileMatchesWriter(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	a, b := gameSamples(t, r, 1, 30), gameSamples(t, r, 2, 20)
	path := filepath.Join(t.TempDir(), "x"+SampleFileExt)
	writeFile(t, path, rules.Sho, a, nil, b)
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := EncodeSampleFile(rules.Sho, [][]Sample{a, nil, b})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("EncodeSampleFile: %d bytes differ from the %d the writer wrote", len(got), len(want))
	}
}

// TestSampleFileMode: a sample file has the mode of every run file.
func TestSampleFileMode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x"+SampleFileExt)
	w, err := CreateSampleFile(p, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(p); err != nil || st.Mode().Perm() != atomicfile.Mode {
		t.Errorf("sample file mode %v, %v; want %v", st.Mode().Perm(), err, atomicfile.Mode)
	}
}
