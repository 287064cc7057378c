package checkpoints

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"chuzero/checkpoints/atomicfile"
)

// The logs of a run (training steps, evaluation matches, gating
// decisions), under LogsDir. Each is JSON Lines, one
// object per line, appended as the run goes; a reader skips and counts
// damaged lines (a process killed while writing cuts one).
const (
	TrainLog  = "train.jsonl"  // TrainEntry
	EvalLog   = "eval.jsonl"   // EvalEntry
	GatingLog = "gating.jsonl" // GatingEntry
)

// TrainEntry is a training step's report (every few steps).
type TrainEntry struct {
	Time        time.Time `json:"time"`
	Step        int64     `json:"step"`
	PolicyLoss  float64   `json:"policy_loss"`
	ValueLoss   float64   `json:"value_loss"`
	L2Loss      float64   `json:"l2_loss"`
	Loss        float64   `json:"loss"`
	LR          float64   `json:"lr"`
	GradNorm    float64   `json:"grad_norm"`
	Samples     int64     `json:"samples"`      // samples generated so far (loaded by the trainer)
	SamplesSeen int64     `json:"samples_seen"` // samples trained on so far
	Window      int       `json:"window"`
	Games       int64     `json:"games,omitempty"` // training games generated so far
	// The auxiliary heads' losses (absent in runs without them).
	ReplyLoss      float64 `json:"reply_loss,omitempty"`
	MaterialLoss   float64 `json:"material_loss,omitempty"`
	OwnershipLoss  float64 `json:"ownership_loss,omitempty"`
	ShortValueLoss float64 `json:"short_value_loss,omitempty"`
	ValueQ         float64 `json:"value_q,omitempty"` // weight of the search value in the value target
	// The loss on held-out games, on the steps that measure it: beside
	// the training loss, it shows overfitting.
	HeldOutPolicy float64 `json:"heldout_policy_loss,omitempty"`
	HeldOutValue  float64 `json:"heldout_value_loss,omitempty"`
	// Reanalysed counts the samples re-searched with the newest network
	// so far (train.reanalyse; absent when off).
	Reanalysed int64 `json:"reanalysed,omitempty"`
}

// EvalEntry is one evaluation match of a checkpoint against an anchor.
type EvalEntry struct {
	Time       time.Time `json:"time"`
	Step       int64     `json:"step"`       // the evaluated checkpoint's step
	Checkpoint string    `json:"checkpoint"` // its name
	Opponent   string    `json:"opponent"`   // the anchor: "first", "greedy", "hachu-d1", ...
	Games      int       `json:"games"`
	Wins       int       `json:"wins"` // of the checkpoint
	Draws      int       `json:"draws"`
	Losses     int       `json:"losses"`
	Elo        float64   `json:"elo"`      // the checkpoint's Elo relative to the opponent
	EloLow     float64   `json:"elo_low"`  // 95% interval
	EloHigh    float64   `json:"elo_high"` //
}

// GatingEntry is one gating decision: a candidate checkpoint against the
// current best by SPRT.
type GatingEntry struct {
	Time      time.Time `json:"time"`
	Candidate string    `json:"candidate"`
	Best      string    `json:"best"`
	Games     int       `json:"games"`
	Wins      int       `json:"wins"`
	Draws     int       `json:"draws"`
	Losses    int       `json:"losses"`
	LLR       float64   `json:"llr"`
	Decision  string    `json:"decision"` // "accept" (promoted), "reject", "inconclusive"
	Promoted  bool      `json:"promoted"`
}

// Appender appends entries to a log file; safe for concurrent use.
type Appender struct {
	mu   sync.Mutex
	path string
}

// Appender returns an appender to the log name of the run (created on
// first write).
func (r Run) Appender(name string) *Appender {
	return &Appender{path: r.Log(name)}
}

// Append writes v as one line, with one write call, so a reader never
// sees half a line except after a crash mid-write. If such a crash left a
// cut line at the end, the entry starts on a fresh line after it, so that
// only the cut line is lost.
func (a *Appender) Append(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(a.path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(a.path, os.O_APPEND|os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	line := make([]byte, 0, len(b)+2)
	if cut, err := endsCut(f); err != nil {
		f.Close()
		return err
	} else if cut {
		line = append(line, '\n')
	}
	line = append(append(line, b...), '\n')
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// endsCut reports whether f is not empty and does not end in a newline.
func endsCut(f *os.File) (bool, error) {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return false, err
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], st.Size()-1); err != nil {
		return false, err
	}
	return last[0] != '\n', nil
}

// ReadLog reads every entry of the run's log name into a slice of T. A
// missing file is an empty log. Lines that do not parse (a line cut by a
// crash, at the end or, after a restart, anywhere) are skipped and
// counted in damaged.
func ReadLog[T any](r Run, name string) (entries []T, damaged int, err error) {
	path := r.Log(name)
	err = ScanLines(path, func(v T) { entries = append(entries, v) }, func(int, bool, error) { damaged++ })
	return entries, damaged, err
}

// ScanLines calls each for every JSON line of the file at path that
// decodes as a T, and bad (with its line number, whether it is the file's
// last line and the decoding error) for every other non-blank line. A
// missing file has no lines; an error reading the file is returned.
func ScanLines[T any](path string, each func(T), bad func(line int, last bool, err error)) error {
	f, err := atomicfile.OpenRegular(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checkpoints: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 64<<20)
	badLine, badErr := 0, error(nil) // reported once the next line shows whether it was the last
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if badErr != nil {
			bad(badLine, false, badErr)
			badErr = nil
		}
		var v T
		if err := json.Unmarshal(b, &v); err != nil {
			badLine, badErr = line, err
			continue
		}
		each(v)
	}
	if badErr != nil {
		bad(badLine, true, badErr)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("checkpoints: %s: %w", path, err)
	}
	return nil
}
