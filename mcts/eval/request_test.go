package eval

import (
	"testing"

	"chuzero/encode"
	"chuzero/rules"
)

// TestSet copies the last encode.MaxHistory moves, oldest first, sizes
// the priors to the moves asked and clears the material forecast; State
// shows the planes the same position.
func TestSet(t *testing.T) {
	g := rules.NewGame(rules.MustNew(rules.DefaultConfig(rules.Sho)).StartPosition())
	var req Request
	req.Material = 0.5
	for ply := 0; ply < encode.MaxHistory+3; ply++ {
		req.Set(g, g.LegalMoves())
		if req.NHistory != min(ply, encode.MaxHistory) || len(req.Priors) != len(req.Moves) || req.Material != 0 {
			t.Fatalf("ply %d: %d history moves, %d priors for %d moves, material %v", ply, req.NHistory, len(req.Priors), len(req.Moves), req.Material)
		}
		if req.NHistory > 0 && req.History[req.NHistory-1] != g.MoveAt(ply-1) {
			t.Fatalf("ply %d: last history move %v, want %v", ply, req.History[req.NHistory-1], g.MoveAt(ply-1))
		}
		if st := req.State(); st.Pos.SFEN() != g.Position().SFEN() || len(st.History) != req.NHistory {
			t.Fatalf("ply %d: State is %s with %d moves", ply, st.Pos.SFEN(), len(st.History))
		}
		if err := g.Play(req.Moves[0]); err != nil {
			t.Fatal(err)
		}
	}
}
