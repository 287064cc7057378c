// Package report keeps the logs of a training run (training steps,
// evaluation matches, gating decisions) and turns them, with the run's game
// records, into plots and an HTML page ("chuzero report").
package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Log files of a run directory, under LogsDir. Each is JSON Lines, one
// object per line, appended as the run goes; a reader skips a truncated
// last line (a process killed while writing).
const (
	LogsDir   = "logs"
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

// NewAppender returns an appender to runDir/logs/name (created on first
// write).
func NewAppender(runDir, name string) *Appender {
	return &Appender{path: filepath.Join(runDir, LogsDir, name)}
}

// Append writes v as one line, with one write call, so a reader never
// sees half a line except after a crash mid-write.
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
	f, err := os.OpenFile(a.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ReadLog reads every complete entry of runDir/logs/name into a slice of
// T. A missing file is an empty log; a line that does not parse is an
// error unless it is the last one (cut by a crash).
func ReadLog[T any](runDir, name string) ([]T, error) {
	path := filepath.Join(runDir, LogsDir, name)
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []T
	var bad error
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if bad != nil {
			return out, bad // a bad line that was not the last
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			bad = fmt.Errorf("report: %s:%d: %w", path, line, err)
			continue
		}
		out = append(out, v)
	}
	return out, sc.Err()
}
