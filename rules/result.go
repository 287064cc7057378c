package rules

import "fmt"

// Outcome is how a game stands.
type Outcome uint8

// Outcomes.
const (
	Ongoing Outcome = iota
	SenteWins
	GoteWins
	Draw
)

// String returns "ongoing", "sente wins", "gote wins" or "draw".
func (o Outcome) String() string {
	switch o {
	case Ongoing:
		return "ongoing"
	case SenteWins:
		return "sente wins"
	case GoteWins:
		return "gote wins"
	case Draw:
		return "draw"
	}
	return fmt.Sprintf("outcome(%d)", uint8(o))
}

// Reason says why a game ended.
type Reason uint8

// End reasons.
const (
	ReasonNone            Reason = iota
	ReasonNoRoyal                // the side to move has no royal piece left: it loses
	ReasonBareKing               // a side was bared: it loses
	ReasonNoLegalMoves           // the side to move has no legal move: it loses
	ReasonRepetition             // fourfold repetition without a culprit: draw
	ReasonPerpetualCheck         // fourfold repetition, one side checked with every move: it loses
	ReasonPerpetualAttack        // fourfold repetition, one side attacked with every move: it loses (JCSA4)
	ReasonMutualPassing          // fourfold repetition of passes only: the first passer loses (JCSA4)
	ReasonRepetitionLoss         // fourfold repetition: the side that completed it loses (HGM)
	ReasonTwoBareRoyals          // one royal each and nothing else: draw
	ReasonBareKingDraw           // the bared royal can bare the opponent in turn: draw (Simple)
	ReasonMaxPlies               // the MaxPlies cap: draw
	ReasonResign                 // a player resigned (set by drivers, not by Game)
	ReasonIllegalMove            // a player sent an illegal move and lost (set by match drivers)
	ReasonAdjudicated            // a driver stopped the game (e.g. the opponents disagree on the rules)
	ReasonForfeit                // a player failed to move: crashed, hung or ran out of time (set by match drivers)
	numReasons
)

var reasonNames = [numReasons]string{
	"none", "royal captured", "bare king", "no legal moves", "repetition", "perpetual check",
	"perpetual attack", "mutual passing", "repetition loss", "two bare royals", "bare king draw", "max plies",
	"resignation", "illegal move", "adjudication", "forfeit",
}

// String returns a short lowercase description ("bare king").
func (r Reason) String() string {
	if r < numReasons {
		return reasonNames[r]
	}
	return fmt.Sprintf("reason(%d)", uint8(r))
}

// Slug returns a label-friendly name ("bare_king"), for metrics.
func (r Reason) Slug() string {
	b := []byte(r.String())
	for i, c := range b {
		if c == ' ' {
			b[i] = '_'
		}
	}
	return string(b)
}

// Reasons lists every end reason except ReasonNone.
func Reasons() []Reason {
	var out []Reason
	for r := ReasonNoRoyal; r < numReasons; r++ {
		out = append(out, r)
	}
	return out
}

// Result is a game's outcome with its reason.
type Result struct {
	Outcome Outcome
	Reason  Reason
}

// Over reports whether the game has ended.
func (r Result) Over() bool { return r.Outcome != Ongoing }

// Winner returns the winning side; ok is false for a draw or an ongoing game.
func (r Result) Winner() (c Color, ok bool) {
	switch r.Outcome {
	case SenteWins:
		return Sente, true
	case GoteWins:
		return Gote, true
	}
	return Sente, false
}

// ValueFor returns +1 if c won, -1 if c lost, 0 for a draw or an ongoing game.
func (r Result) ValueFor(c Color) float64 {
	w, ok := r.Winner()
	switch {
	case !ok:
		return 0
	case w == c:
		return 1
	}
	return -1
}

// PGN returns the result in XBoard/PGN form: "1-0", "0-1", "1/2-1/2" or "*".
func (r Result) PGN() string {
	switch r.Outcome {
	case SenteWins:
		return "1-0"
	case GoteWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// String returns e.g. "sente wins (bare king)".
func (r Result) String() string {
	if r.Outcome == Ongoing {
		return "ongoing"
	}
	return fmt.Sprintf("%s (%s)", r.Outcome, r.Reason)
}

// WinFor returns the result "c wins because of why".
func WinFor(c Color, why Reason) Result { return winFor(c, why) }

func winFor(c Color, why Reason) Result {
	if c == Sente {
		return Result{SenteWins, why}
	}
	return Result{GoteWins, why}
}
