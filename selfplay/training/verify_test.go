package training

import (
	"testing"

	"chuzero/checkpoints"
	"chuzero/encode"
)

// TestPrunedAway: a record pairs with a pruned sample file only when its
// name is up to the ledger's newest and its sample file is gone; a late
// batch with an older name whose samples are still there stays paired.
func TestPrunedAway(t *testing.T) {
	records := []string{"g/a.jsonl", "g/b.jsonl", "g/c.jsonl", "g/d.jsonl"}
	samples := []string{"s/b" + encode.SampleFileExt, "s/d" + encode.SampleFileExt}
	for _, tc := range []struct {
		through string
		want    int // unpaired
	}{
		{"", 2},  // nothing pruned: a and c have no samples
		{"a", 1}, // a pruned; c unpaired
		{"c", 0}, // a and c pruned; b kept though older than c
		{"d", 0},
	} {
		got := unpaired(samples, encode.SampleFileExt, prunedAway(records, samples, tc.through), checkpoints.RecordExt)
		if got != tc.want {
			t.Errorf("through %q: %d unpaired, want %d", tc.through, got, tc.want)
		}
	}
}
