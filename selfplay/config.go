package selfplay

import (
	"errors"
	"fmt"
	"time"

	"chuzero/encode"
	"chuzero/mcts"
	"chuzero/rules"
)

// Config configures self-play.
type Config struct {
	Rules  rules.Config   // the game and its options
	Encode encode.Options // the samples' encoding (history planes)
	Search mcts.Config

	Games int // games played at the same time (one goroutine each)

	// Playout-cap randomization (KataGo): a move gets a full search of
	// FullSimulations (its policy becomes a training target) with
	// probability FullSearchFraction, otherwise a cheap search of
	// CheapSimulations whose move is recorded for the value target only.
	FullSimulations    int
	CheapSimulations   int
	FullSearchFraction float64
	// Gumbel: full searches use the Gumbel root search (better at small
	// budgets); otherwise PUCT with Dirichlet noise and temperature.
	Gumbel bool

	// Resignation: a side resigns when its root value has stayed below
	// ResignThreshold for ResignConsecutive of its searches in a row. In a
	// fraction NoResignFraction of games nobody may resign; they measure
	// how often a resignation would have been wrong.
	ResignThreshold   float64
	ResignConsecutive int
	NoResignFraction  float64

	Seed uint64 // every game's seed derives from it and the game's index

	// Output: every GamesPerFile finished games (or every FlushInterval)
	// go into one sample file under Dir/samples and one record file under
	// Dir/games, both written atomically.
	Dir           string
	GamesPerFile  int
	FlushInterval time.Duration
}

// DefaultConfig returns defaults for a CPU run of variant v: 16 games at a
// time, Gumbel full searches of 64 playouts on a quarter of the moves,
// cheap searches of 16, resignation below -0.95 for 4 moves in a row with
// 10% of games forbidden to resign, 8 games per file.
func DefaultConfig(v rules.VariantID) Config {
	sc := mcts.DefaultConfig()
	return Config{Rules: rules.DefaultConfig(v), Encode: encode.DefaultOptions(), Search: sc, Games: 16,
		FullSimulations: 64, CheapSimulations: 16, FullSearchFraction: 0.25, Gumbel: true,
		ResignThreshold: -0.95, ResignConsecutive: 4, NoResignFraction: 0.1,
		Seed: 1, GamesPerFile: 8, FlushInterval: 5 * time.Minute}
}

// Validate reports a problem with c.
func (c Config) Validate() error {
	if err := c.Rules.Validate(); err != nil {
		return err
	}
	if err := c.Encode.Validate(); err != nil {
		return err
	}
	if err := c.Search.Validate(); err != nil {
		return err
	}
	switch {
	case c.Games < 1:
		return fmt.Errorf("selfplay: %d concurrent games", c.Games)
	case c.FullSimulations < 1 || c.CheapSimulations < 1:
		return errors.New("selfplay: simulations must be at least 1")
	case c.FullSearchFraction < 0 || c.FullSearchFraction > 1 || c.NoResignFraction < 0 || c.NoResignFraction > 1:
		return errors.New("selfplay: fractions must be in [0, 1]")
	case c.ResignConsecutive < 1:
		return errors.New("selfplay: ResignConsecutive must be at least 1")
	case c.GamesPerFile < 1:
		return errors.New("selfplay: GamesPerFile must be at least 1")
	case c.Dir == "":
		return errors.New("selfplay: no output directory")
	}
	return nil
}
