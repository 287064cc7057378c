package model

import (
	"fmt"
	"math"
	"testing"

	"chuzero/encode"
	"chuzero/rules"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Regression tests for the traps of Gorgonia v0.9.18 listed in
// ../shared/notes/gorgonia.md that this package works around. Each test
// first asserts that the trap is still there (if a Gorgonia upgrade fixes
// it, the test fails and the workaround can be reconsidered), then that
// the workaround holds.

func matrix(g *G.ExprGraph, name string, rows, cols int, data []float32) *G.Node {
	return G.NewMatrix(g, G.Float32, G.WithShape(rows, cols), G.WithName(name),
		G.WithValue(tensor.New(tensor.WithShape(rows, cols), tensor.WithBacking(data))))
}

func TestTrapSoftMaxLogSoftMaxMerge(t *testing.T) {
	g := G.NewGraph()
	x := matrix(g, "x", 2, 3, []float32{0, 1, 2, 3, 4, 5})
	sm, _ := G.SoftMax(x)
	lsm, _ := G.LogSoftMax(x)
	if sm != lsm {
		t.Errorf("trap gone: SoftMax and LogSoftMax are distinct nodes now")
	}
	// workaround: no softmax op in our graphs; the loss computes a
	// max-shifted log-sum-exp itself (lossLayer), see the overflow test
}

func TestTrapSoftMaxOverflow(t *testing.T) {
	g := G.NewGraph()
	x := matrix(g, "x", 2, 3, []float32{0, 0, 0, 200, 0, 0})
	sm, _ := G.SoftMax(x)
	var out G.Value
	G.Read(sm, &out)
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	bad := false
	for _, v := range out.Data().([]float32) {
		bad = bad || math.IsNaN(float64(v)) || math.IsInf(float64(v), 0)
	}
	if !bad {
		t.Errorf("trap gone: SoftMax handles a row far above row 0")
	}
	// workaround: our loss stays finite on extreme logits
	b, spec := testBatch(t, rules.Sho, 2, 1)
	w := tinyWeights(t, spec, 1)
	for i := range w.Get("policy/out/b").Data {
		w.Get("policy/out/b").Data[i] = float32(200 * (i % 2))
	}
	cfg := DefaultTrainConfig()
	cfg.Batch = 2
	tr, err := NewTrainer(w, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	st, err := tr.Loss(b)
	if err != nil || math.IsNaN(st.PolicyLoss) || math.IsInf(st.PolicyLoss, 0) || math.IsNaN(st.ValueLoss) {
		t.Errorf("loss with logits of 200: %+v, %v", st, err)
	}
}

func TestTrapUnnamedNodesMerge(t *testing.T) {
	g := G.NewGraph()
	a := G.NewMatrix(g, G.Float32, G.WithShape(2, 2))
	b := G.NewMatrix(g, G.Float32, G.WithShape(2, 2))
	if a != b {
		t.Errorf("trap gone: unnamed inputs are no longer merged")
	}
	// workaround: every input and parameter node is named, uniquely
	spec := encode.MustSpec(rules.Chu, encode.DefaultOptions())
	w, _ := NewWeights(Presets["small"], spec, 1)
	seen := map[string]bool{"input": true}
	for _, tt := range w.Tensors {
		if seen[tt.Name] {
			t.Errorf("duplicate node name %s", tt.Name)
		}
		seen[tt.Name] = true
	}
}

func TestTrapHeNFloat32(t *testing.T) {
	if err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%v", r)
			}
		}()
		G.HeN(1)(tensor.Float32, 4, 4)
		return nil
	}(); err == nil {
		t.Errorf("trap gone: HeN works for float32")
	}
	// workaround: our own He-normal initialisation, of the right scale
	spec := encode.MustSpec(rules.Sho, encode.DefaultOptions())
	w, _ := NewWeights(Presets["small"], spec, 1)
	d := w.Get("block0/conv1/w").Data
	var s float64
	for _, v := range d {
		s += float64(v) * float64(v)
	}
	if std, want := math.Sqrt(s/float64(len(d))), math.Sqrt(2.0/(9*64)); math.Abs(std-want) > 0.1*want {
		t.Errorf("He init std %.4f, want %.4f", std, want)
	}
}

