package model

import (
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/rules"
)

// checkAuxAgainstReference compares the auxiliary outputs of the
// training graph's last forward pass with the reference's (whose
// batch-norm statistics the caller made the batch's): reply logits at
// every sample's ReplyLegal indices, the pass included, and the tanh
// outputs of material, short-term values and ownership.
func checkAuxAgainstReference(t *testing.T, tr *Trainer, ref *Reference, b *Batch) {
	t.Helper()
	out, err := ref.Forward(b.Planes)
	if err != nil {
		t.Fatal(err)
	}
	if out.ReplyLogits == nil || out.Material == nil || out.ShortValue == nil || out.Ownership == nil {
		t.Fatalf("the reference has no auxiliary outputs")
	}
	size := tr.W.Spec.PolicySize
	planes := len(out.ReplyLogits) / b.N
	var got, want []float32
	passes := 0
	for i := 0; i < b.N; i++ {
		got = append(got, tr.aux.replyZ[i]...)
		for _, idx := range b.ReplyLegal[i] {
			if int(idx) == size-1 && out.ReplyPass != nil {
				want = append(want, out.ReplyPass[i])
				passes++
			} else {
				want = append(want, out.ReplyLogits[i*planes+int(idx)])
			}
		}
	}
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("%d reply logits, want %d", len(got), len(want))
	}
	t.Logf("%d reply logits compared, %d of them pass logits", len(got), passes)
	for _, c := range []struct {
		what      string
		got, want []float32
	}{{"reply logits", got, want}, {"material", tr.aux.mat, out.Material},
		{"short-term values", tr.aux.sv, out.ShortValue}, {"ownership", tr.aux.own, out.Ownership}} {
		if e := maxRelErr(c.got, c.want); e > 1e-3 {
			t.Errorf("%s: relative error %.3g", c.what, e)
		}
	}
}

// TestAuxLossesFall: on a fixed batch with learnable auxiliary targets
// (one-hot replies, per-sample constants, ownership read off the input
// planes' occupancy), every auxiliary loss falls.
func TestAuxLossesFall(t *testing.T) {
	b, spec := testBatch(t, rules.Sho, 8, 31)
	hw := spec.Height * spec.Width
	for i := 0; i < b.N; i++ {
		for j := range b.ReplyPolicy[i] {
			b.ReplyPolicy[i][j] = 0
		}
		b.ReplyPolicy[i][(i*5)%len(b.ReplyPolicy[i])] = 1
		b.Material[i] = [2]float32{float32(i%3) - 1, float32(i%2)*0.5 - 0.25}
		b.ShortValue[i] = [3]float32{float32(i%2)*2 - 1, 0.5, float32(i%4)/2 - 0.75}
		planes := b.Planes[i*spec.PlaneSize():]
		for s := 0; s < hw; s++ { // +1 where input plane 0 is set: a function of the input
			b.Ownership[i*hw+s] = planes[s]
		}
	}
	w := tinyWeights(t, spec, 31)
	tr := defaultTrainer(t, w, 8)
	first, err := tr.Step(b, 1e-2)
	if err != nil {
		t.Fatal(err)
	}
	last := first
	for i := 0; i < 150; i++ {
		if last, err = tr.Step(b, 1e-2); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		what        string
		first, last float64
	}{{"reply", first.ReplyLoss, last.ReplyLoss}, {"material", first.MaterialLoss, last.MaterialLoss},
		{"ownership", first.OwnershipLoss, last.OwnershipLoss}, {"short-term value", first.ShortValueLoss, last.ShortValueLoss}} {
		t.Logf("%s loss %.4f -> %.4f", c.what, c.first, c.last)
		if !(c.last < 0.5*c.first) {
			t.Errorf("%s loss did not fall: %.4f -> %.4f", c.what, c.first, c.last)
		}
	}
}

