// Package trainingtest has the run config of the tests that start real
// training runs (selfplay/training's, the command's).
package trainingtest

import (
	"os"
	"path/filepath"
	"testing"
)

// QuickConfig is a run small enough for tests: the tiny network on Sho,
// few playouts, a batch file per game, frequent checkpoints.
const QuickConfig = `
variant: sho
model: {preset: tiny}
selfplay: {games: 4, full_simulations: 8, cheap_simulations: 2, games_per_file: 1, batch: 8, cache: 0}
train: {batch: 32, min_samples: 64, min_games: 2, early_reuse: 8, checkpoint_every: 5, max_reuse: 8, window_min: 500, poll: 200ms, warmup_steps: 5}
`

// WriteQuickConfig writes QuickConfig (and extra after it, if any) to a
// file of t's and returns its path.
func WriteQuickConfig(t testing.TB, extra string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "quick.yaml")
	if err := os.WriteFile(p, []byte(QuickConfig+extra), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
