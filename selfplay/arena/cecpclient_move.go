package arena

import (
	"context"
	"fmt"
	"strings"
	"time"

	"chuzero/rules"
)

// Move implements Player.
func (p *enginePlayer) Move(ctx context.Context, g *rules.Game) (Reply, error) {
	if err := p.catchUp(ctx, g); err != nil {
		return Reply{}, err
	}
	if p.e.MoveTime > 0 {
		// XBoard's clocks under "st": each side's clock starts every move
		// at the time per move. Engines such as HaChu budget from "time"
		// and, never told it, move at once whatever "st" says.
		cs := 100 * p.e.moveSeconds()
		p.send(fmt.Sprintf("time %d", cs))
		p.send(fmt.Sprintf("otim %d", cs))
	}
	p.send("go")
	return p.awaitMove(ctx, g)
}

// catchUp tells the engine the moves of g it has not seen; it starts over
// if g is not a continuation of what it knows.
func (p *enginePlayer) catchUp(ctx context.Context, g *rules.Game) error {
	start := g.Start()
	fen := ""
	if std := p.r.StartPosition(); !start.Equal(&std) {
		fen = start.FEN()
	}
	moves := g.Moves()
	if !p.continues(fen, moves) {
		if err := p.newGame(ctx, fen); err != nil {
			return err
		}
	}
	if len(p.known) < len(moves) {
		return p.tell(ctx, g, moves)
	}
	return nil
}

// continues reports whether a game from fen with moves is the engine's
// game played on.
func (p *enginePlayer) continues(fen string, moves []rules.Move) bool {
	cont := p.synced && fen == p.startFEN && len(moves) >= len(p.known)
	for i := 0; cont && i < len(p.known); i++ {
		cont = p.known[i] == moves[i]
	}
	return cont
}

// tell sends the moves of g past those the engine knows, then a ping; a
// move it refuses is a *RejectedError.
func (p *enginePlayer) tell(ctx context.Context, g *rules.Game, moves []rules.Move) error {
	replay := rules.NewGame(g.Start())
	for _, m := range p.known {
		replay.Push(m)
	}
	prefix := ""
	if p.features["usermove"] == "1" {
		prefix = "usermove "
	}
	var sent []string
	for _, m := range moves[len(p.known):] {
		text := replay.Position().MoveString(m)
		p.send(prefix + text)
		sent = append(sent, text)
		replay.Push(m)
	}
	refused, err := p.sync(ctx)
	if err != nil {
		return err
	}
	if refused != "" {
		p.synced = false // its game is no longer ours
		return &RejectedError{Move: strings.Join(sent, " "), Reason: refused}
	}
	p.known = append(p.known, moves[len(p.known):]...)
	return nil
}

// awaitMove reads the engine's reply to "go" in g: a move (one printed
// over two lines joined), a resignation, a result it claims, or a late
// refusal of the last move it was sent.
func (p *enginePlayer) awaitMove(ctx context.Context, g *rules.Game) (Reply, error) {
	deadline := time.Now().Add(p.e.timeout())
	var partial string
	for {
		line, err := p.readLine(ctx, deadline)
		if err != nil {
			return Reply{}, p.wrap("no move", err)
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch {
		case f[0] == "move" && len(f) >= 2:
			text := partial + f[1]
			if strings.HasSuffix(f[1], ",") { // first leg of a two-line move
				partial = text
				continue
			}
			return p.played(g, text), nil
		case len(f) >= 4 && f[0] == "My" && f[1] == "move" && f[2] == "is:":
			return p.played(g, f[3]), nil
		case f[0] == "resign":
			p.synced = false
			return Reply{Resign: true, Text: line}, nil
		case f[0] == "1-0" || f[0] == "0-1" || f[0] == "1/2-1/2":
			p.send("force")
			p.synced = false
			return Reply{Claim: line, Text: line}, nil
		case strings.HasPrefix(line, "Illegal move"), strings.HasPrefix(line, "Error"):
			// a late refusal of the last move it was sent
			p.synced = false
			return Reply{}, &RejectedError{Move: g.Position().MoveString(g.MoveAt(g.Len() - 1)), Reason: line}
		}
	}
}

// played puts the engine back in force mode after it moved text in g and
// returns the move (rules.NoMove if it does not parse; one that does is
// added to the moves the engine knows).
func (p *enginePlayer) played(g *rules.Game, text string) Reply {
	p.send("force")
	m, err := g.Position().ParseMove(text)
	if err != nil {
		m = rules.NoMove
	} else {
		p.known = append(p.known, m)
	}
	return Reply{Move: m, Text: text}
}