// TestAuxWeightsZeroSkip: with every auxiliary weight 0 the auxiliary
// losses and gradients are zero, and the rest of the training graph
// computes exactly what a network without auxiliary heads computes
// (NewWeights initialises the other tensors identically with or without
// them). Inference ignores the heads too.
func TestAuxWeightsZeroSkip(t *testing.T) {
	b, spec := testBatch(t, rules.Chu, 4, 7)
	cfg := DefaultTrainConfig()
	cfg.Batch = 4
	cfg.ReplyWeight, cfg.MaterialWeight, cfg.OwnershipWeight, cfg.ShortValueWeight = 0, 0, 0, 0
	noAux := Presets["tiny"]
	noAux.AuxHeads = false
	wa, wn := tinyWeights(t, spec, 7), mustWeights(t, noAux, spec, 7)
	for _, tt := range wn.Tensors {
		if !reflect.DeepEqual(tt.Data, wa.Get(tt.Name).Data) {
			t.Fatalf("%s initialised differently with auxiliary heads", tt.Name)
		}
	}
	na, nn := NewNet(wa), NewNet(wn)
	wsa, wsn := na.NewWorkspace(4), nn.NewWorkspace(4)
	if na.Forward(wsa, b.Planes, 4) != nil || nn.Forward(wsn, b.Planes, 4) != nil ||
		!reflect.DeepEqual(wsa.Logits, wsn.Logits) || !reflect.DeepEqual(wsa.Value, wsn.Value) {
		t.Errorf("inference depends on the auxiliary heads")
	}
	ta, err := NewTrainer(wa, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ta.Close()
	tn, err := NewTrainer(wn, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer tn.Close()
	sa, err := ta.Loss(b)
	if err != nil {
		t.Fatal(err)
	}
	sn, err := tn.Loss(b)
	if err != nil {
		t.Fatal(err)
	}
	if sa != sn {
		t.Errorf("losses with zero auxiliary weights %+v, without auxiliary heads %+v", sa, sn)
	}
	for _, tt := range wa.Tensors {
		if !tt.Role.Trained() {
			continue
		}
		g := ta.Gradient(tt.Name)
		if isAuxTensor(tt.Name) {
			if norm(g) != 0 {
				t.Errorf("%s: gradient with weight 0", tt.Name)
			}
		} else if !reflect.DeepEqual(g, tn.Gradient(tt.Name)) {
			t.Errorf("%s: gradient differs from the network without auxiliary heads", tt.Name)
		}
	}
}

// TestAuxMissingTargets: samples without auxiliary targets contribute
// nothing (changing their targets changes no loss or gradient), the
// losses are means over the samples that have targets, and a batch with
// no auxiliary fields at all trains with zero auxiliary losses.
func TestAuxMissingTargets(t *testing.T) {
	b, spec := testBatch(t, rules.Chu, 4, 8)
	w := tinyWeights(t, spec, 8)
	tr := defaultTrainer(t, w, 4)
	b.HasAux[1], b.HasAux[3] = false, false
	run := func() (StepStats, []float32) {
		st, err := tr.Loss(b)
		if err != nil {
			t.Fatal(err)
		}
		return st, append(append([]float32{}, tr.Gradient("stem/conv/w")...), tr.Gradient("value/short/w")...)
	}
	st1, g1 := run()
	var want float64
	for _, i := range []int{0, 2} {
		for j := 0; j < 3; j++ {
			d := float64(tr.aux.sv[i*3+j] - b.ShortValue[i][j])
			want += d * d / 6
		}
	}
	if math.Abs(st1.ShortValueLoss-want) > 1e-6 {
		t.Errorf("short-term value loss %.6f, the mean over the samples with targets is %.6f", st1.ShortValueLoss, want)
	}
	hw := spec.Height * spec.Width
	b.Material[1], b.ShortValue[3] = [2]float32{1, -1}, [3]float32{1, 1, 1}
	for j := range b.ReplyPolicy[1] {
		b.ReplyPolicy[1][j] = 1 / float32(len(b.ReplyPolicy[1]))
	}
	for s := 0; s < hw; s++ {
		b.Ownership[3*hw+s] = 1
	}
	if st2, g2 := run(); st1 != st2 || !reflect.DeepEqual(g1, g2) {
		t.Errorf("a sample without auxiliary targets changed the losses: %+v, then %+v", st1, st2)
	}
	b.HasAux, b.ReplyLegal, b.ReplyPolicy, b.Material, b.ShortValue, b.Ownership = nil, nil, nil, nil, nil, nil
	st3, err := tr.Step(b, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if st3.ReplyLoss != 0 || st3.MaterialLoss != 0 || st3.OwnershipLoss != 0 || st3.ShortValueLoss != 0 {
		t.Errorf("auxiliary losses without targets: %+v", st3)
	}
}

func mustWeights(t testing.TB, c Config, spec *encode.Spec, seed uint64) *Weights {
	t.Helper()
	w, err := NewWeights(c, spec, seed)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestCheckpointWithoutAuxHeads: a checkpoint written before the
// auxiliary heads (no aux_heads key, no auxiliary tensors or optimizer
// state) loads with the heads on and freshly initialised, the same on
// every load, the other tensors intact; its optimizer state restores and
// training continues. A config that turns the heads off explicitly loads
// without them.
func TestCheckpointWithoutAuxHeads(t *testing.T) {
	b, spec := testBatch(t, rules.Chu, 4, 12)
	w := tinyWeights(t, spec, 12)
	tr := defaultTrainer(t, w, 4)
	if _, err := tr.Step(b, 1e-3); err != nil {
		t.Fatal(err)
	}
	c, err := w.Checkpoint(checkpoints.Meta{Step: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.SaveOptimizer(c); err != nil {
		t.Fatal(err)
	}
	var kept []checkpoints.Tensor
	for _, ct := range c.Tensors {
		if !isAuxTensor(strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(ct.Name, optPrefix), "first/"), "second/")) {
			kept = append(kept, ct)
		}
	}
	c.Tensors = kept
	c.Meta.Model = []byte(strings.Replace(string(c.Meta.Model), `,"aux_heads":true`, "", 1))
	if strings.Contains(string(c.Meta.Model), "aux") {
		t.Fatalf("config still names the heads: %s", c.Meta.Model)
	}
	path := filepath.Join(t.TempDir(), "old.ckpt")
	if err := checkpoints.WriteFile(path, c); err != nil {
		t.Fatal(err)
	}
	w1, c1, err := LoadWeights(path, rules.Chu)
	if err != nil {
		t.Fatal(err)
	}
	w2, _, err := LoadWeights(path, rules.Chu)
	if err != nil {
		t.Fatal(err)
	}
	fresh := mustWeights(t, w.Config, spec, auxSeed)
	if !w1.Config.AuxHeads || w1.Config != w.Config {
		t.Fatalf("loaded config %+v, want %+v", w1.Config, w.Config)
	}
	for _, tt := range w1.Tensors {
		want := w.Get(tt.Name).Data
		if isAuxTensor(tt.Name) {
			want = fresh.Get(tt.Name).Data
		}
		if !reflect.DeepEqual(tt.Data, want) || !reflect.DeepEqual(tt.Data, w2.Get(tt.Name).Data) {
			t.Errorf("%s: not the expected value after loading", tt.Name)
		}
	}
	tr1 := defaultTrainer(t, w1, 4)
	if ok, err := tr1.LoadOptimizer(c1); !ok || err != nil {
		t.Fatalf("LoadOptimizer = %v, %v", ok, err)
	}
	if st, err := tr1.Step(b, 1e-3); err != nil || st.ReplyLoss == 0 {
		t.Fatalf("training the loaded network: %+v, %v", st, err)
	}

	off := Presets["tiny"]
	off.AuxHeads = false
	c, _ = mustWeights(t, off, spec, 1).Checkpoint(checkpoints.Meta{})
	if err := checkpoints.WriteFile(path, c); err != nil {
		t.Fatal(err)
	}
	w3, _, err := LoadWeights(path, rules.Chu)
	if err != nil || w3.Config.AuxHeads || w3.Get("policy/reply/w") != nil {
		t.Fatalf("loading a network without auxiliary heads: %v, %+v", err, w3.Config)
	}
}

// defaultTrainer returns a trainer of w on the default config with the
// given batch, closed at the end of the test.
func defaultTrainer(t *testing.T, w *Weights, batch int) *Trainer {
	t.Helper()
	cfg := DefaultTrainConfig()
	cfg.Batch = batch
	tr, err := NewTrainer(w, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}
