package selfplay

import (
	"context"
	"errors"
	"testing"

	"chuzero/encode"
	"chuzero/mcts"
	"chuzero/rules"
)

// shuffler is a playout player that steps a piece back and forth: it
// undoes its own last move when it can, and otherwise plays the first
// legal move that captures nothing, so two shufflers repeat the position
// within a few moves.
type shuffler struct {
	last map[rules.Color]rules.Move
	fail bool // Move fails (a broken player)
}

func (shuffler) Name() string { return "shuffler" }

func (s shuffler) Open(context.Context, *rules.Rules, uint64) (TeacherGame, error) {
	return &shuffler{last: map[rules.Color]rules.Move{}, fail: s.fail}, nil
}

func (s *shuffler) Move(_ context.Context, g *rules.Game) (rules.Move, float64, error) {
	if s.fail {
		return rules.NoMove, 0, errors.New("broken player")
	}
	p := g.Position()
	side := p.SideToMove()
	legal := g.LegalMoves()
	pick := rules.NoMove
	if prev, ok := s.last[side]; ok {
		for _, m := range legal {
			if m.From() == prev.To() && m.To() == prev.From() && !m.IsDouble() && !m.IsPromotion() {
				pick = m
				break
			}
		}
	}
	for _, m := range legal {
		if pick != rules.NoMove {
			break
		}
		if !p.At(m.To()).IsPiece() && !m.IsDouble() && !m.IsPromotion() && !m.IsPass() {
			pick = m
		}
	}
	s.last[side] = pick
	return pick, 0, nil
}

func (*shuffler) Close() error { return nil }

// playoutRun plays one capped game of v (cap 4) with player playing on for
// up to plies more and returns its samples and record.
func playoutRun(t *testing.T, v rules.VariantID, plies int, player Teacher) ([]encode.Sample, Record, error) {
	t.Helper()
	cfg := testConfig(t, v)
	if v == rules.Chu {
		cfg.Rules.Repetition = rules.RepetitionHGM // the side that completes the repetition loses
	}
	cfg.Games, cfg.GamesPerFile, cfg.MaxPlies, cfg.CappedPlayout = 1, 1, 4, plies
	cfg.NoResignFraction, cfg.CheapSampleFraction = 1, 1
	r, err := New(cfg, mcts.Uniform{}, "uniform")
	if err != nil {
		t.Fatal(err)
	}
	r.Playout = player
	if err := r.Run(context.Background(), 1); err != nil {
		return nil, Record{}, err
	}
	samples, recs := readRun(t, cfg.Run.Dir)
	if len(recs) != 1 || len(samples) != 4 {
		t.Fatalf("%d records, %d samples; want 1 and 4", len(recs), len(samples))
	}
	return samples, recs[0], nil
}

// TestCappedPlayout: a capped game the playout player finishes (here by a
// fourfold repetition) is labelled by that result, its record stays the
// capped game with the playout beside it, and both replay; a playout cut
// short leaves the capped label; a broken player stops the run with its
// error; a run without a player is refused.
func TestCappedPlayout(t *testing.T) {
	samples, rec, err := playoutRun(t, rules.Sho, 100, shuffler{})
	if err != nil {
		t.Fatal(err)
	}
	po := rec.Playout
	if !rec.Truncated || rec.Result != "1/2-1/2" || rec.Reason != "max plies" || rec.Plies != 4 || !po.Finished() ||
		po.Result != "1/2-1/2" || po.Reason != rules.ReasonRepetition.String() || po.Player != "shuffler" || len(po.Moves) < 8 {
		t.Fatalf("record: truncated %v, %s (%s), %d plies, playout %+v", rec.Truncated, rec.Result, rec.Reason, rec.Plies, po)
	}
	if _, err := rec.Replay(); err != nil {
		t.Fatal(err)
	}
	for i, s := range samples {
		if s.Truncated || s.Outcome != encode.Draw || s.EndValue != 0 {
			t.Errorf("sample %d: truncated %v outcome %v end value %v; want the playout's draw", i, s.Truncated, s.Outcome, s.EndValue)
		}
	}
	bad := rec
	bad.Playout = &Playout{Player: po.Player, Moves: po.Moves[:len(po.Moves)-1], Result: po.Result, Reason: po.Reason}
	if _, err := bad.Replay(); err == nil {
		t.Error("a playout one move short of its recorded result replays")
	}

	samples, rec, err = playoutRun(t, rules.Sho, 3, shuffler{})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Truncated || rec.Playout.Finished() || len(rec.Playout.Moves) != 3 {
		t.Fatalf("a 3-ply playout: truncated %v, playout %+v", rec.Truncated, rec.Playout)
	}
	for i, s := range samples {
		if !s.Truncated {
			t.Errorf("sample %d of an unfinished playout is not truncated", i)
		}
	}
	if _, err := rec.Replay(); err != nil {
		t.Fatal(err)
	}

	samples, rec, err = playoutRun(t, rules.Chu, 100, shuffler{})
	if err != nil {
		t.Fatal(err)
	}
	winner := rules.Sente
	if rec.Playout.Winner == "gote" {
		winner = rules.Gote
	}
	if !rec.Playout.Finished() || rec.Playout.Reason != rules.ReasonRepetitionLoss.String() || rec.Winner != "" {
		t.Fatalf("Chu under HGM repetition: playout %+v, record winner %q", rec.Playout, rec.Winner)
	}
	if want := float32(signFor(winner, rules.Sente)); rec.EndValue != want {
		t.Errorf("end value %v for Sente, want %v", rec.EndValue, want)
	}
	for i, s := range samples {
		want := encode.Loss
		if (s.Ply%2 == 0) == (winner == rules.Sente) {
			want = encode.Win
		}
		if s.Truncated || s.Outcome != want {
			t.Errorf("sample %d (ply %d): truncated %v outcome %v; want %v", i, s.Ply, s.Truncated, s.Outcome, want)
		}
	}

	if _, _, err := playoutRun(t, rules.Sho, 100, shuffler{fail: true}); err == nil {
		t.Error("a broken playout player does not stop the run")
	}
	if _, _, err := playoutRun(t, rules.Sho, 100, nil); err == nil {
		t.Error("capped_playout without a player runs")
	}
}
