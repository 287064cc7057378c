package encode

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"

	"chuzero/checkpoints/atomicfile"
	"chuzero/rules"
)

// Sample files. Layout (little-endian):
//
//	header   20 bytes: magic "CHZSAMPL" | u16 file format | u16 encode version |
//	         u8 variant | 3 zero bytes | u32 CRC-32C of the 16 bytes before it
//	chunk    u32 magic "CHNK" | u32 record count | u32 payload length |
//	         u32 CRC-32C of the payload | payload (the records)
//	trailer  u32 magic "CEND" | u32 chunk count | u64 record count |
//	         u32 CRC-32C of the 16 bytes before it
//
// A file ends right after its trailer; a file without one was cut short.
// The file format is the record version of every record in the file
// (RecordVersion when written by this build; format 1 files, from before
// the auxiliary targets, are still read). The encode version is Version,
// the plane and policy layout the records' policy indices refer to.

const (
	fileMagic   = "CHZSAMPL"
	headerSize  = 20
	chunkMagic  = "CHNK"
	endMagic    = "CEND"
	chunkHeader = 16
	trailerSize = 20
	maxPayload  = 256 << 20
	// SampleFileExt is the extension of sample files.
	SampleFileExt = ".samples"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CorruptError reports damage in a sample file precisely.
type CorruptError struct {
	File   string
	Offset int64 // byte offset where the damaged part starts
	Chunk  int   // chunk index (0-based), -1 for the header
	Reason string
}

func (e *CorruptError) Error() string {
	where := "header"
	if e.Chunk >= 0 {
		where = fmt.Sprintf("chunk %d", e.Chunk)
	}
	return fmt.Sprintf("encode: %s: corrupt at byte %d (%s): %s", e.File, e.Offset, where, e.Reason)
}

// SampleWriter writes a sample file atomically: records go to a temporary
// file in the target directory, and Close writes the trailer, syncs, renames
// it into place and syncs the directory. Until Close succeeds, the target
// name does not exist; Abort removes the temporary file.
type SampleWriter struct {
	path    string
	tmp     *atomicfile.Writer
	w       *bufio.Writer
	variant rules.VariantID
	chunks  uint32
	records uint64
	buf     []byte
	err     error
}

// CreateSampleFile starts a sample file for variant v at path.
func CreateSampleFile(path string, v rules.VariantID) (*SampleWriter, error) {
	tmp, err := atomicfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return newSampleWriter(path, tmp, tmp, v)
}

// EncodeSampleFile returns the bytes of a sample file for variant v with
// one chunk per element of chunks: exactly what CreateSampleFile, a
// WriteChunk per element and Close put in a file.
func EncodeSampleFile(v rules.VariantID, chunks [][]Sample) ([]byte, error) {
	var buf bytes.Buffer
	w, err := newSampleWriter("", nil, &buf, v)
	if err != nil {
		return nil, err
	}
	for _, c := range chunks {
		if err := w.WriteChunk(c); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// newSampleWriter writes the header to dst; tmp, if not nil, is the
// atomic file behind dst, committed by Close.
func newSampleWriter(path string, tmp *atomicfile.Writer, dst io.Writer, v rules.VariantID) (*SampleWriter, error) {
	w := &SampleWriter{path: path, tmp: tmp, w: bufio.NewWriterSize(dst, 1<<16), variant: v}
	h := make([]byte, 0, headerSize)
	h = append(h, fileMagic...)
	h = binary.LittleEndian.AppendUint16(h, RecordVersion)
	h = binary.LittleEndian.AppendUint16(h, Version)
	h = append(h, byte(v), 0, 0, 0)
	h = binary.LittleEndian.AppendUint32(h, crc32.Checksum(h, castagnoli))
	if _, err := w.w.Write(h); err != nil {
		w.Abort()
		return nil, fmt.Errorf("encode: %w", err)
	}
	return w, nil
}

// WriteChunk writes samples as one chunk (typically one game).
func (w *SampleWriter) WriteChunk(samples []Sample) error {
	if w.err != nil {
		return w.err
	}
	w.buf = w.buf[:0]
	for i := range samples {
		if samples[i].Config.Variant != w.variant {
			return fmt.Errorf("encode: %s sample in a %s file", samples[i].Config.Variant, w.variant)
		}
		var err error
		if w.buf, err = samples[i].AppendBinary(w.buf); err != nil {
			return err
		}
	}
	if len(w.buf) > maxPayload {
		return fmt.Errorf("encode: chunk of %d bytes is too large", len(w.buf))
	}
	var h [chunkHeader]byte
	copy(h[:], chunkMagic)
	binary.LittleEndian.PutUint32(h[4:], uint32(len(samples)))
	binary.LittleEndian.PutUint32(h[8:], uint32(len(w.buf)))
	binary.LittleEndian.PutUint32(h[12:], crc32.Checksum(w.buf, castagnoli))
	if _, err := w.w.Write(h[:]); err != nil {
		w.err = fmt.Errorf("encode: %w", err) // the file's error names it
		return w.err
	}
	if _, err := w.w.Write(w.buf); err != nil {
		w.err = fmt.Errorf("encode: %w", err) // the file's error names it
		return w.err
	}
	w.chunks++
	w.records += uint64(len(samples))
	return nil
}

// Records returns how many samples were written so far.
func (w *SampleWriter) Records() uint64 { return w.records }

// Close finishes the file and moves it into place.
func (w *SampleWriter) Close() error {
	if w.err != nil {
		w.Abort()
		return w.err
	}
	t := make([]byte, 0, trailerSize)
	t = append(t, endMagic...)
	t = binary.LittleEndian.AppendUint32(t, w.chunks)
	t = binary.LittleEndian.AppendUint64(t, w.records)
	t = binary.LittleEndian.AppendUint32(t, crc32.Checksum(t, castagnoli))
	if _, err := w.w.Write(t); err != nil {
		w.Abort()
		return fmt.Errorf("encode: %w", err)
	}
	if err := w.w.Flush(); err != nil {
		w.Abort()
		return fmt.Errorf("encode: %w", err)
	}
	if w.tmp != nil {
		if err := w.tmp.Commit(); err != nil {
			w.err = fmt.Errorf("encode: %w", err)
			return w.err
		}
	}
	w.err = errors.New("encode: sample file already closed")
	return nil
}

// Abort discards the file.
func (w *SampleWriter) Abort() {
	if w.tmp != nil {
		w.tmp.Abort()
	}
	if w.err == nil {
		w.err = errors.New("encode: sample file aborted")
	}
}

// SampleReader streams the samples of one file, verifying every checksum;
// any damage is a *CorruptError naming the file, offset and chunk.
type SampleReader struct {
	name    string
	r       *bufio.Reader
	off     int64
	Variant rules.VariantID
	// Format is the file format, which is also the record version of
	// every record in the file (1 or RecordVersion).
	Format  int
	chunk   int
	left    uint32 // records left in the current chunk
	payload []byte
	pos     int
	chunks  uint32
	records uint64
	done    bool
}

// NewSampleReader reads the header from r; name is used in errors.
func NewSampleReader(r io.Reader, name string) (*SampleReader, error) {
	sr := &SampleReader{name: name, r: bufio.NewReaderSize(r, 1<<16), chunk: -1}
	var h [headerSize]byte
	if _, err := io.ReadFull(sr.r, h[:]); err != nil {
		return nil, sr.corrupt(0, "file shorter than its header")
	}
	sr.off = headerSize
	switch {
	case string(h[:8]) != fileMagic:
		return nil, sr.corrupt(0, "not a chuzero sample file (bad magic)")
	case binary.LittleEndian.Uint32(h[16:]) != crc32.Checksum(h[:16], castagnoli):
		return nil, sr.corrupt(0, "header checksum mismatch")
	case binary.LittleEndian.Uint16(h[8:]) < 1 || binary.LittleEndian.Uint16(h[8:]) > RecordVersion:
		return nil, sr.corrupt(0, fmt.Sprintf("file format %d, this build reads 1 to %d", binary.LittleEndian.Uint16(h[8:]), RecordVersion))
	case binary.LittleEndian.Uint16(h[10:]) != Version:
		return nil, sr.corrupt(0, fmt.Sprintf("encode version %d, this build reads %d", binary.LittleEndian.Uint16(h[10:]), Version))
	}
	sr.Format = int(binary.LittleEndian.Uint16(h[8:]))
	sr.Variant = rules.VariantID(h[12])
	if !sr.Variant.Valid() {
		return nil, sr.corrupt(0, fmt.Sprintf("unknown variant %d", h[12]))
	}
	return sr, nil
}

// OpenSampleFile opens a sample file for reading; close the returned
// closer when done.
func OpenSampleFile(path string) (*SampleReader, io.Closer, error) {
	f, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, nil, fmt.Errorf("encode: %w", err)
	}
	sr, err := NewSampleReader(f, path)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return sr, f, nil
}

func (sr *SampleReader) corrupt(off int64, reason string) *CorruptError {
	return &CorruptError{File: sr.name, Offset: off, Chunk: sr.chunk, Reason: reason}
}

// Next decodes the next sample into s. It returns io.EOF after the last
// sample of a complete file and a *CorruptError for any damage.
func (sr *SampleReader) Next(s *Sample) error {
	for sr.left == 0 {
		if sr.done {
			return io.EOF
		}
		if err := sr.nextChunk(); err != nil {
			return err
		}
	}
	if len(sr.payload)-sr.pos < 4 {
		return sr.corrupt(sr.off, "record length runs past the chunk")
	}
	n := int(binary.LittleEndian.Uint32(sr.payload[sr.pos:]))
	if n > maxRecordBytes || n > len(sr.payload)-sr.pos-4 {
		return sr.corrupt(sr.off, fmt.Sprintf("record of %d bytes runs past the chunk", n))
	}
	body := sr.payload[sr.pos+4 : sr.pos+4+n]
	version, err := decodeRecord(body, s)
	if err != nil {
		return sr.corrupt(sr.off, err.Error())
	}
	if int(version) != sr.Format {
		return sr.corrupt(sr.off, fmt.Sprintf("record version %d in a file of format %d", version, sr.Format))
	}
	if s.Config.Variant != sr.Variant {
		return sr.corrupt(sr.off, fmt.Sprintf("%s record in a %s file", s.Config.Variant, sr.Variant))
	}
	sr.pos += 4 + n
	sr.off += int64(4 + n)
	sr.left--
	if sr.left == 0 && sr.pos != len(sr.payload) {
		return sr.corrupt(sr.off, fmt.Sprintf("%d bytes after the chunk's last record", len(sr.payload)-sr.pos))
	}
	return nil
}

// readPiece is the most readBounded reserves ahead of the bytes it has.
const readPiece = 1 << 20

// readBounded reads n bytes into buf (reused when large enough), in
// pieces of at most readPiece, so that a length field claiming more than
// the input holds costs at most about twice the bytes really there, not
// the claim.
func readBounded(r io.Reader, buf []byte, n int) ([]byte, error) {
	if cap(buf) >= n {
		buf = buf[:n]
		_, err := io.ReadFull(r, buf)
		return buf, err
	}
	buf = buf[:0]
	for len(buf) < n {
		k := min(n-len(buf), readPiece)
		buf = slices.Grow(buf, k)
		m, err := io.ReadFull(r, buf[len(buf):len(buf)+k])
		buf = buf[:len(buf)+m]
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

func (sr *SampleReader) nextChunk() error {
	start := sr.off
	var h [chunkHeader]byte
	if _, err := io.ReadFull(sr.r, h[:4]); err != nil {
		return sr.corrupt(start, "file ends without its trailer (truncated)")
	}
	switch string(h[:4]) {
	case endMagic:
		var t [trailerSize - 4]byte
		if _, err := io.ReadFull(sr.r, t[:]); err != nil {
			return sr.corrupt(start, "truncated trailer")
		}
		full := append([]byte(endMagic), t[:]...)
		if binary.LittleEndian.Uint32(full[16:]) != crc32.Checksum(full[:16], castagnoli) {
			return sr.corrupt(start, "trailer checksum mismatch")
		}
		chunks, records := binary.LittleEndian.Uint32(full[4:]), binary.LittleEndian.Uint64(full[8:])
		if chunks != sr.chunks || records != sr.records {
			return sr.corrupt(start, fmt.Sprintf("trailer counts %d chunks / %d records, the file has %d / %d",
				chunks, records, sr.chunks, sr.records))
		}
		if _, err := sr.r.ReadByte(); err != io.EOF {
			return sr.corrupt(start+trailerSize, "data after the trailer")
		}
		sr.done = true
		return nil
	case chunkMagic:
	default:
		return sr.corrupt(start, "bad chunk magic")
	}
	sr.chunk++
	if _, err := io.ReadFull(sr.r, h[4:]); err != nil {
		return sr.corrupt(start, "truncated chunk header")
	}
	count := binary.LittleEndian.Uint32(h[4:])
	size := binary.LittleEndian.Uint32(h[8:])
	if size > maxPayload {
		return sr.corrupt(start, fmt.Sprintf("chunk payload of %d bytes", size))
	}
	var err error
	if sr.payload, err = readBounded(sr.r, sr.payload, int(size)); err != nil {
		return sr.corrupt(start, "chunk payload cut short (truncated)")
	}
	if crc32.Checksum(sr.payload, castagnoli) != binary.LittleEndian.Uint32(h[12:]) {
		return sr.corrupt(start, "chunk checksum mismatch")
	}
	if count == 0 && size != 0 {
		return sr.corrupt(start, "empty chunk with a payload")
	}
	sr.off = start + chunkHeader
	sr.pos = 0
	sr.left = count
	sr.chunks++
	sr.records += uint64(count)
	return nil
}

// ReadSampleFile reads every sample of a file.
func ReadSampleFile(path string) ([]Sample, error) {
	sr, c, err := OpenSampleFile(path)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var out []Sample
	for {
		var s Sample
		err := sr.Next(&s)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, s)
	}
}