func TestTrapGlobalAveragePoolNoGradient(t *testing.T) {
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("Grad panicked: %v", r)
			}
		}()
		g := G.NewGraph()
		x := G.NewTensor(g, G.Float32, 4, G.WithShape(1, 2, 3, 3), G.WithName("x"), G.WithInit(G.Ones()))
		p, err := G.GlobalAveragePool2D(x)
		if err != nil {
			return err
		}
		s, err := G.Sum(p)
		if err != nil {
			return err
		}
		_, err = G.Grad(s, x)
		return err
	}()
	if err == nil {
		t.Errorf("trap gone: GlobalAveragePool2D is differentiable")
	}
	// workaround: pooling is our own op (meanPool/meanMaxPool) with a
	// backward pass, checked by TestGradientsFiniteDifferences; the
	// reference graph pools with Mean of a reshape.
}

// solverTrap trains w (2 float64 parameters of value 1: the solvers'
// L2 only works in float64) on a zero gradient with L2 and returns the
// weights after 10 steps.
func solverTrap(t *testing.T, solver G.Solver) []float64 {
	g := G.NewGraph()
	w := G.NewVector(g, G.Float64, G.WithShape(2), G.WithName("w"),
		G.WithValue(tensor.New(tensor.WithShape(2), tensor.WithBacking([]float64{1, 1}))))
	zero := G.NewConstant(float64(0))
	cost, _ := G.Mul(zero, G.Must(G.Sum(w)))
	if _, err := G.Grad(cost, w); err != nil {
		t.Fatal(err)
	}
	vm := G.NewTapeMachine(g, G.BindDualValues(w))
	defer vm.Close()
	for i := 0; i < 10; i++ {
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		if err := solver.Step(G.NodesToValueGrads(G.Nodes{w})); err != nil {
			t.Fatal(err)
		}
		vm.Reset()
	}
	return w.Value().Data().([]float64)
}

func TestTrapSolvers(t *testing.T) {
	if w := solverTrap(t, G.NewMomentum(G.WithLearnRate(0.1), G.WithL2Reg(0.5))); w[0] != 1 {
		t.Errorf("trap gone: Momentum's L2 now decays the weights (%v)", w)
	}
	if w := solverTrap(t, G.NewAdamW(G.WithLearnRate(0.1), G.WithL2Reg(0.5))); w[0] != 1 {
		t.Errorf("trap gone: AdamW now updates the weights (%v)", w)
	}
	// workaround: our optimizers apply L2 (and keep a state that checkpoints
	// save; TestSaveLoadBitIdentical resumes training exactly)
	spec := encode.MustSpec(rules.Sho, encode.DefaultOptions())
	for _, kind := range []OptimizerKind{Momentum, Adam} {
		w, _ := NewWeights(Presets["tiny"], spec, 1)
		o := newOptimizer(kind, w, 0.9, 0.9, 0.999, 1e-8)
		grads := gradSink{}
		for _, tt := range w.Tensors {
			g := make([]float32, len(tt.Data))
			grads[tt.Name] = &g
		}
		before := append([]float32(nil), w.Get("block0/conv1/w").Data...)
		o.apply(w, grads, 0.01, 0.5, 1)
		after := w.Get("block0/conv1/w").Data
		shrunk := 0
		for i := range before {
			if math.Abs(float64(after[i])) < math.Abs(float64(before[i])) {
				shrunk++
			}
		}
		if shrunk < len(before)*9/10 {
			t.Errorf("%s: L2 with a zero gradient shrank only %d of %d weights", kind, shrunk, len(before))
		}
		if g := w.Get("block0/bn1/gamma").Data[0]; g != 1 {
			t.Errorf("%s: L2 decayed a batch-norm scale (%v)", kind, g)
		}
	}
}

func TestTrapBatchNormStatsNotReset(t *testing.T) {
	// Gorgonia's BatchNorm resets its running statistics when a machine is
	// created. Ours are weights: building a trainer leaves them alone.
	spec := encode.MustSpec(rules.Sho, encode.DefaultOptions())
	w, _ := NewWeights(Presets["tiny"], spec, 1)
	randomize(w, 2)
	before := append([]float32(nil), w.Get("block0/bn1/var").Data...)
	cfg := DefaultTrainConfig()
	cfg.Batch = 2
	tr, err := NewTrainer(w, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr.Close()
	for i, v := range w.Get("block0/bn1/var").Data {
		if v != before[i] {
			t.Fatalf("building a trainer changed the running variance")
		}
	}
}
