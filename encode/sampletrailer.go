package encode

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"chuzero/checkpoints/atomicfile"
)

// SampleFileRecords returns the record count a complete sample file's
// trailer states, reading only its header and trailer (a cheap bound on
// what a full read would load). The records themselves are not checked.
func SampleFileRecords(path string) (uint64, error) {
	f, err := atomicfile.OpenRegular(path)
	if err != nil {
		return 0, fmt.Errorf("encode: %w", err)
	}
	defer f.Close()
	sr, err := NewSampleReader(f, path)
	if err != nil {
		return 0, err
	}
	info, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("encode: %w", err)
	}
	if info.Size() < headerSize+trailerSize {
		return 0, sr.corrupt(info.Size(), "file ends without its trailer (truncated)")
	}
	var t [trailerSize]byte
	if _, err := f.ReadAt(t[:], info.Size()-trailerSize); err != nil {
		return 0, sr.corrupt(info.Size()-trailerSize, "truncated trailer")
	}
	if string(t[:4]) != endMagic || binary.LittleEndian.Uint32(t[16:]) != crc32.Checksum(t[:16], castagnoli) {
		return 0, sr.corrupt(info.Size()-trailerSize, "no valid trailer at the end of the file")
	}
	return binary.LittleEndian.Uint64(t[8:]), nil
}
