package engine

import (
	"fmt"
	"log/slog"
	"strings"
	"time"

	"chuzero/mcts"
	"chuzero/rules"
)

// NoClockSimulations is the search of a move under a zero Budget (the
// clock alone) when the GUI gives no clock.
const NoClockSimulations = 400

// Config configures an engine.
type Config struct {
	// Name is sent as the engine's name (CECP feature myname, USI id name).
	Name string
	// Eval scores positions for the search (nil: mcts.Uniform, pure
	// rules-scored tree search).
	Eval mcts.Evaluator
	// Variants are the games offered (default: all three). An engine with
	// a network offers the network's game only.
	Variants []rules.VariantID
	// Rules are rules options ("Name=Value") applied to every game whose
	// variant has them, before the options the GUI sets.
	Rules []string
	// Search configures the tree search (default: mcts.MatchConfig).
	Search *mcts.Config
	// Budget bounds each search when the GUI gives no clock, and caps its
	// simulations always if Budget.Simulations > 0. A zero Budget is the
	// clock alone: the GUI's time, or NoClockSimulations when it gives none.
	Budget mcts.Budget
	// Seed drives the search's randomness.
	Seed uint64
	// Log receives diagnostics (default: none).
	Log *slog.Logger
	// ReportEvery is the interval of progress reports (USI info lines,
	// CECP thinking output) during a search (default 1s).
	ReportEvery time.Duration
}

// prepare fills in the defaults of cfg and checks it; it returns the
// search configuration to use.
func (cfg *Config) prepare() (mcts.Config, error) {
	if cfg.Name == "" {
		cfg.Name = "chuzero"
	}
	if cfg.Eval == nil {
		cfg.Eval = mcts.Uniform{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.ReportEvery <= 0 {
		cfg.ReportEvery = time.Second
	}
	if cfg.Budget != (mcts.Budget{}) {
		if err := cfg.Budget.Validate(); err != nil {
			return mcts.Config{}, err
		}
	}
	var search mcts.Config
	if cfg.Search != nil {
		search = *cfg.Search
	} else {
		search = mcts.MatchConfig()
	}
	search.ReuseTree = true
	if err := search.Validate(); err != nil {
		return mcts.Config{}, err
	}
	if len(cfg.Variants) == 0 {
		cfg.Variants = rules.Variants
	}
	for _, a := range cfg.Rules {
		name, _, ok := strings.Cut(a, "=")
		if !ok {
			return mcts.Config{}, fmt.Errorf("rules option %q is not Name=Value", a)
		}
		applies := false
		for _, v := range cfg.Variants {
			c := rules.DefaultConfig(v)
			if c.SetAssignment(a) == nil {
				applies = true
			}
		}
		if !applies {
			return mcts.Config{}, fmt.Errorf("rules option %q applies to none of the variants offered", name)
		}
	}
	return search, nil
}
