package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"chuzero/checkpoints/atomicfile"
)

// maxLine bounds one game's line (a record of thousands of plies is well
// under a megabyte).
const maxLine = 64 << 20

// lineSummary is the part of a game line the index keeps; it decodes both
// a selfplay.Record and an arena.GameRecord, skipping the move, value and
// visit lists without keeping them.
type lineSummary struct {
	ID        string    `json:"id"`        // self-play only
	Index     int64     `json:"index"`     //
	Evaluator string    `json:"evaluator"` // self-play: the network of both sides
	Sente     string    `json:"sente"`     // matches
	Gote      string    `json:"gote"`      //
	Result    string    `json:"result"`
	Reason    string    `json:"reason"`
	Plies     int       `json:"plies"`
	Started   time.Time `json:"started"`
	Seconds   float64   `json:"seconds"`
}

// scanSource reads the games file of src line by line (never whole),
// keeping each game's summary and the offset of its line. A line that does
// not decode is skipped: silently when it is the last line and has no
// newline yet (the file is being written), with a warning otherwise.
func scanSource(src *source, intern func(string) string) {
	f, err := atomicfile.OpenRegular(src.path)
	if err != nil {
		src.warnings = append(src.warnings, fmt.Sprintf("%s: %v", src.path, err))
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	sc.Split(scanLinesKeepEnd)
	var off int64
	for line := 1; sc.Scan(); line++ {
		tok := sc.Bytes()
		start := off
		off += int64(len(tok))
		body := bytes.TrimRight(tok, "\r\n")
		complete := len(body) < len(tok)
		if len(bytes.TrimSpace(body)) == 0 {
			continue
		}
		var s lineSummary
		if err := json.Unmarshal(body, &s); err != nil {
			if complete {
				src.warnings = append(src.warnings, fmt.Sprintf("%s:%d: skipped: %v", src.path, line, err))
			} else {
				src.partial = true
			}
			continue
		}
		g := GameInfo{raw: s.ID, Kind: src.kind, Match: src.match, Index: s.Index,
			Sente: intern(s.Sente), Gote: intern(s.Gote), Result: intern(s.Result), Reason: intern(s.Reason),
			Plies: s.Plies, Started: s.Started, Seconds: s.Seconds, src: src, off: start, size: len(body)}
		if src.kind == KindSelfPlay {
			g.Sente, g.Gote = intern(s.Evaluator), intern(s.Evaluator)
		}
		src.games = append(src.games, g)
	}
	if err := sc.Err(); err != nil {
		src.warnings = append(src.warnings, fmt.Sprintf("%s: %v", src.path, err))
	}
}

// scanLinesKeepEnd is bufio.ScanLines keeping the newline, so that the
// tokens' lengths add up to byte offsets.
func scanLinesKeepEnd(data []byte, atEOF bool) (int, []byte, error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, data[:i+1], nil
	}
	if atEOF {
		return len(data), data, nil
	}
	return 0, nil, nil
}
