package encode

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"chuzero/rules"
)

// RecordVersion is the version of the sample record written by
// AppendBinary (and the file format of the sample files holding such
// records). It is independent of Version, the plane and policy layout that
// checkpoints also store: a new record field does not change what a
// network sees. Records of version 1 (no truncation flag, end value or
// auxiliary targets) are still read.
const RecordVersion = 2

// Record flags (the u8 after the ply).
const (
	flagFull      = 1 << 0 // the move had a full search
	flagTruncated = 1 << 1 // version 2: the game was stopped by the self-play ply cap
	flagAux       = 1 << 2 // version 2: auxiliary targets follow the end value
	flagsV1       = flagFull
	flagsV2       = flagFull | flagTruncated | flagAux
)

// maxOwnership bounds the ownership squares of a record (Chu has 144).
const maxOwnership = 1024

// AppendBinary appends the sample's record (length-prefixed, see the
// package documentation), always of version RecordVersion.
func (s *Sample) AppendBinary(b []byte) ([]byte, error) {
	if err := s.checkSizes(); err != nil {
		return b, err
	}
	start := len(b)
	b = append(b, 0, 0, 0, 0) // length, filled in below
	b = append(b, RecordVersion, byte(s.Config.Variant))
	var err error
	if b, err = s.Config.AppendBinary(b); err != nil {
		return b[:start], err
	}
	b = binary.LittleEndian.AppendUint64(b, s.GameID)
	b = binary.LittleEndian.AppendUint32(b, s.Ply)
	var flags byte
	if s.FullSearch {
		flags |= flagFull
	}
	if s.Truncated {
		flags |= flagTruncated
	}
	if s.Aux != nil {
		flags |= flagAux
	}
	b = append(b, flags, s.Repetitions)
	b = appendF32(b, s.RootValue)
	b = binary.LittleEndian.AppendUint32(b, s.RootVisits)
	b = append(b, byte(s.Outcome), byte(len(s.History)))
	for _, h := range s.History {
		b = append(b, h.From, h.Mid, h.To, h.Flags)
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(len(s.SFEN)))
	b = append(b, s.SFEN...)
	b = appendPolicy(b, s.Policy)
	b = appendF32(b, s.EndValue)
	if a := s.Aux; a != nil {
		b = appendPolicy(b, a.ReplyPolicy)
		b = appendF32(b, a.MaterialEnd)
		b = appendF32(b, a.MaterialAhead)
		b = binary.LittleEndian.AppendUint16(b, uint16(len(a.Ownership)))
		for _, o := range a.Ownership {
			b = append(b, byte(o))
		}
		for _, v := range a.ShortValue {
			b = appendF32(b, v)
		}
	}
	binary.LittleEndian.PutUint32(b[start:], uint32(len(b)-start-4))
	return b, nil
}

// checkSizes refuses a sample whose lists do not fit their record fields.
func (s *Sample) checkSizes() error {
	switch {
	case len(s.SFEN) > maxSFEN:
		return fmt.Errorf("encode: SFEN of %d bytes", len(s.SFEN))
	case len(s.History) > MaxHistory:
		return fmt.Errorf("encode: %d history moves, at most %d", len(s.History), MaxHistory)
	case len(s.Policy) > maxPolicy:
		return fmt.Errorf("encode: policy of %d entries", len(s.Policy))
	case s.Aux == nil:
		return nil
	case len(s.Aux.ReplyPolicy) > maxPolicy:
		return fmt.Errorf("encode: reply policy of %d entries", len(s.Aux.ReplyPolicy))
	case len(s.Aux.Ownership) > maxOwnership:
		return fmt.Errorf("encode: ownership of %d squares", len(s.Aux.Ownership))
	}
	for _, o := range s.Aux.Ownership {
		if o < -1 || o > 1 {
			return fmt.Errorf("encode: ownership value %d, want -1, 0 or 1", o)
		}
	}
	return nil
}

func appendF32(b []byte, v float32) []byte {
	return binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
}

func appendPolicy(b []byte, p []PolicyEntry) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(p)))
	for _, e := range p {
		b = binary.LittleEndian.AppendUint32(b, e.Index)
		b = appendF32(b, e.Prob)
	}
	return b
}

