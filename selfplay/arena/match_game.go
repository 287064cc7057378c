package arena

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"chuzero/rules"
)

// play plays one game under the referee. Only a failure to open a
// player, or ctx ending, is an error; a player's failure to move loses it
// the game.
func (m *Match) play(ctx context.Context, j job) (*GameRecord, error) {
	g, err := j.opening.Game(m.rules)
	if err != nil {
		return nil, err
	}
	seed := uint64(j.index)*rules.Golden ^ m.cfg.Seed
	ids := [2]int{j.sente, j.gote}
	var players [2]Player
	defer closePlayers(&players)
	if err := m.openPlayers(ctx, ids, seed, &players); err != nil {
		return nil, err
	}
	rec := m.newRecord(j, g)
	result, err := m.playOut(ctx, j, g, ids, players, rec)
	if err != nil {
		return nil, err
	}
	finishRecord(rec, g, result)
	return rec, nil
}

// openPlayers opens the players of entrants ids (Sente's, Gote's) into
// players, seeded from seed; on an error, those opened so far are left
// there for closePlayers.
func (m *Match) openPlayers(ctx context.Context, ids [2]int, seed uint64, players *[2]Player) error {
	for side, id := range ids {
		p, err := m.entrants[id].Open(ctx, m.rules, seed+uint64(side)+1)
		if err != nil {
			return fmt.Errorf("arena: opening %s: %w", m.entrants[id].Name(), err)
		}
		players[side] = p
	}
	return nil
}

// closePlayers closes the players that were opened.
func closePlayers(players *[2]Player) {
	for _, p := range players {
		if p != nil {
			p.Close()
		}
	}
}

// newRecord starts the record of game j, played on from g's opening.
func (m *Match) newRecord(j job, g *rules.Game) *GameRecord {
	start := g.Start()
	return &GameRecord{
		Index: j.index, Pair: j.pair,
		Sente: m.entrants[j.sente].Name(), Gote: m.entrants[j.gote].Name(),
		Variant: m.rules.Variant().Name, Rules: m.rules.Config().String(),
		Start: start.SFEN(), OpeningPlies: g.Len(), Started: time.Now().UTC(),
	}
}

// playOut plays g on to its end, the players of entrants ids taking
// turns, and returns the result; the moves played and the referee's notes
// go into rec. Only ctx ending is an error.
func (m *Match) playOut(ctx context.Context, j job, g *rules.Game, ids [2]int, players [2]Player, rec *GameRecord) (rules.Result, error) {
	result := g.Result()
	for !result.Over() {
		side := g.Position().SideToMove()
		name := m.entrants[ids[side]].Name()
		asked := time.Now()
		reply, err := players[side].Move(ctx, g)
		took := time.Since(asked)
		if ctx.Err() != nil {
			return rules.Result{}, ctx.Err()
		}
		var moved bool
		if result, moved = adjudicate(g, side, name, reply, err, rec); moved {
			rec.MoveSeconds = append(rec.MoveSeconds, float32(took.Seconds()))
			continue
		}
		if rec.Note != "" {
			m.cfg.Log.Warn("arena game adjudicated", "game", j.index, "sente", rec.Sente, "gote", rec.Gote,
				"ply", g.Len(), "sfen", g.Position().SFEN(), "result", result.String(), "note", rec.Note)
		}
		break
	}
	return result, nil
}

// adjudicate judges the turn of side, called name, in g: its reply, or
// err. A legal move is played (moved, with g's result now); anything else
// ends the game with the result returned, and a note in rec where the
// result needs one.
func adjudicate(g *rules.Game, side rules.Color, name string, reply Reply, err error, rec *GameRecord) (result rules.Result, moved bool) {
	other := side ^ 1
	var rej *RejectedError
	switch {
	case errors.As(err, &rej):
		result = rules.Result{Outcome: rules.Draw, Reason: rules.ReasonAdjudicated}
		rec.Note = fmt.Sprintf("rules disagreement: %s refused %s, which the referee accepted (%s)", name, rej.Move, rej.Reason)
	case err != nil:
		result = rules.WinFor(other, rules.ReasonForfeit)
		rec.Note = fmt.Sprintf("%s failed to move: %v", name, err)
	case reply.Resign:
		result = rules.WinFor(other, rules.ReasonResign)
	case concedes(reply.Claim, side):
		// "1-0" from Gote, "0-1" from Sente: an engine resigning the
		// XBoard way (HaChu prints "1-0 {resign}")
		result = rules.WinFor(other, rules.ReasonResign)
		rec.Note = fmt.Sprintf("%s resigned with %q", name, reply.Claim)
	case reply.Claim != "":
		result = rules.Result{Outcome: rules.Draw, Reason: rules.ReasonAdjudicated}
		rec.Note = fmt.Sprintf("rules disagreement: %s ended the game with %q where the referee plays on", name, reply.Claim)
	default:
		return playReply(g, other, name, reply, rec)
	}
	return result, false
}

