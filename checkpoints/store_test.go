package checkpoints

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func sample(step int64) *Checkpoint {
	return &Checkpoint{
		Meta: Meta{Variant: "sho", Step: step, Created: time.Unix(1700000000, 0).UTC(), Encode: json.RawMessage(`{"version":1}`),
			Model: json.RawMessage(`{"blocks":2}`), Parent: Name(step - 1), SamplesSeen: 100 * step},
		Tensors: []Tensor{{Name: "a", Shape: []int{2, 3}, Data: []float32{1, 2, 3, 4, 5, 6}}, {Name: "b", Shape: []int{1}, Data: []float32{-1}}},
	}
}

func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	c := sample(7)
	if err := Encode(&buf, c); err != nil {
		t.Fatal(err)
	}
	d, err := Decode(bytes.NewReader(buf.Bytes()), "x")
	if err != nil {
		t.Fatal(err)
	}
	c.Meta.Format = formatVersion
	if !reflect.DeepEqual(c, d) {
		t.Errorf("round trip changed the checkpoint:\n%+v\n%+v", c, d)
	}
}

// TestDamage: every truncation and every byte flip is an error naming the
// file, never a panic or a partial load.
func TestDamage(t *testing.T) {
	var buf bytes.Buffer
	Encode(&buf, sample(3))
	data := buf.Bytes()
	for cut := 0; cut < len(data); cut++ {
		if _, err := Decode(bytes.NewReader(data[:cut]), "cut.ckpt"); err == nil || !strings.Contains(err.Error(), "cut.ckpt") {
			t.Fatalf("truncated at %d: %v", cut, err)
		}
	}
	for i := 0; i < len(data); i++ {
		b := append([]byte{}, data...)
		b[i] ^= 0x10
		if _, err := Decode(bytes.NewReader(b), "flip.ckpt"); err == nil {
			t.Fatalf("byte %d flipped: loaded", i)
		}
	}
}

func TestStore(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "checkpoints"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Latest(); err != ErrNone {
		t.Errorf("Latest of an empty store: %v", err)
	}
	for _, step := range []int64{0, 10, 20, 30, 40, 50, 60} {
		if _, err := s.Save(sample(step)); err != nil {
			t.Fatal(err)
		}
	}
	e, err := s.Latest()
	if err != nil || e.Step != 60 || e.Name != "step-000000060" {
		t.Fatalf("Latest = %+v, %v", e, err)
	}
	for _, ref := range []string{"latest", "step-000000060", "60", e.Path} {
		c, _, err := s.Load(ref)
		if err != nil || c.Meta.Step != 60 {
			t.Errorf("Load(%q) = %v", ref, err)
		}
	}
	if _, _, err := s.Load("70"); err == nil {
		t.Errorf("Load of a missing step succeeded")
	}
	gone, err := s.Prune(2, 3)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := s.List()
	var steps []int64
	for _, e := range l {
		steps = append(steps, e.Step)
	}
	if !reflect.DeepEqual(steps, []int64{0, 30, 50, 60}) || len(gone) != 3 {
		t.Errorf("after Prune(2, 3): %v (%d deleted)", steps, len(gone))
	}
	// a stale temporary file is cleaned up on Open
	tmp := filepath.Join(s.Dir, ".step-000000070.ckpt.tmp-123")
	os.WriteFile(tmp, []byte("partial"), 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(tmp, old, old)
	if _, err := Open(s.Dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("stale temporary file not removed")
	}
}

func FuzzDecode(f *testing.F) {
	var buf bytes.Buffer
	Encode(&buf, sample(1))
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Decode(bytes.NewReader(b), "fuzz")
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := Encode(&out, c); err != nil {
			t.Fatalf("decoded checkpoint does not encode: %v", err)
		}
	})
}

// TestStorePath: a checkpoint name maps into the store; anything else,
// a path above all, is refused.
func TestStorePath(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if p, err := s.Path(Name(42)); err != nil || p != filepath.Join(s.Dir, "step-000000042"+Ext) {
		t.Errorf("Path(%s) = %q, %v", Name(42), p, err)
	}
	for _, bad := range []string{"", "step-", "../step-000000001", "step-000000001/../../etc", "best", "step-0001", "step--00000001"} {
		if p, err := s.Path(bad); err == nil {
			t.Errorf("Path(%q) = %q, want an error", bad, p)
		}
	}
}
