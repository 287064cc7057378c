package selfplay

import (
	"context"
	"fmt"

	"chuzero/rules"
)

// Playout is how the playout player (Config.CappedPlayout) went on from a
// capped game's last position: its moves, and the rules' result if they
// ended it (Result empty: the playout reached its limit first, and the
// game keeps its capped label).
type Playout struct {
	Player string   `json:"player"`           // the playout player's name ("ab-d3")
	Moves  []string `json:"moves"`            // the playout's moves, from the capped position
	Result string   `json:"result,omitempty"` // 1-0, 0-1, 1/2-1/2: the rules ended the playout
	Winner string   `json:"winner,omitempty"` // sente or gote
	Reason string   `json:"reason,omitempty"` // rules.Reason text
}

// Finished reports whether the rules ended the playout.
func (p *Playout) Finished() bool { return p != nil && p.Result != "" }

// playout plays the capped game on with the playout player on both sides,
// for up to Config.CappedPlayout plies and never past the rules' cap (a
// draw by the rules' cap is no result: the playout did not finish). It
// returns the record of the playout and the rules' result when they ended
// it (not Over otherwise). The game itself is left at the cap.
func (gm *game) playout(ctx context.Context) (*Playout, rules.Result, error) {
	t := gm.r.Playout
	tg, err := t.Open(ctx, gm.r.rules, gm.seed)
	if err != nil {
		return nil, rules.Result{}, fmt.Errorf("selfplay: playout player %s: %w", t.Name(), err)
	}
	defer tg.Close()
	g := gm.g.Clone()
	po := &Playout{Player: t.Name()}
	for range gm.cfg.CappedPlayout {
		if err := ctx.Err(); err != nil {
			return nil, rules.Result{}, err
		}
		m, _, err := tg.Move(ctx, g)
		if err != nil {
			return nil, rules.Result{}, fmt.Errorf("selfplay: playout player %s: %w", t.Name(), err)
		}
		p := g.Position()
		po.Moves = append(po.Moves, p.MoveString(m))
		if err := g.Play(m); err != nil {
			return nil, rules.Result{}, fmt.Errorf("selfplay: playout player %s: %w", t.Name(), err)
		}
		res := g.Result()
		if !res.Over() {
			continue
		}
		if res.Reason == rules.ReasonMaxPlies {
			break
		}
		po.Result, po.Reason = res.PGN(), res.Reason.String()
		if w, ok := res.Winner(); ok {
			po.Winner = w.String()
		}
		return po, res, nil
	}
	return po, rules.Result{}, nil
}

// capDraw is the result of a game the self-play cap stopped.
var capDraw = rules.Result{Outcome: rules.Draw, Reason: rules.ReasonMaxPlies}

// capped ends a game the self-play cap stopped at position p: by the
// rules' result of its playout (Config.CappedPlayout) when the playout
// player finishes it, otherwise truncated, with the capped label
// (cappedValue) at the cap.
func (gm *game) capped(ctx context.Context, p *rules.Position) (*gameEnd, error) {
	var po *Playout
	if gm.cfg.CappedPlayout > 0 {
		var res rules.Result
		var err error
		if po, res, err = gm.playout(ctx); err != nil {
			return nil, err
		}
		if res.Over() {
			return &gameEnd{result: res, final: p, playout: po}, nil
		}
	}
	last := gm.tr.plies[len(gm.tr.plies)-1]
	return &gameEnd{result: capDraw, truncated: true, endValue: gm.cappedValue(last.side, float64(last.value)),
		endSide: last.side, final: p, playout: po}, nil
}

// check replays the playout from a copy of the capped game g and checks
// that its moves are legal and that it ends as recorded (nil: no playout).
func (p *Playout) check(g *rules.Game) error {
	if p == nil {
		return nil
	}
	c := g.Clone()
	for i, mv := range p.Moves {
		if c.Result().Over() {
			return fmt.Errorf("playout: the game is over before its move %d", i+1)
		}
		if _, err := c.PlayString(mv); err != nil {
			return fmt.Errorf("playout: move %d %q: %w", i+1, mv, err)
		}
	}
	res := c.Result()
	if p.Finished() && res.PGN() != p.Result {
		return fmt.Errorf("playout: replay ends %v, record says %s", res, p.Result)
	}
	if !p.Finished() && res.Over() && res.Reason != rules.ReasonMaxPlies {
		return fmt.Errorf("playout: replay ends %v, record says unfinished", res)
	}
	return nil
}