// playReply plays the move of a reply in g, recording it in rec (moved,
// with g's result now). A move the referee rejects is a draw where a
// rules option would allow it, else a loss for the mover (other wins),
// with a note in rec.
func playReply(g *rules.Game, other rules.Color, name string, reply Reply, rec *GameRecord) (result rules.Result, moved bool) {
	text := reply.Text
	if text == "" && reply.Move != rules.NoMove {
		text = g.Position().MoveString(reply.Move)
	}
	if reply.Move != rules.NoMove {
		mt := g.Position().MoveString(reply.Move)
		if g.Play(reply.Move) == nil {
			rec.Moves = append(rec.Moves, mt)
			return g.Result(), true
		}
	}
	if opt := RuleDependent(g, text); opt != "" {
		result = rules.Result{Outcome: rules.Draw, Reason: rules.ReasonAdjudicated}
		rec.Note = fmt.Sprintf("rules disagreement: %s played %s, legal only with %s", name, text, opt)
	} else {
		result = rules.WinFor(other, rules.ReasonIllegalMove)
		rec.Note = fmt.Sprintf("%s played %q, which the referee rejects", name, text)
	}
	return result, false
}

// finishRecord completes rec with the result of g, its opening moves and
// the time the game took.
func finishRecord(rec *GameRecord, g *rules.Game, result rules.Result) {
	rec.Result = result.PGN()
	if c, ok := result.Winner(); ok {
		rec.Winner = c.String()
	}
	rec.Reason = result.Reason.String()
	rec.Plies = len(rec.Moves) + rec.OpeningPlies
	rec.Moves = append(openingMoves(g, rec.OpeningPlies), rec.Moves...)
	rec.Seconds = time.Since(rec.Started).Seconds()
}

// concedes reports whether a result an engine announced on its turn as
// side gives the game to its opponent.
func concedes(claim string, side rules.Color) bool {
	f := strings.Fields(claim)
	if len(f) == 0 {
		return false
	}
	return f[0] == "1-0" && side == rules.Gote || f[0] == "0-1" && side == rules.Sente
}

// openingMoves returns the first n moves of g in machine notation.
func openingMoves(g *rules.Game, n int) []string {
	replay := rules.NewGame(g.Start())
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		m := g.MoveAt(i)
		out = append(out, replay.Position().MoveString(m))
		replay.Push(m)
	}
	return out
}

// RuleDependent reports whether a move the referee rejected in g's
// current position would be legal under other rules options: it returns
// the first "Name=Value" that allows it ("Repetition" when only the
// repetition ban stops it), or "" for a move no rules option allows.
func RuleDependent(g *rules.Game, text string) string {
	pos := g.Position()
	cfg := pos.Rules().Config()
	if m, err := pos.ParseMove(text); err == nil && pos.IsLegal(m) {
		v, _ := cfg.Value("Repetition")
		return "a repetition rule other than Repetition=" + v
	}
	sfen := pos.SFEN()
	for _, opt := range rules.Options(cfg.Variant) {
		for _, v := range opt.Values {
			alt := cfg
			if alt.Set(opt.Name, v) != nil || alt == cfg {
				continue
			}
			ar, err := rules.New(alt)
			if err != nil {
				continue
			}
			ap, err := ar.ParseSFEN(sfen)
			if err != nil {
				continue
			}
			if m, err := ap.ParseMove(text); err == nil && ap.IsLegal(m) {
				return opt.Name + "=" + v
			}
		}
	}
	return ""
}
