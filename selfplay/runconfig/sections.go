package runconfig

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"chuzero/checkpoints/jsondur"
)

// EvalConfig configures the periodic evaluation of a run's latest
// checkpoint against fixed anchors (the "eval" section of a run config).
type EvalConfig struct {
	Interval    jsondur.Duration `json:"interval"`      // time between evaluations (0: none)
	Games       int              `json:"games"`         // games per anchor (even: colours swapped)
	Simulations int              `json:"simulations"`   // playouts per move of the checkpoints
	Anchors     []string         `json:"anchors"`       // first, previous, greedy, random, ab1..ab9 (alpha-beta depth N), hachu (Chu, if installed)
	HaChuDepth  int              `json:"hachu_depth"`   // HaChu's search depth ("sd")
	Concurrency int              `json:"concurrency"`   // games at once
	Threads     int              `json:"threads"`       // goroutines per network layer
	OpeningPly  int              `json:"opening_plies"` // plies of the random balanced openings
}

// GatingConfig configures gating: a new checkpoint replaces the best one
// for self-play only if it wins an SPRT against it (the "gating" section).
type GatingConfig struct {
	Enabled     bool    `json:"enabled"`
	Games       int     `json:"games"`       // most games of one decision (then: rejected, inconclusive)
	Simulations int     `json:"simulations"` // playouts per move
	Elo0        float64 `json:"elo0"`        // SPRT hypotheses (logistic Elo of the candidate over the best)
	Elo1        float64 `json:"elo1"`
	Alpha       float64 `json:"alpha"`
	Beta        float64 `json:"beta"`
	Concurrency int     `json:"concurrency"`
	Threads     int     `json:"threads"`
}

// DefaultEvalConfig evaluates hourly: 40 games (20 colour-swapped pairs)
// against each anchor at 64 playouts per move: the first checkpoint, the
// previously evaluated one, greedy, alpha-beta at depths 1 and 2, and HaChu
// at depth 1 (Chu). Ten games are ±200 Elo; forty about ±100.
func DefaultEvalConfig() EvalConfig {
	return EvalConfig{Interval: jsondur.Duration(time.Hour), Games: 40, Simulations: 64,
		Anchors:    []string{"first", "previous", "greedy", "ab1", "ab2", "hachu"},
		HaChuDepth: 1, Concurrency: 1, Threads: 1, OpeningPly: 6}
}

// DefaultGatingConfig: off; when on, SPRT [0, 35] Elo at 5%/5%, at most
// 400 games of 64 playouts per move.
func DefaultGatingConfig() GatingConfig {
	return GatingConfig{Games: 400, Simulations: 64, Elo0: 0, Elo1: 35, Alpha: 0.05, Beta: 0.05, Concurrency: 1, Threads: 1}
}

// Validate reports a bad setting.
func (c EvalConfig) Validate() error {
	if c.Interval < 0 || c.Games < 0 || c.Simulations < 0 || c.Concurrency < 0 || c.Threads < 0 || c.HaChuDepth < 0 {
		return errors.New("eval: negative setting")
	}
	if c.Interval > 0 && (c.Games < 2 || c.Simulations < 1) {
		return errors.New("eval: games must be at least 2 and simulations at least 1")
	}
	for _, a := range c.Anchors {
		if !ValidAnchor(a) {
			return fmt.Errorf("eval: unknown anchor %q (first, previous, greedy, random, ab1..ab9, hachu)", a)
		}
	}
	return nil
}

// Validate reports a bad setting (none when gating is off).
func (c GatingConfig) Validate() error {
	if !c.Enabled {
		return nil
	}
	if c.Games < 2 || c.Simulations < 1 || c.Concurrency < 0 || c.Threads < 0 {
		return errors.New("gating: games must be at least 2, simulations at least 1")
	}
	return nil // the SPRT's bounds are checked where it is built (selfplay/training)
}

// The evaluation's anchors: "first" (the run's first checkpoint, pinned as
// anchors/first.ckpt), "previous" (the checkpoint evaluated before, pinned
// as anchors/previous.ckpt: a rolling anchor that measures progress per
// interval), "greedy", "random", "abN" (the alpha-beta player at depth N,
// 1..9) and "hachu" (Chu, when Debian's hachu is installed).

// ValidAnchor reports whether a names an anchor.
func ValidAnchor(a string) bool {
	switch a {
	case "first", "previous", "greedy", "random", "hachu":
		return true
	}
	_, ok := AnchorDepth(a)
	return ok
}

// AnchorDepth reads "abN" (N in 1..9).
func AnchorDepth(a string) (int, bool) {
	d, err := strconv.Atoi(strings.TrimPrefix(a, "ab"))
	if !strings.HasPrefix(a, "ab") || err != nil || d < 1 || d > 9 {
		return 0, false
	}
	return d, true
}
