package mcts

import (
	"errors"
	"fmt"

	"chuzero/mcts/qsearch"
)

// Config configures a search. See the package documentation for how the
// options act.
type Config struct {
	// PUCT exploration: c(N) = CPuct + log((1 + N + CPuctBase) / CPuctBase)
	// for a parent with N visits (AlphaZero's schedule).
	CPuct     float64 `json:"c_puct"`
	CPuctBase float64 `json:"c_puct_base"`
	// FPUReduction: an unvisited child is valued at its parent's value minus
	// FPUReduction * sqrt(the summed prior of the parent's visited children)
	// (first-play urgency, as lc0 and KataGo); FPURoot applies at the root.
	FPUReduction float64 `json:"fpu_reduction"`
	FPURoot      float64 `json:"fpu_root"`
	// Dirichlet noise on the root priors (self-play full searches):
	// alpha = NoiseAlphaScale / number of legal moves, mixed in with weight
	// NoiseFraction.
	NoiseAlphaScale float64 `json:"noise_alpha_scale"`
	NoiseFraction   float64 `json:"noise_fraction"`
	// Temperature schedule for choosing the move from the visit counts:
	// Temperature for the first TemperatureMoves plies of the game, then
	// FinalTemperature (0 = the most visited move).
	Temperature      float64 `json:"temperature"`
	TemperatureMoves int     `json:"temperature_moves"`
	FinalTemperature float64 `json:"final_temperature"`
	// Virtual loss: up to LeavesPerBatch leaves of one search are selected
	// (each path counted as a loss while in flight) and evaluated together.
	LeavesPerBatch int     `json:"leaves_per_batch"`
	VirtualLoss    float64 `json:"virtual_loss"`
	// Gumbel root search (Gumbel AlphaZero): sample GumbelK moves by
	// Gumbel-top-k on the prior logits and share the budget among them by
	// sequential halving; the policy target is the completed-Q improved
	// policy. GumbelCVisit and GumbelCScale scale the Q transform. Gumbel
	// is not a config-file key: its users choose it (self-play's "gumbel").
	Gumbel       bool    `json:"-"`
	GumbelK      int     `json:"gumbel_k"`
	GumbelCVisit float64 `json:"gumbel_c_visit"`
	GumbelCScale float64 `json:"gumbel_c_scale"`
	// GumbelRescaleQ min-max normalises the completed q of a node's
	// children to [0, 1] before the Q transform (mctx's rescale_values), so
	// that their whole span is worth (CVisit + max visits) * CScale logits
	// whatever the values' own scale; false keeps q's [-1, 1] (a span of 2
	// is worth that). mctx pairs it with CScale 0.1.
	GumbelRescaleQ bool `json:"gumbel_rescale_q,omitempty"`
	// GumbelInterior: in a Gumbel search, nodes below the root select
	// deterministically, argmax pi'(a) - N(a)/(1 + sum N), with pi' the
	// completed-Q improved policy of the node; false keeps PUCT there.
	GumbelInterior bool `json:"gumbel_interior"`
	// RootFullWidth makes PUCT visit every root move once, in prior order,
	// before any root move gets a second visit: a learned prior orders the
	// root but cannot narrow it, so a search of at least as many playouts
	// as legal moves sees every move's value (a one-ply full-width search
	// under the tree). Gumbel's root ignores it (it has its own halving).
	RootFullWidth bool `json:"root_full_width"`
	// ReuseTree keeps the subtree of the played move for the next search.
	ReuseTree bool `json:"reuse_tree"`
	// MaterialUtility adds MaterialUtility times the evaluator's material
	// forecast (eval.Request.Material: the balance AuxAheadPlies ahead,
	// in armies) to each evaluated position's value, clamped to [-1, 1]: a
	// utility beside winning, like KataGo's score utility, for a network
	// whose value head has not yet learnt what its material head has. 0
	// (the default) searches on the value alone; at most 1.
	MaterialUtility float64 `json:"material_utility"`
	// Quiescence blends a capture search into the value of every
	// position the search evaluates: v = (1-λ)·v_eval + λ·tanh(k·qs/army),
	// λ = Quiescence, k = QuiescenceScale, qs the qsearch score of the
	// position (material the exchanges on the board resolve to, or a
	// mate) to QuiescenceDepth capture plies, army one side's starting
	// material without royals. 0 (no blend) leaves the evaluator alone; 1
	// replaces its value (its priors stay). QuiescenceBudget bounds the
	// nodes of one position's capture search (0: none).
	Quiescence       float64 `json:"quiescence"`
	QuiescenceScale  float64 `json:"quiescence_scale"`
	QuiescenceDepth  int     `json:"quiescence_depth"`
	QuiescenceBudget int     `json:"quiescence_budget"`
	// MinimaxWeight blends each child's implicit minimax value (the
	// negamax of its evaluated subtree, see minimax.go) into its mean
	// wherever the search reads a child's q: 0 (the default) is plain
	// averaging, 1 pure minimax.
	MinimaxWeight float64 `json:"minimax_weight"`
}

