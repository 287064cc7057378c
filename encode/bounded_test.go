package encode

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"chuzero/rules"
)

// TestClaimedLengthAllocatesNoMore: a small file whose first chunk claims
// a 250 MiB payload is refused as truncated, and reading it allocates a
// bounded amount (the bytes really there, in 1 MiB pieces), not the claim;
// from a file and from memory alike.
func TestClaimedLengthAllocatesNoMore(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	path := filepath.Join(t.TempDir(), "x"+SampleFileExt)
	writeFile(t, path, rules.Sho, gameSamples(t, r, 1, 40))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(data[headerSize+8:], 250<<20)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		read func() error
	}{
		{"file", func() error { _, err := ReadSampleFile(path); return err }},
		{"memory", func() error {
			sr, err := NewSampleReader(bytes.NewReader(data), "memory")
			if err != nil {
				return err
			}
			var s Sample
			return sr.Next(&s)
		}},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err := tc.read()
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Fatalf("%s: a chunk claiming 250 MiB in a %d-byte file read without error", tc.name, len(data))
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
			t.Errorf("%s: reading a %d-byte file allocated %d bytes", tc.name, len(data), got)
		}
	}
}