// decodeRecord reads one record body (after its length field) of record
// version 1 or 2 and returns that version.
func decodeRecord(b []byte, s *Sample) (uint8, error) {
	d := decoder{b: b}
	version := d.u8()
	if d.err == nil && (version < 1 || version > RecordVersion) {
		return version, fmt.Errorf("record version %d, this build reads 1 to %d", version, RecordVersion)
	}
	variant := d.u8()
	cfg := d.bytes(rules.BinarySize)
	if d.err != nil {
		return version, d.err
	}
	if err := s.Config.UnmarshalBinary(cfg); err != nil {
		return version, err
	}
	if byte(s.Config.Variant) != variant {
		return version, fmt.Errorf("record variant %d disagrees with its rules config (%s)", variant, s.Config.Variant)
	}
	s.GameID = d.u64()
	s.Ply = d.u32()
	flags := d.u8()
	s.FullSearch = flags&flagFull != 0
	s.Truncated = flags&flagTruncated != 0
	s.Repetitions = d.u8()
	s.RootValue = d.f32()
	s.RootVisits = d.u32()
	s.Outcome = Outcome(d.u8())
	nh := int(d.u8())
	allowed := byte(flagsV1)
	if version >= 2 {
		allowed = flagsV2
	}
	if d.err == nil && (flags&^allowed != 0 || s.Outcome > Loss || nh > MaxHistory) {
		return version, fmt.Errorf("bad flags %#x, outcome %d or history count %d", flags, s.Outcome, nh)
	}
	s.History = s.History[:0]
	for i := 0; i < nh && d.err == nil; i++ {
		h := d.bytes(4)
		if d.err == nil {
			s.History = append(s.History, HistMove{h[0], h[1], h[2], h[3]})
		}
	}
	ns := int(d.u16())
	if d.err == nil && ns > maxSFEN {
		return version, fmt.Errorf("SFEN length %d", ns)
	}
	s.SFEN = string(d.bytes(ns))
	s.Policy = d.policy(s.Policy[:0], "policy")
	s.EndValue, s.Aux = 0, nil
	if version >= 2 {
		s.EndValue = d.f32()
		if flags&flagAux != 0 {
			s.Aux = d.aux()
		}
	}
	if d.err != nil {
		return version, d.err
	}
	if d.off != len(b) {
		return version, fmt.Errorf("%d unread bytes at the end of the record", len(b)-d.off)
	}
	return version, nil
}

// aux reads the auxiliary targets of a version 2 record.
func (d *decoder) aux() *AuxTargets {
	a := &AuxTargets{}
	a.ReplyPolicy = d.policy(nil, "reply policy")
	a.MaterialEnd = d.f32()
	a.MaterialAhead = d.f32()
	n := int(d.u16())
	if d.err == nil && n > maxOwnership {
		d.err = fmt.Errorf("ownership of %d squares", n)
	}
	if own := d.bytes(n); d.err == nil && n > 0 {
		a.Ownership = make([]int8, n)
		for i, o := range own {
			if int8(o) < -1 || int8(o) > 1 {
				d.err = fmt.Errorf("ownership value %d at square %d", int8(o), i)
				break
			}
			a.Ownership[i] = int8(o)
		}
	}
	for i := range a.ShortValue {
		a.ShortValue[i] = d.f32()
	}
	return a
}

// policy reads a u32 count and that many (index, probability) pairs,
// appending them to dst.
func (d *decoder) policy(dst []PolicyEntry, what string) []PolicyEntry {
	n := int(d.u32())
	if d.err == nil && (n > maxPolicy || n*8 > len(d.b)-d.off) {
		d.err = fmt.Errorf("%s of %d entries does not fit the record", what, n)
	}
	for i := 0; i < n && d.err == nil; i++ {
		idx := d.u32()
		dst = append(dst, PolicyEntry{idx, d.f32()})
	}
	return dst
}

// decoder reads little-endian fields and remembers the first overrun.
type decoder struct {
	b   []byte
	off int
	err error
}

var errShort = errors.New("record ends early")

func (d *decoder) bytes(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || d.off+n > len(d.b) {
		d.err = errShort
		return nil
	}
	out := d.b[d.off : d.off+n]
	d.off += n
	return out
}

func (d *decoder) u8() uint8 {
	if b := d.bytes(1); b != nil {
		return b[0]
	}
	return 0
}

func (d *decoder) u16() uint16 {
	if b := d.bytes(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if b := d.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) f32() float32 { return math.Float32frombits(d.u32()) }

func (d *decoder) u64() uint64 {
	if b := d.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}
