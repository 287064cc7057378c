package encode

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"chuzero/rules"
)

// v1File is a Sho sample file written by the version 1 writer (before
// auxiliary targets): gameSamples seeds 5 (4 plies) and 6 (3 plies), as
// two chunks.
var v1File = filepath.Join("testdata", "v1.samples")

// randomAux returns auxiliary targets with random values; the reply policy
// reuses policy's indices (empty for an odd draw).
func randomAux(rng *rand.Rand, r *rules.Rules, policy []PolicyEntry) *AuxTargets {
	unit := func() float32 { return float32(rng.Float64()*2 - 1) }
	a := &AuxTargets{MaterialEnd: unit(), MaterialAhead: unit(), ShortValue: [3]float32{unit(), unit(), unit()}}
	if rng.IntN(2) == 0 {
		a.ReplyPolicy = append(a.ReplyPolicy, policy...)
	}
	a.Ownership = make([]int8, r.NumSquares())
	for i := range a.Ownership {
		a.Ownership[i] = int8(rng.IntN(3) - 1)
	}
	return a
}

// TestReadVersion1File: a file of the version 1 format still reads, with
// no auxiliary targets and nothing truncated.
func TestReadVersion1File(t *testing.T) {
	sr, c, err := OpenSampleFile(v1File)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if sr.Format != 1 || sr.Variant != rules.Sho {
		t.Fatalf("format %d variant %s, want 1 sho", sr.Format, sr.Variant)
	}
	got, err := ReadSampleFile(v1File)
	if err != nil {
		t.Fatal(err)
	}
	wantPly := []uint32{0, 1, 2, 3, 0, 1, 2}
	if len(got) != len(wantPly) {
		t.Fatalf("%d samples, want %d", len(got), len(wantPly))
	}
	spec := MustSpec(rules.Sho, DefaultOptions())
	start := rules.MustNew(rules.DefaultConfig(rules.Sho)).StartPosition()
	for i := range got {
		s := &got[i]
		if s.Ply != wantPly[i] || s.Aux != nil || s.Truncated || s.EndValue != 0 || len(s.Policy) == 0 {
			t.Errorf("sample %d: ply %d aux %v truncated %v end value %v, %d policy entries",
				i, s.Ply, s.Aux, s.Truncated, s.EndValue, len(s.Policy))
		}
		if err := s.Validate(spec); err != nil {
			t.Errorf("sample %d: %v", i, err)
		}
	}
	if got[0].SFEN != start.SFEN() || got[4].SFEN != start.SFEN() {
		t.Errorf("games start at %q and %q, want %q", got[0].SFEN, got[4].SFEN, start.SFEN())
	}
}

// TestVersion1GoldenRecord: the pinned version 1 record decodes to the
// sample it was written from.
func TestVersion1GoldenRecord(t *testing.T) {
	b := readHexDump(t, filepath.Join("testdata", "record_v1.golden"))
	var s Sample
	v, err := decodeRecord(b[4:], &s)
	if err != nil || v != 1 {
		t.Fatalf("decodeRecord = version %d, %v; want 1, nil", v, err)
	}
	if s.GameID != 0x0123456789abcdef || !s.FullSearch || s.RootValue != -0.25 || s.RootVisits != 400 ||
		s.Outcome != Draw || len(s.Policy) != 2 || s.Ply != 3 || len(s.History) != 3 || s.Aux != nil || s.Truncated {
		t.Errorf("decoded %+v", s)
	}
}

func readHexDump(t *testing.T, path string) []byte {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b []byte
	for _, f := range strings.Fields(string(text)) {
		var c byte
		for _, d := range []byte(f) {
			c = c<<4 | byte(strings.IndexByte("0123456789abcdef", d))
		}
		b = append(b, c)
	}
	return b
}

// TestRecordVersionMatchesFile: a version 2 record inside a format 1 file
// (and the reverse) is damage, reported with the file's name.
func TestRecordVersionMatchesFile(t *testing.T) {
	v1 := readHexDump(t, filepath.Join("testdata", "record_v1.golden"))
	v2 := readHexDump(t, filepath.Join("testdata", "record.golden"))
	for _, c := range []struct {
		format uint16
		rec    []byte
		ok     bool
	}{{1, v1, true}, {2, v2, true}, {1, v2, false}, {2, v1, false}, {3, v2, false}} {
		data := craftFile(c.format, rules.Chu, c.rec)
		sr, err := NewSampleReader(bytes.NewReader(data), "crafted")
		if err == nil {
			var s Sample
			err = sr.Next(&s)
		}
		if (err == nil) != c.ok || (err != nil && !strings.Contains(err.Error(), "crafted")) {
			t.Errorf("format %d, record version %d: error %v, want ok=%v", c.format, c.rec[4], err, c.ok)
		}
	}
}

