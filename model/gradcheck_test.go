package model

import (
	"math"
	"math/rand/v2"
	"testing"

	"chuzero/rules"
)

// TestGradientsFiniteDifferences compares the backward pass with central
// finite differences of the loss on the tiny preset, for every trained
// tensor and all three variants (Chu has the pass logit, Sho and Heian do
// not). Single-element differences drown in float32 rounding for tensors
// deep in the net, so each tensor is checked along two directions: its own
// gradient and a mix of it with a random direction; the directional
// derivative g.u is then large enough to measure. The loss includes the
// auxiliary heads (with weights other than the defaults, so a mix-up of
// two weights shows), and one sample has no auxiliary targets and another
// no reply target.
func TestGradientsFiniteDifferences(t *testing.T) {
	for _, v := range rules.Variants {
		b, spec := testBatch(t, v, 4, 3)
		b.HasAux[1] = false
		b.ReplyPolicy[2] = nil
		w := tinyWeights(t, spec, 2)
		rng := rand.New(rand.NewPCG(5, uint64(v)))
		for _, tt := range w.Tensors { // exercise the zero-initialised paths too
			if tt.Role == RoleZero || tt.Role == RoleBias || tt.Role == RoleBeta {
				for i := range tt.Data {
					tt.Data[i] = float32(rng.NormFloat64() * 0.1)
				}
			}
		}
		cfg := DefaultTrainConfig()
		cfg.Batch = 4
		cfg.ReplyWeight, cfg.MaterialWeight, cfg.OwnershipWeight, cfg.ShortValueWeight = 0.3, 0.7, 1.1, 0.9
		tr, err := NewTrainer(w, cfg)
		if err != nil {
			t.Fatal(err)
		}
		current := ""
		loss := func() float64 {
			st, err := tr.Loss(b)
			if err != nil {
				t.Fatalf("%s, perturbing %s: %v", v, current, err)
			}
			return st.Loss - st.L2Loss // the gradient leaves L2 to the optimizer
		}
		loss()
		grads := map[string][]float32{}
		for _, tt := range w.Tensors {
			if tt.Role.Trained() {
				grads[tt.Name] = append([]float32(nil), tr.Gradient(tt.Name)...)
			}
		}
		for _, tt := range w.Tensors {
			if !tt.Role.Trained() {
				continue
			}
			current = tt.Name
			g := grads[tt.Name]
			gn := norm(g)
			if gn == 0 {
				t.Errorf("%s %s: zero gradient", v, tt.Name)
				continue
			}
			r := make([]float64, len(g))
			for i := range r {
				r[i] = rng.NormFloat64()
			}
			rn := math.Sqrt(dot64(r, r))
			for dir := 0; dir < 2; dir++ {
				if dir == 1 && len(g) == 1 {
					break // one element, one direction (the mix could cancel to 0)
				}
				u := make([]float64, len(g))
				for i := range u {
					u[i] = float64(g[i]) / gn
					if dir == 1 {
						u[i] += r[i] / rn
					}
				}
				un := math.Sqrt(dot64(u, u))
				ana := 0.0
				for i := range u {
					u[i] /= un
					ana += float64(g[i]) * u[i]
				}
				orig := append([]float32(nil), tt.Data...)
				numeric := func(eps float64) float64 {
					for i := range u {
						tt.Data[i] = orig[i] + float32(eps*u[i])
					}
					up := loss()
					for i := range u {
						tt.Data[i] = orig[i] - float32(eps*u[i])
					}
					down := loss()
					copy(tt.Data, orig)
					return (up - down) / (2 * eps)
				}
				// a ReLU kink inside the interval spoils one step size, not all
				var got []float64
				ok := false
				for _, eps := range []float64{1e-3, 3e-4, 1e-4} {
					num := numeric(eps)
					got = append(got, num)
					if math.Abs(num-ana) <= 2e-4+0.03*math.Abs(ana) {
						ok = true
						break
					}
				}
				if !ok {
					t.Errorf("%s %s direction %d: analytic %.6g, numeric %.6g", v, tt.Name, dir, ana, got)
				}
			}
		}
		tr.Close()
	}
}

func norm(a []float32) float64 {
	s := 0.0
	for _, v := range a {
		s += float64(v) * float64(v)
	}
	return math.Sqrt(s)
}

func dot64(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
