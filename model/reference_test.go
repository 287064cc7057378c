package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"chuzero/encode"
	"chuzero/rules"
)

// randomize gives every tensor random values, batch-norm statistics
// included, so that equivalence tests exercise every path.
func randomize(w *Weights, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 11))
	for _, t := range w.Tensors {
		for i := range t.Data {
			switch t.Role {
			case RoleRunVar:
				t.Data[i] = 0.5 + rng.Float32()
			case RoleGamma:
				t.Data[i] = 0.5 + rng.Float32()
			case RoleWeight, RoleZero:
				fanIn := len(t.Data) / t.Shape[len(t.Shape)-1]
				t.Data[i] = float32(rng.NormFloat64() / math.Sqrt(float64(fanIn)))
			default:
				t.Data[i] = float32(rng.NormFloat64() * 0.2)
			}
		}
	}
}

// maxRelErr returns max|a-b| / max|b|.
func maxRelErr(a, b []float32) float64 {
	var d, m float64
	for i := range b {
		d = max(d, math.Abs(float64(a[i])-float64(b[i])))
		m = max(m, math.Abs(float64(b[i])))
	}
	if m == 0 {
		return d
	}
	return d / m
}

// TestNetMatchesReference: the fast inference path computes the same
// function as the Gorgonia reference graph, within 1e-4 relative error, on
// random inputs and random weights, for every preset.
func TestNetMatchesReference(t *testing.T) {
	for _, name := range PresetNames() {
		v := rules.Chu
		if name == "large" {
			v = rules.Sho // keep the slow reference graph affordable
		}
		if testing.Short() && name != "tiny" && name != "small" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			const n = 2
			spec := encode.MustSpec(v, encode.DefaultOptions())
			w, err := NewWeights(Presets[name], spec, 1)
			if err != nil {
				t.Fatal(err)
			}
			randomize(w, 3)
			rng := rand.New(rand.NewPCG(4, 4))
			planes := make([]float32, n*spec.PlaneSize())
			for i := range planes {
				planes[i] = float32(rng.NormFloat64())
			}
			ref, err := NewReference(w, n)
			if err != nil {
				t.Fatal(err)
			}
			defer ref.Close()
			rl, rp, rv, err := ref.Run(planes)
			if err != nil {
				t.Fatal(err)
			}
			net := NewNet(w)
			ws := net.NewWorkspace(n)
			if err := net.Forward(ws, planes, n); err != nil {
				t.Fatal(err)
			}
			hw := spec.Height * spec.Width
			logits := make([]float32, len(rl))
			for b := 0; b < n; b++ {
				for idx := 0; idx < spec.PolicyPlanes()*hw; idx++ {
					logits[b*spec.PolicyPlanes()*hw+idx] = net.Logit(ws, b, idx)
				}
			}
			check := func(what string, got, want []float32) {
				if e := maxRelErr(got, want); e > 1e-4 {
					t.Errorf("%s: relative error %.3g", what, e)
				} else {
					t.Logf("%s: relative error %.3g", what, e)
				}
			}
			check("policy logits", logits, rl)
			check("value logits", ws.Value[:n*3], rv)
			if rp != nil {
				check("pass logit", ws.Pass[:n], rp)
			}
			out, err := ref.Forward(planes)
			if err != nil {
				t.Fatal(err)
			}
			check("material", ws.Material[:n*2], out.Material)
		})
	}
}

// TestTrainingForwardMatchesReference: the training graph's forward pass,
// given one batch, produces the reference's logits once its batch-norm
// layers use that batch's statistics (here: the running statistics are set
// to the batch statistics by a first pass with momentum 1).
func TestTrainingForwardMatchesReference(t *testing.T) {
	b, spec := testBatch(t, rules.Chu, 4, 9)
	w := tinyWeights(t, spec, 9)
	randomize(w, 9)
	cfg := DefaultTrainConfig()
	cfg.Batch = 4
	cfg.BNMomentum = 1 // running statistics := this batch's statistics
	tr, err := NewTrainer(w, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if _, err := tr.Loss(b); err != nil {
		t.Fatal(err)
	}
	// the running variance is unbiased while training normalises with the
	// biased one: undo that factor for the comparison
	rows := float32(4 * spec.Height * spec.Width)
	for _, tt := range w.Tensors {
		if tt.Role == RoleRunVar {
			for i := range tt.Data {
				tt.Data[i] *= (rows - 1) / rows
			}
		}
	}
	ref, err := NewReference(w, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	rl, _, rv, err := ref.Run(b.Planes)
	if err != nil {
		t.Fatal(err)
	}
	hw := spec.Height * spec.Width
	planes := spec.PolicyPlanes()
	var got []float32
	for s := 0; s < 4; s++ {
		for idx := 0; idx < planes*hw; idx++ {
			got = append(got, tr.policy.logits[(s*hw+idx%hw)*planes+idx/hw])
		}
	}
	if e := maxRelErr(got, rl); e > 1e-3 {
		t.Errorf("policy logits: relative error %.3g", e)
	}
	if e := maxRelErr(tr.value.wdl, rv); e > 1e-3 {
		t.Errorf("value logits: relative error %.3g", e)
	}
	checkAuxAgainstReference(t, tr, ref, b)
}

func ExampleNewReference() {
	spec := encode.MustSpec(rules.Sho, encode.DefaultOptions())
	w, _ := NewWeights(Presets["tiny"], spec, 1)
	ref, _ := NewReference(w, 1)
	defer ref.Close()
	logits, pass, wdl, _ := ref.Run(make([]float32, spec.PlaneSize()))
	fmt.Println(len(logits) == spec.PolicySize, pass == nil, len(wdl))
	// Output: true true 3
}
