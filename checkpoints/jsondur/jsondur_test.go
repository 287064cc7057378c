package jsondur

import (
	"encoding/json"
	"testing"
	"time"
)

// TestDuration writes a duration as a string and reads it back.
func TestDuration(t *testing.T) {
	var c struct {
		Poll Duration `json:"poll"`
	}
	c.Poll = Duration(90 * time.Second)
	b, err := json.Marshal(c)
	if err != nil || string(b) != `{"poll":"1m30s"}` {
		t.Fatalf("Marshal: %s, %v", b, err)
	}
	if err := json.Unmarshal([]byte(`{"poll":"2ms"}`), &c); err != nil || c.Poll.D() != 2*time.Millisecond {
		t.Errorf("Unmarshal \"2ms\": %v, %v", c.Poll, err)
	}
	if err := json.Unmarshal([]byte(`{"poll":"soon"}`), &c); err == nil {
		t.Error("Unmarshal \"soon\": no error")
	}
}
