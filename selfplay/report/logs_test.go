package report

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestLogs(t *testing.T) {
	dir := t.TempDir()
	a := NewAppender(dir, TrainLog)
	for i := 0; i < 3; i++ {
		if err := a.Append(TrainEntry{Time: time.Unix(int64(i), 0).UTC(), Step: int64(i * 10), Loss: 1}); err != nil {
			t.Fatal(err)
		}
	}
	// a crash mid-write leaves half a line: skipped
	f, _ := os.OpenFile(filepath.Join(dir, LogsDir, TrainLog), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"time":"2026`)
	f.Close()
	got, err := ReadLog[TrainEntry](dir, TrainLog)
	if err != nil || len(got) != 3 || got[2].Step != 20 {
		t.Fatalf("ReadLog = %+v, %v", got, err)
	}
	// a damaged line in the middle is an error
	os.WriteFile(filepath.Join(dir, LogsDir, EvalLog), []byte("{}\nnot json\n{}\n"), 0o644)
	if _, err := ReadLog[EvalEntry](dir, EvalLog); err == nil {
		t.Errorf("a damaged line in the middle was accepted")
	}
	if got, err := ReadLog[GatingEntry](dir, GatingLog); err != nil || got != nil {
		t.Errorf("a missing log: %v, %v", got, err)
	}
}