// DefaultConfig returns AlphaZero-like defaults: c_puct 1.25 (base 19652),
// FPU reduction 0.2 (0 at the root), Dirichlet alpha 10/moves at 25%,
// temperature 1 for the first 30 plies then 0, DefaultLeavesPerBatch
// leaves per batch, tree reuse; Gumbel off (k 16, c_visit 50, c_scale 1
// and the Gumbel interior selection when on); the quiescence blend (scale
// 3, depth qsearch.DefaultDepth and budget qsearch.DefaultBudget); the
// quiescence blend at DefaultQuiescence.
func DefaultConfig() Config {
	return Config{CPuct: 1.25, CPuctBase: 19652, FPUReduction: 0.2, FPURoot: 0,
		NoiseAlphaScale: 10, NoiseFraction: 0.25, Temperature: 1, TemperatureMoves: 30, FinalTemperature: 0,
		LeavesPerBatch: DefaultLeavesPerBatch, VirtualLoss: 1, GumbelK: 16, GumbelCVisit: 50, GumbelCScale: 1,
		GumbelInterior: true, ReuseTree: true, Quiescence: DefaultQuiescence, QuiescenceScale: 3, QuiescenceDepth: qsearch.DefaultDepth,
		QuiescenceBudget: qsearch.DefaultBudget}
}

// DefaultQuiescence is the quiescence blend of a search by default, in
// match play and at the end of self-play's anneal (selfplay.DefaultConfig
// starts at 1), so that a network trained past the anneal plays as its
// self-play searched. In a paired 60-minute Sho run, self-play with the
// blend (1 annealed towards 0.5, at 0.79 by the end) scored 70% against
// greedy (+147 Elo) where the same recipe without it scored 21% (-228).
const DefaultQuiescence = 0.75

// DefaultLeavesPerBatch is the leaves one search keeps in flight, in
// self-play and in match play alike (one setting, so the arena plays the
// search the network was trained with): 2. Many games at once fill the
// network's batches; 8 leaves made a 16-playout search two waves of
// one-ply expansion and cost strength in self-play.
const DefaultLeavesPerBatch = 2

// MatchConfig returns DefaultConfig for playing to win rather than for
// self-play: no temperature (the best move always) and tree reuse. The
// arena's searchers and the engines start from it.
func MatchConfig() Config {
	c := DefaultConfig()
	c.Temperature, c.TemperatureMoves, c.FinalTemperature = 0, 0, 0
	c.ReuseTree = true
	return c
}

// Validate reports a problem with c.
func (c Config) Validate() error {
	switch {
	case c.CPuct <= 0 || c.CPuctBase <= 0:
		return fmt.Errorf("mcts: CPuct %v and CPuctBase %v must be positive", c.CPuct, c.CPuctBase)
	case c.NoiseAlphaScale <= 0 || c.NoiseFraction < 0 || c.NoiseFraction > 1:
		return fmt.Errorf("mcts: bad noise settings (alpha scale %v, fraction %v)", c.NoiseAlphaScale, c.NoiseFraction)
	case c.Temperature < 0 || c.FinalTemperature < 0 || c.TemperatureMoves < 0:
		return errors.New("mcts: temperatures and TemperatureMoves must not be negative")
	case c.LeavesPerBatch < 1:
		return fmt.Errorf("mcts: LeavesPerBatch %d must be at least 1", c.LeavesPerBatch)
	case c.VirtualLoss < 0:
		return errors.New("mcts: VirtualLoss must not be negative")
	case c.GumbelK < 1 || c.GumbelCVisit < 0 || c.GumbelCScale < 0:
		return errors.New("mcts: bad Gumbel settings")
	case !(c.MinimaxWeight >= 0 && c.MinimaxWeight <= 1):
		return fmt.Errorf("mcts: MinimaxWeight %v must be in [0, 1]", c.MinimaxWeight)
	case c.MaterialUtility < 0 || c.MaterialUtility > 1:
		return fmt.Errorf("mcts: MaterialUtility %v must be in [0, 1]", c.MaterialUtility)
	case !(c.Quiescence >= 0 && c.Quiescence <= 1):
		return fmt.Errorf("mcts: quiescence %v must be in [0, 1]", c.Quiescence)
	case c.Quiescence > 0 && !(c.QuiescenceScale > 0):
		return fmt.Errorf("mcts: quiescence_scale %v must be positive", c.QuiescenceScale)
	case c.QuiescenceDepth < 0 || c.QuiescenceDepth >= qsearch.MaxPly:
		return fmt.Errorf("mcts: quiescence_depth %d out of range 0..%d", c.QuiescenceDepth, qsearch.MaxPly-1)
	case c.QuiescenceBudget < 0:
		return fmt.Errorf("mcts: quiescence_budget %d must not be negative", c.QuiescenceBudget)
	}
	return nil
}