// craftFile builds a one-chunk sample file of the given format by hand.
func craftFile(format uint16, v rules.VariantID, recs ...[]byte) []byte {
	le := binary.LittleEndian
	h := append([]byte(fileMagic), 0, 0, 0, 0, byte(v), 0, 0, 0)
	le.PutUint16(h[8:], format)
	le.PutUint16(h[10:], Version)
	h = le.AppendUint32(h, crc32.Checksum(h, castagnoli))
	payload := bytes.Join(recs, nil)
	h = append(h, chunkMagic...)
	h = le.AppendUint32(h, uint32(len(recs)))
	h = le.AppendUint32(h, uint32(len(payload)))
	h = le.AppendUint32(h, crc32.Checksum(payload, castagnoli))
	h = append(h, payload...)
	t := append([]byte(endMagic), 1, 0, 0, 0)
	t = le.AppendUint64(t, uint64(len(recs)))
	t = le.AppendUint32(t, crc32.Checksum(t, castagnoli))
	return append(h, t...)
}

// TestRecordRefusesBadAux: damage inside a record's version 2 fields is
// refused by the decoder (the chunk checksum aside).
func TestRecordRefusesBadAux(t *testing.T) {
	good := readHexDump(t, filepath.Join("testdata", "record.golden"))
	body := good[4:]
	flagsAt := 1 + 1 + rules.BinarySize + 8 + 4
	ownAt := len(body) - 12 - 144 // the ownership bytes: before the three short values
	cases := []struct {
		name string
		edit func(b []byte) []byte
	}{
		{"unknown flag", func(b []byte) []byte { b[flagsAt] |= 1 << 3; return b }},
		{"aux flag without aux", func(b []byte) []byte { return b[:len(b)-12-144-2-8-8-4] }},
		{"ownership value 2", func(b []byte) []byte { b[ownAt] = 2; return b }},
		{"ownership value -2", func(b []byte) []byte { b[ownAt+5] = 0xfe; return b }},
		{"short values cut", func(b []byte) []byte { return b[:len(b)-4] }},
		{"extra byte", func(b []byte) []byte { return append(b, 0) }},
		{"version 3", func(b []byte) []byte { b[0] = 3; return b }},
		{"version 1 with aux flag", func(b []byte) []byte { b[0] = 1; return b }},
	}
	var s Sample
	if _, err := decodeRecord(body, &s); err != nil || s.Aux == nil || len(s.Aux.Ownership) != 144 {
		t.Fatalf("golden record: %v, aux %+v", err, s.Aux)
	}
	for _, c := range cases {
		b := c.edit(append([]byte{}, body...))
		if _, err := decodeRecord(b, &s); err == nil {
			t.Errorf("%s: decoded without an error", c.name)
		}
	}
}

// TestValidateAux: out-of-range auxiliary targets fail Validate.
func TestValidateAux(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	spec := MustSpec(rules.Sho, DefaultOptions())
	base := gameSamples(t, r, 1, 1)[0]
	cases := []struct {
		name string
		edit func(s *Sample)
	}{
		{"end value", func(s *Sample) { s.EndValue = 1.5 }},
		{"material", func(s *Sample) { s.Aux.MaterialEnd = -2 }},
		{"short value", func(s *Sample) { s.Aux.ShortValue[2] = 3 }},
		{"ownership length", func(s *Sample) { s.Aux.Ownership = s.Aux.Ownership[1:] }},
		{"ownership value", func(s *Sample) { s.Aux.Ownership[3] = 4 }},
		{"reply index", func(s *Sample) { s.Aux.ReplyPolicy = []PolicyEntry{{uint32(spec.PolicySize), 1}} }},
	}
	for _, c := range cases {
		s := base
		aux := *base.Aux
		aux.Ownership = append([]int8{}, base.Aux.Ownership...)
		s.Aux = &aux
		if err := s.Validate(spec); err != nil {
			t.Fatalf("%s: the unedited sample fails: %v", c.name, err)
		}
		c.edit(&s)
		if err := s.Validate(spec); err == nil {
			t.Errorf("%s: Validate accepted it", c.name)
		}
	}
}
