package arena

import (
	"context"
	"errors"
	"fmt"

	"chuzero/rules"
)

// Entrant is a participant of a match: it opens one Player per game.
// Entrants are shared by concurrent games; their Open must be safe for
// concurrent use.
type Entrant interface {
	// Name identifies the entrant in tables, records and metrics.
	Name() string
	// Open prepares a player for one game under r (an engine process, a
	// search tree). seed varies the player's randomness from game to game.
	Open(ctx context.Context, r *rules.Rules, seed uint64) (Player, error)
}

// Player plays one game. The match calls Move for each of its turns with
// the whole game so far (start position and every move, the opponent's
// included), then Close once.
type Player interface {
	// Move returns the player's move in the current position of g, which
	// the player must not modify. An error is a failure to move (a crash,
	// a hang, a protocol error): the player forfeits the game. A
	// *RejectedError says the player refused an opponent's move.
	Move(ctx context.Context, g *rules.Game) (Reply, error)
	// Close releases what Open took (an engine process is told to quit
	// and then killed if it lingers).
	Close() error
}

// Reply is a player's answer to Move: a move, a resignation or a claim.
type Reply struct {
	Move rules.Move // the move, when Text parsed (NoMove otherwise)
	// Text is the move as the player wrote it (engines), for the record
	// of a rejected move; empty for built-in players.
	Text string
	// Resign: the player gives up instead of moving.
	Resign bool
	// Claim is a result the player announced instead of moving ("1-0
	// {...}"); the referee decides whether the game is really over.
	Claim string
	// Value is the player's evaluation for the side to move in [-1, 1]
	// when it has one (search players); NaN-free, 0 if unknown.
	Value float64
	// Nodes counts the work behind the move (simulations, engine nodes)
	// when known.
	Nodes int64
}

// RejectedError is returned by Move when the player refused one of its
// opponent's moves (an engine's "Illegal move"): the opponents disagree
// on the rules, since the referee accepted that move.
type RejectedError struct {
	Move   string // the move refused, machine notation
	Reason string // the player's words
}

func (e *RejectedError) Error() string {
	return fmt.Sprintf("arena: the player refused %s: %s", e.Move, e.Reason)
}

// errNoMove is a player that answered neither a move nor a resignation.
var errNoMove = errors.New("arena: no move")
