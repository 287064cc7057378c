package model

import (
	"math/rand/v2"
	"testing"

	"chuzero/checkpoints/atomicfile"
	"chuzero/encode"
	"chuzero/rules"
)

// FuzzHostileSample writes a sample with fuzzed fields (a well-formed
// file: every checksum right) beside a good one, and loads them: loading
// never fails for data, a sample that passes validation always encodes
// into a batch, and batches keep coming.
func FuzzHostileSample(f *testing.F) {
	p := rules.MustNew(rules.DefaultConfig(rules.Sho)).StartPosition()
	start := p.SFEN()
	f.Add(start, float32(0.5), float32(0), uint32(3), float32(1), uint8(10), uint8(255), uint8(19), uint8(0), uint8(1))
	f.Add("lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w - 1", float32(-1), float32(1), uint32(0), float32(0.999), uint8(0), uint8(0), uint8(0), uint8(1), uint8(2))
	f.Add("9/9/9/9/9/9/9/9/9 b - 1", float32(2), float32(-3), uint32(1<<31), float32(-1), uint8(200), uint8(80), uint8(81), uint8(2), uint8(0))
	f.Fuzz(func(t *testing.T, sfen string, root, end float32, idx uint32, prob float32, from, mid, to, flags, reps uint8) {
		dir := t.TempDir()
		g := gameSamples(t, rules.Sho, 5, 4)
		s := g[0]
		s.GameID, s.SFEN, s.RootValue, s.EndValue, s.Repetitions = 99, sfen, root, end, reps
		s.Truncated = flags&4 != 0
		s.FullSearch = true
		s.Policy = []encode.PolicyEntry{{Index: idx, Prob: prob}}
		s.History = []encode.HistMove{{From: from, Mid: mid, To: to, Flags: flags & 3}}
		data, err := encode.EncodeSampleFile(rules.Sho, [][]encode.Sample{{s}})
		if err != nil {
			t.Skip("the writer refuses it:", err) // no file, nothing to load
		}
		writeRaw(t, dir, "a-hostile", data)
		writeNamed(t, dir, "b-good", g)
		cfg := smallWindow()
		cfg.HoldOut = 0
		r := openReplay(t, dir, cfg)
		r.Refresh() // its error only reports
		if r.Total() < int64(len(g)) {
			t.Fatalf("the good file did not load: %d samples", r.Total())
		}
		spec := r.spec
		var b Batch
		for i := range r.samples {
			if err := r.fill(rand.New(rand.NewPCG(1, 1)), &b, 1, r.samples[i:i+1], 0); err != nil {
				t.Fatalf("a validated sample does not encode: %v (%+v)", err, r.samples[i])
			}
		}
		if err := r.FillBatch(rand.New(rand.NewPCG(2, 2)), &b, 8); err != nil || b.N != 8 || len(b.Planes) != 8*spec.PlaneSize() {
			t.Fatalf("FillBatch: %v", err)
		}
	})
}

func writeRaw(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	if err := atomicfile.Write(dir+"/"+name+encode.SampleFileExt, data); err != nil {
		t.Fatal(err)
	}
}
