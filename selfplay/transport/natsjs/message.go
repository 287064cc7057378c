package natsjs

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/nats-io/nats.go"

	"chuzero/selfplay/transport"
)

// Messages. A batch travels as the parts of its two files: the sample
// file on subject chuzero.<run>.samples, the record file on
// chuzero.<run>.games, each cut into parts of at most Config.PartSize
// bytes (an empty file is one empty part). Every message carries:
//
//	Nats-Msg-Id        <batch hash>.<kind>.<part>: the same batch sent again
//	                   (a worker retrying, or restarted) is dropped by the stream
//	Chuzero-Version    1, this format
//	Chuzero-Batch      the batch name (transport.ValidName)
//	Chuzero-Hash       the batch hash (transport.Batch.Hash), checked by the trainer
//	Chuzero-Part       <part index>/<parts of this file>, from 0
//	Chuzero-Parts      <parts of the sample file> <parts of the record file>
//	Chuzero-Games      the games in the batch
//	Chuzero-Worker, Chuzero-Host, Chuzero-Pid   who sent it
//
// The trainer assembles the parts of both files, checks the hash, the
// sample file (checksums, variant) and the records (JSON, count), writes
// the two files and only then acknowledges every part.
const (
	hdrVersion = "Chuzero-Version"
	hdrBatch   = "Chuzero-Batch"
	hdrHash    = "Chuzero-Hash"
	hdrPart    = "Chuzero-Part"
	hdrParts   = "Chuzero-Parts"
	hdrGames   = "Chuzero-Games"
	hdrWorker  = "Chuzero-Worker"
	hdrHost    = "Chuzero-Host"
	hdrPid     = "Chuzero-Pid"
	version    = "1"
)

// split cuts b into parts of at most size bytes (one empty part for an
// empty b).
func split(b []byte, size int) [][]byte {
	if len(b) == 0 {
		return [][]byte{{}}
	}
	var out [][]byte
	for len(b) > 0 {
		n := min(size, len(b))
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}

// messages returns the messages of batch b from worker.
func (c Config) messages(b transport.Batch, worker string) []*nats.Msg {
	hash := b.Hash()
	sp, gp := split(b.Samples, c.PartSize), split(b.Records, c.PartSize)
	host, _ := os.Hostname()
	var out []*nats.Msg
	for _, f := range []struct {
		kind  string
		parts [][]byte
	}{{kindSamples, sp}, {kindGames, gp}} {
		for i, p := range f.parts {
			m := nats.NewMsg(c.subject(f.kind))
			m.Data = p
			m.Header.Set(nats.MsgIdHdr, fmt.Sprintf("%s.%s.%d", hash, f.kind, i))
			m.Header.Set(hdrVersion, version)
			m.Header.Set(hdrBatch, b.Name)
			m.Header.Set(hdrHash, hash)
			m.Header.Set(hdrPart, fmt.Sprintf("%d/%d", i, len(f.parts)))
			m.Header.Set(hdrParts, fmt.Sprintf("%d %d", len(sp), len(gp)))
			m.Header.Set(hdrGames, strconv.Itoa(b.Games))
			m.Header.Set(hdrWorker, worker)
			m.Header.Set(hdrHost, host)
			m.Header.Set(hdrPid, strconv.Itoa(os.Getpid()))
			out = append(out, m)
		}
	}
	return out
}

// part is one parsed message.
type part struct {
	kind           string // kindSamples or kindGames
	batch, hash    string
	index, of      int
	samples, games int // parts of each file
	count          int // games
	worker         string
}

// parsePart reads the headers of a message on subject; an error says why
// it is not one of ours.
func (c Config) parsePart(subject string, h nats.Header) (part, error) {
	var p part
	switch subject {
	case c.subject(kindSamples):
		p.kind = kindSamples
	case c.subject(kindGames):
		p.kind = kindGames
	default:
		return p, fmt.Errorf("subject %q", subject)
	}
	if h == nil {
		return p, fmt.Errorf("no headers")
	}
	if v := h.Get(hdrVersion); v != version {
		return p, fmt.Errorf("format version %q, want %s", v, version)
	}
	p.batch, p.hash, p.worker = h.Get(hdrBatch), h.Get(hdrHash), h.Get(hdrWorker)
	if !transport.ValidName(p.batch) {
		return p, fmt.Errorf("bad batch name %q", p.batch)
	}
	if len(p.hash) != 64 || strings.Trim(p.hash, "0123456789abcdef") != "" {
		return p, fmt.Errorf("bad hash %q", p.hash)
	}
	if p.worker == "" {
		p.worker = "unknown"
	}
	if len(p.worker) > 128 {
		p.worker = p.worker[:128]
	}
	if _, err := fmt.Sscanf(h.Get(hdrPart), "%d/%d", &p.index, &p.of); err != nil {
		return p, fmt.Errorf("bad part %q", h.Get(hdrPart))
	}
	if _, err := fmt.Sscanf(h.Get(hdrParts), "%d %d", &p.samples, &p.games); err != nil {
		return p, fmt.Errorf("bad parts %q", h.Get(hdrParts))
	}
	n, err := strconv.Atoi(h.Get(hdrGames))
	if err != nil || n < 1 {
		return p, fmt.Errorf("bad game count %q", h.Get(hdrGames))
	}
	p.count = n
	want := p.samples
	if p.kind == kindGames {
		want = p.games
	}
	const maxParts = 1 << 16
	if p.samples < 1 || p.games < 1 || p.samples > maxParts || p.games > maxParts || p.of != want || p.index < 0 || p.index >= p.of {
		return p, fmt.Errorf("part %d/%d of %d+%d", p.index, p.of, p.samples, p.games)
	}
	return p, nil
}
