// Package eval is the contract between the search and an evaluator: the
// search fills a Request with a position and the moves to score, an
// evaluator (the network's batcher, the evaluation cache, a test
// evaluator) answers it with priors, win/draw/loss probabilities and a
// material forecast. It imports encode and rules only, so that an
// evaluator need not import the search nor the search the network.
package eval

import (
	"chuzero/encode"
	"chuzero/rules"
)

// Request is one position to evaluate: the search fills it from a game,
// an evaluator (the network's batcher, or a test evaluator) answers it.
// It holds a copy of everything the input planes need, so the search may
// move on to other positions while the request waits in a batch.
type Request struct {
	Pos         rules.Position
	History     [encode.MaxHistory]rules.Move // past moves, oldest first
	NHistory    int
	Repetitions int
	Moves       []rules.Move // the legal moves to score (in)
	Priors      []float32    // one probability per move, same order (out)
	WDL         [3]float32   // win, draw, loss probabilities for the side to move (out)
	// Material is the evaluator's forecast of the side to move's material
	// balance encode.AuxAheadPlies ahead, in armies (-1..1), the network's
	// auxiliary material head (out; 0 from an evaluator without one). The
	// search adds it to the value when asked (mcts.Config.MaterialUtility).
	Material float32
	// Residual is the weight of the capture search's value that the
	// evaluator's value is a residual of (out; model.Config.ValueResidual,
	// 0 for a whole value): a search that blends the capture value backs
	// up WDL's value plus Residual times it (mcts.Config.Quiescence).
	Residual float32
}

// Set fills the request from a game's current position and the moves to
// score (usually g.LegalMoves()). Priors is resized to match.
func (r *Request) Set(g *rules.Game, moves []rules.Move) {
	r.Pos = *g.Position()
	n := g.Len()
	k := min(n, encode.MaxHistory)
	for i := 0; i < k; i++ {
		r.History[i] = g.MoveAt(n - k + i)
	}
	r.NHistory = k
	r.Repetitions = g.RepetitionCount()
	r.Moves = append(r.Moves[:0], moves...)
	r.Material, r.Residual = 0, 0
	if cap(r.Priors) < len(moves) {
		r.Priors = make([]float32, len(moves))
	}
	r.Priors = r.Priors[:len(moves)]
}

// State returns the request as the input planes see it.
func (r *Request) State() encode.State {
	return encode.State{Pos: &r.Pos, History: r.History[:r.NHistory], Repetitions: r.Repetitions}
}
