// Package jsondur is Duration, the type of the settings in time of the
// config files: a time.Duration that JSON writes and reads as a string
// like "90s", "2ms" or "1h30m", so that a config says what it means.
package jsondur

import (
	"encoding/json"
	"fmt"
	"time"
)

// Duration is a time.Duration that config files write as "2ms", "5m" or
// "1h30m" (JSON and YAML). The library configs use it for their settings
// in time, so that the run config can embed them as they are.
type Duration time.Duration

// D returns d as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// String returns e.g. "1h0m0s".
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalJSON writes d as a string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads a string like "2ms" or "5m".
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration must be a string like \"2ms\" or \"5m\": %w", err)
	}
	v, err := time.ParseDuration(s)
	*d = Duration(v)
	return err
}
