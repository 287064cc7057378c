package transport

import (
	"bytes"
	"context"
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestDirPublishWritesBothFiles(t *testing.T) {
	d, err := NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := Batch{Name: "20260101T000000Z-host-1-00001-g3", Samples: []byte("samples"), Records: []byte("{}\n"), Games: 1}
	if err := d.Publish(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	sp, rp := d.Paths(b.Name)
	for path, want := range map[string][]byte{sp: b.Samples, rp: b.Records} {
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s = %q, %v; want %q", path, got, err, want)
		}
	}
	if err := d.Publish(context.Background(), Batch{Name: "../escape"}); err == nil {
		t.Error("a batch named ../escape was written")
	}
}

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"20260101T000000Z-host-1-00001-g3": true, "a.b_c-d": true,
		"": false, "../x": false, "a/b": false, ".hidden": false, "-x": false, "a b": false, "x\n": false,
	} {
		if got := ValidName(name); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestBatchHash(t *testing.T) {
	a := Batch{Samples: []byte("ab"), Records: []byte("c")}
	b := Batch{Samples: []byte("a"), Records: []byte("bc")}
	if a.Hash() == b.Hash() {
		t.Error("different splits of the same bytes hash alike")
	}
	if a.Hash() != (Batch{Name: "other", Samples: []byte("ab"), Records: []byte("c")}).Hash() {
		t.Error("the hash depends on the name")
	}
}
