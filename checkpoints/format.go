package checkpoints

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"chuzero/checkpoints/atomicfile"
)

// File layout (little-endian):
//
//	magic    8 bytes "CHZCKPT1"
//	u32      length of the JSON header
//	header   JSON: Meta plus the tensor directory [{name, shape}], in data order
//	data     every tensor's float32 values, in directory order
//	sha256   32 bytes: SHA-256 of everything before it
//
// A file that is truncated, altered or not a checkpoint fails to load with
// an error naming the file and the reason.

const (
	magic          = "CHZCKPT1"
	formatVersion  = 1
	maxHeaderBytes = 64 << 20
	maxTensorElems = 1 << 30
)

// Meta is everything a checkpoint says besides its tensors.
type Meta struct {
	Format      int               `json:"format"`
	Variant     string            `json:"variant"`             // "chu", "sho", "heian"
	Rules       string            `json:"rules,omitempty"`     // rules config the run trains under
	Encode      json.RawMessage   `json:"encode"`              // the encode spec identity (encode.Info)
	Model       json.RawMessage   `json:"model"`               // the architecture (model.Config)
	Step        int64             `json:"step"`                // training steps taken
	Parent      string            `json:"parent,omitempty"`    // name of the checkpoint this one was trained from
	SamplesSeen int64             `json:"samples_seen"`        // training samples consumed
	Created     time.Time         `json:"created"`             //
	Optimizer   json.RawMessage   `json:"optimizer,omitempty"` // optimizer kind, step and hyperparameters; its tensors are named opt/...
	Extra       map[string]string `json:"extra,omitempty"`
}

// Tensor is a named float32 tensor.
type Tensor struct {
	Name  string    `json:"name"`
	Shape []int     `json:"shape"`
	Data  []float32 `json:"-"`
}

// Checkpoint is a checkpoint's content.
type Checkpoint struct {
	Meta    Meta
	Tensors []Tensor
}

// Get returns the tensor called name, or nil.
func (c *Checkpoint) Get(name string) *Tensor {
	for i := range c.Tensors {
		if c.Tensors[i].Name == name {
			return &c.Tensors[i]
		}
	}
	return nil
}

type header struct {
	Meta
	Tensors []Tensor `json:"tensors"`
}

// Encode writes c in the checkpoint format.
func Encode(w io.Writer, c *Checkpoint) error {
	h := header{Meta: c.Meta, Tensors: c.Tensors}
	h.Format = formatVersion
	seen := map[string]bool{}
	for _, t := range c.Tensors {
		if seen[t.Name] {
			return fmt.Errorf("checkpoints: tensor %q twice", t.Name)
		}
		seen[t.Name] = true
		if n := elems(t.Shape); n != len(t.Data) {
			return fmt.Errorf("checkpoints: tensor %q has shape %v but %d values", t.Name, t.Shape, len(t.Data))
		}
	}
	js, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("checkpoints: %w", err)
	}
	sum := sha256.New()
	bw := bufio.NewWriterSize(io.MultiWriter(w, sum), 1<<16)
	bw.WriteString(magic)
	binary.Write(bw, binary.LittleEndian, uint32(len(js)))
	bw.Write(js)
	var b [4]byte
	for _, t := range c.Tensors {
		for _, v := range t.Data {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
			bw.Write(b[:])
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("checkpoints: %w", err)
	}
	_, err = w.Write(sum.Sum(nil))
	return err
}

func elems(shape []int) int {
	n := 1
	for _, d := range shape {
		if d < 0 || (d > 0 && n > maxTensorElems/d) {
			return -1
		}
		n *= d
	}
	return n
}

// Decode reads a checkpoint from r; name is used in errors.
func Decode(r io.Reader, name string) (*Checkpoint, error) {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("checkpoints: %s: %s", name, fmt.Sprintf(format, a...))
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fail("reading: %v", err)
	}
	if len(data) < len(magic)+4+sha256.Size {
		return nil, fail("file of %d bytes is too short to be a checkpoint (truncated?)", len(data))
	}
	if string(data[:len(magic)]) != magic {
		return nil, fail("not a chuzero checkpoint (bad magic)")
	}
	body, want := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], want) {
		return nil, fail("SHA-256 mismatch: the file is truncated or corrupted")
	}
	hl := int(binary.LittleEndian.Uint32(data[len(magic):]))
	off := len(magic) + 4
	if hl > maxHeaderBytes || off+hl > len(body) {
		return nil, fail("header length %d runs past the file", hl)
	}
	var h header
	if err := json.Unmarshal(body[off:off+hl], &h); err != nil {
		return nil, fail("bad header: %v", err)
	}
	if h.Format != formatVersion {
		return nil, fail("checkpoint format %d, this build reads %d", h.Format, formatVersion)
	}
	off += hl
	c := &Checkpoint{Meta: h.Meta, Tensors: h.Tensors}
	for i := range c.Tensors {
		t := &c.Tensors[i]
		n := elems(t.Shape)
		if n < 0 || off+4*n > len(body) {
			return nil, fail("tensor %q of shape %v runs past the data", t.Name, t.Shape)
		}
		t.Data = make([]float32, n)
		for j := range t.Data {
			t.Data[j] = math.Float32frombits(binary.LittleEndian.Uint32(body[off+4*j:]))
		}
		off += 4 * n
	}
	if off != len(body) {
		return nil, fail("%d bytes after the last tensor", len(body)-off)
	}
	return c, nil
}

// WriteFile writes c to path atomically: a temporary file in the same
// directory, fsync, rename, fsync of the directory (atomicfile.Writer).
func WriteFile(path string, c *Checkpoint) error {
	if err := atomicfile.WriteFrom(path, func(w io.Writer) error { return Encode(w, c) }); err != nil {
		return fmt.Errorf("checkpoints: %w", err)
	}
	return nil
}

// ReadFile reads the checkpoint at path.
func ReadFile(path string) (*Checkpoint, error) {
	f, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, fmt.Errorf("checkpoints: %w", err)
	}
	defer f.Close()
	return Decode(f, path)
}

// ErrMismatch is wrapped by errors that refuse a checkpoint made for
// something else (another variant, encoding or architecture).
var ErrMismatch = errors.New("checkpoint does not match")
