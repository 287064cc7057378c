package checkpoints

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func appendSteps(t *testing.T, a *Appender, steps ...int64) {
	t.Helper()
	for _, s := range steps {
		if err := a.Append(TrainEntry{Time: time.Unix(s, 0).UTC(), Step: s, Loss: 1}); err != nil {
			t.Fatal(err)
		}
	}
}

func cutLine(t *testing.T, dir, name string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, LogsDir, name), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"time":"2026`) // a crash mid-write
	f.Close()
}

func TestLogs(t *testing.T) {
	dir := t.TempDir()
	a := Run{Dir: dir}.Appender(TrainLog)
	appendSteps(t, a, 0, 10, 20)
	cutLine(t, dir, TrainLog)
	got, damaged, err := ReadLog[TrainEntry](Run{Dir: dir}, TrainLog)
	if err != nil || len(got) != 3 || got[2].Step != 20 || damaged != 1 {
		t.Fatalf("ReadLog after a cut = %+v, %d damaged, %v", got, damaged, err)
	}
	// the run restarts and appends: the new entries start on a fresh
	// line, and only the cut one is lost
	appendSteps(t, a, 30, 40)
	cutLine(t, dir, TrainLog)
	appendSteps(t, a, 50)
	got, damaged, err = ReadLog[TrainEntry](Run{Dir: dir}, TrainLog)
	if err != nil || len(got) != 6 || got[5].Step != 50 || damaged != 2 {
		t.Fatalf("ReadLog after restarts = %d entries (%+v), %d damaged, %v", len(got), got, damaged, err)
	}
	// a damaged line anywhere is skipped and counted
	os.WriteFile(filepath.Join(dir, LogsDir, EvalLog), []byte("{}\nnot json\n{}\n"), 0o644)
	if evals, damaged, err := ReadLog[EvalEntry](Run{Dir: dir}, EvalLog); err != nil || len(evals) != 2 || damaged != 1 {
		t.Errorf("a damaged middle line: %d entries, %d damaged, %v", len(evals), damaged, err)
	}
	if got, damaged, err := ReadLog[GatingEntry](Run{Dir: dir}, GatingLog); err != nil || got != nil || damaged != 0 {
		t.Errorf("a missing log: %v, %d, %v", got, damaged, err)
	}
}

// FuzzScanLines: any log file reads without a panic; every line is either
// an entry or counted as damaged.
func FuzzScanLines(f *testing.F) {
	f.Add([]byte("{\"step\": 1}\n{\"time\":\"2026\nnot json\n\n{}\n"))
	f.Add([]byte(`{"step": "x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "log.jsonl")
		os.WriteFile(p, data, 0o644)
		good, bad := 0, 0
		if err := ScanLines(p, func(TrainEntry) { good++ }, func(int, bool, error) { bad++ }); err != nil {
			return // a line over the scanner's limit
		}
		if good+bad > bytes.Count(data, []byte("\n"))+1 {
			t.Fatalf("%d entries and %d damaged lines from %d lines", good, bad, bytes.Count(data, []byte("\n"))+1)
		}
	})
}
