package mcts

import (
	"errors"
	"fmt"
	"time"
)

// Budget bounds one search: a number of simulations, a time, or both
// (whichever ends first). A zero Budget is invalid. Players (the arena's
// searchers, the XBoard engine) take their limits as a Budget.
type Budget struct {
	Simulations int
	Time        time.Duration
}

// Validate reports a budget that bounds nothing or is negative.
func (b Budget) Validate() error {
	if b.Simulations < 0 || b.Time < 0 {
		return fmt.Errorf("mcts: negative search budget %+v", b)
	}
	if b.Simulations == 0 && b.Time == 0 {
		return errors.New("mcts: a search budget needs simulations or a time")
	}
	return nil
}

// String returns e.g. "800 sims" or "2s".
func (b Budget) String() string {
	switch {
	case b.Time == 0:
		return fmt.Sprintf("%d sims", b.Simulations)
	case b.Simulations == 0:
		return b.Time.String()
	}
	return fmt.Sprintf("%d sims/%v", b.Simulations, b.Time)
}
