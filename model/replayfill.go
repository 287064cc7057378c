package model

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"chuzero/encode"
)

// fill draws n samples uniformly from src into b, each mirrored with
// probability mirror, with every target: policy, the mixed value target
// and the auxiliary targets.
func (r *Replay) fill(rng *rand.Rand, b *Batch, n int, src []encode.Sample, mirror float64) error {
	ps := r.spec.PlaneSize()
	hw := r.spec.Height * r.spec.Width
	b.N = n
	b.Planes = resizeFixed(b.Planes, n*ps)
	b.Ownership = resizeFixed(b.Ownership, n*hw)
	b.Legal, b.Policy, b.WDL = resizeRows(b.Legal, n), resizeRows(b.Policy, n), resizeFixed(b.WDL, n)
	b.ReplyLegal, b.ReplyPolicy = resizeRows(b.ReplyLegal, n), resizeRows(b.ReplyPolicy, n)
	b.HasAux, b.Material, b.ShortValue = resizeFixed(b.HasAux, n), resizeFixed(b.Material, n), resizeFixed(b.ShortValue, n)
	for i, fails := 0, 0; i < n; {
		s := &src[rng.IntN(len(src))]
		mir := mirror > 0 && rng.Float64() < mirror
		err := r.spec.EncodeSample(s, b.Planes[i*ps:(i+1)*ps], mir)
		if err == nil {
			b.WDL[i], err = r.valueTarget(s)
		}
		if err == nil {
			b.Legal[i], b.Policy[i] = r.sparse(s.Policy, b.Legal[i], b.Policy[i], mir, s.FullSearch)
			err = r.fillAux(b, i, s, mir)
		}
		if err != nil { // validated at load, so a bug's, not the data's: skip it, counted
			r.badDraw++
			if fails++; fails > 4*n+64 {
				return fmt.Errorf("model: %d samples drawn failed to encode, the last of game %x ply %d: %w", fails, s.GameID, s.Ply, err)
			}
			continue
		}
		i++
	}
	return nil
}

// valueTarget returns (1-q)*z + q*v as a win/draw/loss triple, where z is
// the game's result (or, for a game stopped by the self-play ply cap, the
// search's estimate of it) and v the search's root value; with a residual
// (SetResidual), that target's value less the residual weight times the
// baseline's value of the position, clamped to [-1, 1].
func (r *Replay) valueTarget(s *encode.Sample) ([3]float32, error) {
	z := s.Outcome.WDL()
	if s.Truncated {
		z = ValueWDL(s.EndValue)
	}
	if r.valueQ > 0 {
		v := ValueWDL(s.RootValue)
		q := float32(r.valueQ)
		for k := range z {
			z[k] = (1-q)*z[k] + q*v[k]
		}
	}
	if r.residual <= 0 {
		return z, nil
	}
	if r.baseline == nil {
		return z, errors.New("model: a residual value target without a baseline")
	}
	b, err := r.baseline(s)
	if err != nil {
		return z, err
	}
	return ValueWDL(z[0] - z[2] - float32(r.residual*b)), nil
}

// ValueWDL maps a value in [-1, 1] to the win/draw/loss triple of least
// draw mass with that expectation: (v, 1-v, 0) for v >= 0, (0, 1+v, -v)
// below.
func ValueWDL(v float32) [3]float32 {
	v = max(-1, min(1, v))
	if v >= 0 {
		return [3]float32{v, 1 - v, 0}
	}
	return [3]float32{0, 1 + v, -v}
}

// sparse copies a sparse policy target into the index and probability
// slices (reused), mirrored if asked; nil probabilities when there is no
// target.
func (r *Replay) sparse(pol []encode.PolicyEntry, legal []int32, probs []float32, mirror, ok bool) ([]int32, []float32) {
	legal = legal[:0]
	if !ok || len(pol) == 0 {
		return legal, nil
	}
	if probs == nil {
		probs = make([]float32, 0, len(pol))
	}
	probs = probs[:0]
	for _, e := range pol {
		idx := int32(e.Index)
		if mirror {
			idx = int32(r.spec.MirrorIndex(int(e.Index)))
		}
		legal = append(legal, idx)
		probs = append(probs, e.Prob)
	}
	return legal, probs
}

// fillAux writes sample i's auxiliary targets (zeros and HasAux false
// when the sample has none).
func (r *Replay) fillAux(b *Batch, i int, s *encode.Sample, mirror bool) error {
	hw := r.spec.Height * r.spec.Width
	own := b.Ownership[i*hw : (i+1)*hw]
	a := s.Aux
	b.HasAux[i] = a != nil
	if a == nil {
		clear(own)
		b.ReplyLegal[i], b.ReplyPolicy[i] = b.ReplyLegal[i][:0], nil
		b.Material[i], b.ShortValue[i] = [2]float32{}, [3]float32{}
		return nil
	}
	b.ReplyLegal[i], b.ReplyPolicy[i] = r.sparse(a.ReplyPolicy, b.ReplyLegal[i], b.ReplyPolicy[i], mirror, true)
	b.Material[i] = [2]float32{a.MaterialEnd, a.MaterialAhead}
	b.ShortValue[i] = a.ShortValue
	return r.spec.EncodeOwnership(s, own, mirror)
}

// resizeRows returns a with length n, keeping its elements (reused buffers).
func resizeRows[T any](a []T, n int) []T {
	for len(a) < n {
		var zero T
		a = append(a, zero)
	}
	return a[:n]
}

// resizeFixed returns a with length n, reallocated when too small.
func resizeFixed[T any](a []T, n int) []T {
	if cap(a) < n {
		return make([]T, n)
	}
	return a[:n]
}
