package encode

import (
	"errors"
	"fmt"
	"strings"

	"chuzero/rules"
)

// validate checks the auxiliary targets against the spec.
func (a *AuxTargets) validate(spec *Spec) error {
	if err := checkPolicy(spec, "reply policy", a.ReplyPolicy); err != nil {
		return err
	}
	if n := spec.Height * spec.Width; len(a.Ownership) != n {
		return fmt.Errorf("encode: ownership of %d squares, the board has %d", len(a.Ownership), n)
	}
	for _, o := range a.Ownership {
		if o < -1 || o > 1 {
			return fmt.Errorf("encode: ownership value %d", o)
		}
	}
	for _, v := range []float32{a.MaterialEnd, a.MaterialAhead, a.ShortValue[0], a.ShortValue[1], a.ShortValue[2]} {
		if err := checkUnit("auxiliary target", v); err != nil {
			return err
		}
	}
	return nil
}

// EncodeOwnership writes the ownership target of a sample into dst (length
// Height*Width) in the frame of the input planes: the same square order,
// rotated 180 degrees when Gote is to move, and mirrored left-right if
// mirror is set (as EncodeSample mirrors the planes). +1 marks a square
// the side to move holds at the game's end, -1 the opponent, 0 empty.
func (spec *Spec) EncodeOwnership(s *Sample, dst []float32, mirror bool) error {
	h, w := spec.Height, spec.Width
	if len(dst) != h*w {
		return fmt.Errorf("encode: ownership buffer has %d floats, want %d", len(dst), h*w)
	}
	if s.Aux == nil || len(s.Aux.Ownership) != h*w {
		return errors.New("encode: the sample has no ownership target")
	}
	side, err := sfenSide(s.SFEN)
	if err != nil {
		return err
	}
	for i, o := range s.Aux.Ownership {
		rank, file := i/w, i%w
		if mirror {
			file = w - 1 - file
		}
		cell := rank*w + file
		if side == rules.Gote {
			cell = h*w - 1 - cell
		}
		dst[cell] = float32(o)
	}
	return nil
}

// sfenSide reads the side to move from an SFEN without parsing the board.
func sfenSide(sfen string) (rules.Color, error) {
	_, rest, _ := strings.Cut(sfen, " ")
	switch {
	case strings.HasPrefix(rest, "b"):
		return rules.Sente, nil
	case strings.HasPrefix(rest, "w"):
		return rules.Gote, nil
	}
	return rules.Sente, fmt.Errorf("encode: no side to move in SFEN %q", sfen)
}
