package encode

import (
	"math/rand/v2"
	"testing"

	"chuzero/rules"
)

// ownershipNow is the ownership of g's current position from the side to
// move's point of view, as if the game ended there.
func ownershipNow(g *rules.Game) []int8 {
	p := g.Position()
	r := p.Rules()
	own := make([]int8, r.NumSquares())
	for _, sq := range r.Squares() {
		switch pc := p.At(sq); {
		case !pc.IsPiece():
		case pc.Color() == p.SideToMove():
			own[r.Index(sq)] = 1
		default:
			own[r.Index(sq)] = -1
		}
	}
	return own
}

// TestEncodeOwnership: the ownership target in the network's frame lines
// up with the piece planes: +1 exactly where the side to move has a piece,
// -1 where the opponent has one, for Sente and Gote to move, mirrored or
// not.
func TestEncodeOwnership(t *testing.T) {
	for _, v := range rules.Variants {
		r := rules.MustNew(rules.DefaultConfig(v))
		spec := MustSpec(v, DefaultOptions())
		rng := rand.New(rand.NewPCG(4, 4))
		g := rules.NewGame(r.StartPosition())
		planes := make([]float32, spec.PlaneSize())
		own := make([]float32, spec.Height*spec.Width)
		for ply := 0; ply < 12 && !g.Result().Over(); ply++ {
			s := NewSample(g, 1)
			s.Aux = &AuxTargets{Ownership: ownershipNow(g)}
			for _, mirror := range []bool{false, true} {
				if err := spec.EncodeSample(&s, planes, mirror); err != nil {
					t.Fatal(err)
				}
				if err := spec.EncodeOwnership(&s, own, mirror); err != nil {
					t.Fatal(err)
				}
				if cell, ok := ownershipMatchesPlanes(spec, planes, own); !ok {
					t.Fatalf("%s ply %d (%s to move), mirror %v: ownership %v at cell %d disagrees with the piece planes",
						v, ply, g.Position().SideToMove(), mirror, own[cell], cell)
				}
			}
			moves := g.LegalMoves()
			g.Play(moves[rng.IntN(len(moves))])
		}
	}
}

// ownershipMatchesPlanes returns the first cell where own disagrees with
// the own/opponent piece planes.
func ownershipMatchesPlanes(spec *Spec, planes, own []float32) (int, bool) {
	hw := spec.Height * spec.Width
	for cell := range hw {
		var want float32
		for k := 0; k < spec.kinds; k++ {
			if planes[(spec.ownPieces+k)*hw+cell] == 1 {
				want = 1
			}
			if planes[(spec.oppPieces+k)*hw+cell] == 1 {
				want = -1
			}
		}
		if own[cell] != want {
			return cell, false
		}
	}
	return 0, true
}

// TestEncodeOwnershipErrors: no target or a wrong buffer is an error.
func TestEncodeOwnershipErrors(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	spec := MustSpec(rules.Sho, DefaultOptions())
	s := NewSample(rules.NewGame(r.StartPosition()), 1)
	dst := make([]float32, spec.Height*spec.Width)
	if err := spec.EncodeOwnership(&s, dst, false); err == nil {
		t.Errorf("a sample without auxiliary targets encoded an ownership")
	}
	s.Aux = &AuxTargets{Ownership: make([]int8, len(dst))}
	if err := spec.EncodeOwnership(&s, dst[1:], false); err == nil {
		t.Errorf("a short buffer was accepted")
	}
	if err := spec.EncodeOwnership(&s, dst, false); err != nil {
		t.Errorf("EncodeOwnership: %v", err)
	}
}
