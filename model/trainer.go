package model

import (
	"errors"
	"fmt"
	"math"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TrainConfig configures a Trainer.
type TrainConfig struct {
	Batch     int           `json:"batch"`     // positions per step (the graph's fixed batch size)
	Optimizer OptimizerKind `json:"optimizer"` // adam or sgd
	Momentum  float64       `json:"momentum"`  // SGD momentum
	Beta1     float64       `json:"beta1"`     // Adam moment decays
	Beta2     float64       `json:"beta2"`     //
	Epsilon   float64       `json:"epsilon"`   // Adam
	L2        float64       `json:"l2"`        // coefficient c of the c*sum(w^2) term on weights (not on biases and norm scales)
	// WeightDecay is decoupled weight decay (AdamW; Loshchilov & Hutter):
	// every step multiplies the decayed tensors by 1 - lr*WeightDecay,
	// outside the adaptive update (with Adam, an L2 term in the gradient is
	// divided by the gradient's own scale and nearly inert).
	WeightDecay  float64 `json:"weight_decay"`
	MaxGradNorm  float64 `json:"max_grad_norm"` // clip the global gradient norm to this (0: no clipping)
	BNMomentum   float32 `json:"bn_momentum"`   // weight of a new batch in the batch-norm running statistics
	PolicyWeight float32 `json:"policy_weight"` // weight of the policy loss against the value loss
	Threads      int     `json:"threads"`       // goroutines per layer (0: GOMAXPROCS)

	// Weights of the auxiliary heads' losses (aux.go), against the value
	// loss's 1; 0 skips a head's work. Ignored by a network without
	// Config.AuxHeads.
	ReplyWeight      float32 `json:"reply_weight"`       // opponent's reply policy cross-entropy
	MaterialWeight   float32 `json:"material_weight"`    // material MSE (mean over its 2 outputs)
	OwnershipWeight  float32 `json:"ownership_weight"`   // ownership MSE (mean over the squares)
	ShortValueWeight float32 `json:"short_value_weight"` // short-term value MSE (mean over its 3 outputs)
}

// DefaultTrainConfig returns the defaults: AdamW (Adam with decoupled
// weight decay 0.01, no L2 term), batch 256, gradient norm clipped at 10, and
// KataGo-like auxiliary weights: reply 0.15 (KataGo's opponent-policy
// weight), ownership 0.5 (KataGo weighs its per-square ownership
// cross-entropy 1.5; a squared error on tanh outputs has about 3 times its
// gradient), short-term values 0.5 and material 0.25 (small next to the
// value loss they resemble).
func DefaultTrainConfig() TrainConfig {
	return TrainConfig{Batch: 256, Optimizer: Adam, Momentum: 0.9, Beta1: 0.9, Beta2: 0.999, Epsilon: 1e-8,
		WeightDecay: 0.01, MaxGradNorm: 10, BNMomentum: 0.05, PolicyWeight: 1,
		ReplyWeight: 0.15, MaterialWeight: 0.25, OwnershipWeight: 0.5, ShortValueWeight: 0.5}
}

// Validate reports a problem with c.
func (c TrainConfig) Validate() error {
	switch {
	case c.Batch < 1:
		return fmt.Errorf("model: batch %d must be positive", c.Batch)
	case c.Optimizer != Adam && c.Optimizer != Momentum:
		return fmt.Errorf("model: unknown optimizer %q", c.Optimizer)
	case c.L2 < 0 || c.MaxGradNorm < 0 || c.WeightDecay < 0:
		return errors.New("model: L2, WeightDecay and MaxGradNorm must not be negative")
	case c.BNMomentum <= 0 || c.BNMomentum > 1:
		return fmt.Errorf("model: batch-norm momentum %v out of (0, 1]", c.BNMomentum)
	case c.ReplyWeight < 0 || c.MaterialWeight < 0 || c.OwnershipWeight < 0 || c.ShortValueWeight < 0:
		return errors.New("model: auxiliary loss weights must not be negative")
	}
	return nil
}

// Batch is one training minibatch.
type Batch struct {
	N      int
	Planes []float32    // N input planes, each Spec.PlaneSize() floats (C x H x W)
	Legal  [][]int32    // per sample: policy indices of the legal moves
	Policy [][]float32  // per sample: target probability of each legal move; nil = no policy target
	WDL    [][3]float32 // per sample: value target (win, draw, loss for the side to move)

	// Auxiliary targets (see encode.AuxTargets); a sample with HasAux[i]
	// false contributes nothing to the auxiliary losses. All may be nil
	// when no sample has auxiliary targets.
	HasAux      []bool
	ReplyLegal  [][]int32    // per sample: policy indices of the opponent's reply target
	ReplyPolicy [][]float32  // per sample: its probabilities; nil = no reply target
	Material    [][2]float32 // per sample: material balance at the end and AuxAheadPlies ahead, in [-1, 1]
	ShortValue  [][3]float32 // per sample: short-term value targets, in [-1, 1]
	Ownership   []float32    // N x H*W, network frame (the planes' square order): +1 own, -1 opponent, 0 empty
}

// StepStats reports one training step.
type StepStats struct {
	PolicyLoss float64
	ValueLoss  float64
	// Auxiliary losses, unweighted (0 for a head without weight, without
	// targets in the batch, or without auxiliary heads).
	ReplyLoss      float64
	MaterialLoss   float64
	OwnershipLoss  float64
	ShortValueLoss float64
	L2Loss         float64 // c * sum(w^2)
	Loss           float64 // the weighted sum of the policy, value and auxiliary losses, plus L2
	GradNorm       float64 // global norm of the loss gradient, before clipping
	Clipped        bool
	Skipped        bool // the step was not applied: a non-finite loss or gradient
}

// ErrNonFinite reports a step skipped because the loss or the gradient
// was NaN or infinite; the weights are unchanged.
var ErrNonFinite = errors.New("model: non-finite loss or gradient; step skipped")

// Trainer runs training steps of a network on a Gorgonia graph built once
// for a fixed batch size: custom ops (ops.go, layers.go) for the layers,
// Gorgonia's symbolic differentiation for the backward graph, a
// TapeMachine to run it, and the optimizer of optim.go. Memory stays flat:
// activations and gradients live in buffers allocated at construction.
type Trainer struct {
	W      *Weights
	cfg    TrainConfig
	g      *G.ExprGraph
	vm     G.VM
	input  []float32
	stem   *stem
	blocks []*block
	policy *policyHead
	value  *valueHead
	loss   *lossLayer
	aux    *auxLayer // nil without auxiliary heads
	grads  gradSink
	opt    *optimizer
}

// NewTrainer builds the training graph for w (which it updates in place).
func NewTrainer(w *Weights, cfg TrainConfig) (*Trainer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	t := &Trainer{W: w, cfg: cfg, grads: gradSink{}}
	if err := t.build(); err != nil {
		return nil, fmt.Errorf("model: building the training graph: %w", err)
	}
	t.opt = newOptimizer(cfg.Optimizer, w, cfg.Momentum, cfg.Beta1, cfg.Beta2, cfg.Epsilon)
	t.opt.weightDecay = cfg.WeightDecay
	return t, nil
}

func (t *Trainer) build() error {
	w := t.W
	s := w.Spec
	n, h, wd := t.cfg.Batch, s.Height, s.Width
	rows := n * h * wd
	t.g = G.NewGraph()
	nodes := map[string]*G.Node{}
	var wrt G.Nodes
	param := func(tt *Tensor) *G.Node {
		if p, ok := nodes[tt.Name]; ok {
			return p
		}
		p := G.NewTensor(t.g, G.Float32, len(tt.Shape), G.WithShape(tt.Shape...), G.WithName(tt.Name),
			G.WithValue(wrap(tt.Data, tensor.Shape(tt.Shape))))
		nodes[tt.Name] = p
		wrt = append(wrt, p)
		return p
	}
	params := func(ts []*Tensor) G.Nodes {
		var out G.Nodes
		for _, tt := range ts {
			out = append(out, param(tt))
		}
		return out
	}
	t.input = make([]float32, rows*s.Planes)
	x := G.NewMatrix(t.g, G.Float32, G.WithShape(rows, s.Planes), G.WithName("input"),
		G.WithValue(wrap(t.input, tensor.Shape{rows, s.Planes})))
	m := t.cfg.BNMomentum
	t.stem = newStem(w, n, h, wd, m, t.grads)
	trunk, err := t.stem.node(x, param(t.stem.w), param(t.stem.p.gamma), param(t.stem.p.beta))
	if err != nil {
		return err
	}
	for i := 0; i < w.Config.Blocks; i++ {
		b := newBlock(w, i, n, h, wd, m, t.grads)
		t.blocks = append(t.blocks, b)
		if trunk, err = b.node(trunk, params(b.params())); err != nil {
			return err
		}
	}
	t.policy = newPolicyHead(w, n, h, wd, m, t.grads)
	logits, err := t.policy.node(trunk, params(t.policy.params()))
	if err != nil {
		return err
	}
	t.value = newValueHead(w, n, h, wd, m, t.grads)
	wdl, err := t.value.node(trunk, params(t.value.params()))
	if err != nil {
		return err
	}
	t.loss = newLossLayer(t.policy, n, h*wd, s.PolicyPlanes(), t.cfg.PolicyWeight)
	var auxParams G.Nodes
	if w.Config.AuxHeads {
		t.aux = newAuxLayer(w, t.policy, t.value, n, t.cfg, t.grads)
		t.loss.aux, auxParams = t.aux, params(t.aux.params())
	}
	cost, err := t.loss.node(logits, wdl, auxParams)
	if err != nil {
		return err
	}
	if _, err := G.Grad(cost, wrt...); err != nil {
		return err
	}
	for _, tt := range w.Tensors {
		if tt.Role.Trained() && t.grads[tt.Name] == nil {
			return fmt.Errorf("tensor %s has no gradient", tt.Name)
		}
	}
	t.vm = G.NewTapeMachine(t.g)
	t.setThreads(t.threads())
	return nil
}

// setThreads sets the goroutines per layer of every layer that splits its
// work.
func (t *Trainer) setThreads(nt int) {
	convs := []*conv{t.stem.conv, t.policy.conv, t.policy.out, t.value.conv}
	bns := []*batchNorm{t.stem.bn, t.policy.bn, t.value.bn}
	for _, b := range t.blocks {
		convs = append(convs, b.conv1, b.conv2)
		bns = append(bns, b.bn1, b.bn2)
		if b.gp != nil {
			b.gp.threads = nt
		}
	}
	for _, c := range convs {
		c.threads = nt
	}
	for _, b := range bns {
		b.threads = nt
	}
	if t.aux != nil {
		t.aux.threads = nt
	}
}

// threads returns the goroutines per layer.
func (t *Trainer) threads() int {
	if t.cfg.Threads > 0 {
		return t.cfg.Threads
	}
	return DefaultThreads()
}

// Close releases the Gorgonia machine.
func (t *Trainer) Close() error { return t.vm.Close() }

// Config returns the training configuration.
func (t *Trainer) Config() TrainConfig { return t.cfg }

// Step runs one training step on b with learning rate lr: forward,
// backward, gradient clipping, and the optimizer update. A non-finite loss
// or gradient skips the update and returns ErrNonFinite.
func (t *Trainer) Step(b *Batch, lr float64) (StepStats, error) {
	st, err := t.Loss(b)
	if err != nil {
		return st, err
	}
	scale := float32(1)
	if t.cfg.MaxGradNorm > 0 && st.GradNorm > t.cfg.MaxGradNorm {
		scale = float32(t.cfg.MaxGradNorm / st.GradNorm)
		st.Clipped = true
	}
	t.opt.apply(t.W, t.grads, lr, t.cfg.L2, scale)
	return st, nil
}

// Loss runs the forward and backward passes on b without updating the
// weights (the batch-norm layers still use, and update, batch
// statistics, as in a training step) and reports the losses and the
// gradient norm; Gradient then returns the gradients. A non-finite loss
// or gradient returns ErrNonFinite with Skipped set.
func (t *Trainer) Loss(b *Batch) (StepStats, error) {
	var st StepStats
	if err := t.forwardBackward(b); err != nil {
		if errors.Is(err, ErrNonFinite) {
			st.Skipped = true
		}
		return st, err
	}
	st.PolicyLoss, st.ValueLoss = t.loss.policyLoss, t.loss.valueLoss
	c := t.cfg
	st.Loss = float64(c.PolicyWeight)*st.PolicyLoss + st.ValueLoss
	if t.aux != nil {
		l := t.aux.losses
		st.ReplyLoss, st.MaterialLoss, st.OwnershipLoss, st.ShortValueLoss = l.reply, l.material, l.own, l.short
		st.Loss += float64(c.ReplyWeight)*l.reply + float64(c.MaterialWeight)*l.material +
			float64(c.OwnershipWeight)*l.own + float64(c.ShortValueWeight)*l.short
	}
	var norm2, l2 float64
	for _, tt := range t.W.Tensors {
		if !tt.Role.Trained() {
			continue
		}
		for _, g := range *t.grads[tt.Name] {
			norm2 += float64(g) * float64(g)
		}
		if tt.Role.Decayed() {
			for _, v := range tt.Data {
				l2 += float64(v) * float64(v)
			}
		}
	}
	st.GradNorm = math.Sqrt(norm2)
	st.L2Loss = t.cfg.L2 * l2
	st.Loss += st.L2Loss
	if math.IsNaN(st.GradNorm) || math.IsInf(st.GradNorm, 0) || math.IsNaN(st.Loss) || math.IsInf(st.Loss, 0) {
		st.Skipped = true
		return st, ErrNonFinite
	}
	return st, nil
}

// forwardBackward runs the graph on b, leaving the gradients in t.grads.
func (t *Trainer) forwardBackward(b *Batch) error {
	s := t.W.Spec
	if b.N != t.cfg.Batch {
		return fmt.Errorf("model: batch of %d, the graph takes %d", b.N, t.cfg.Batch)
	}
	if len(b.Planes) != b.N*s.PlaneSize() || len(b.Legal) != b.N || len(b.Policy) != b.N || len(b.WDL) != b.N {
		return errors.New("model: batch fields do not match its size")
	}
	for i := range b.Policy {
		if b.Policy[i] != nil && len(b.Policy[i]) != len(b.Legal[i]) {
			return fmt.Errorf("model: sample %d has %d legal moves and %d target probabilities", i, len(b.Legal[i]), len(b.Policy[i]))
		}
		for _, idx := range b.Legal[i] {
			if idx < 0 || int(idx) >= s.PolicySize {
				return fmt.Errorf("model: sample %d: policy index %d out of range", i, idx)
			}
		}
	}
	if t.aux != nil {
		if err := t.aux.setBatch(b, s.PolicySize); err != nil {
			return err
		}
	}
	toNHWC(t.threads(), b.Planes, t.input, b.N, s.Planes, s.Height*s.Width)
	t.loss.legal, t.loss.target, t.loss.wdlTarget = b.Legal, b.Policy, b.WDL
	err := t.vm.RunAll()
	t.vm.Reset()
	if err != nil {
		if errors.Is(err, ErrNonFinite) {
			return ErrNonFinite
		}
		return fmt.Errorf("model: training step: %w", err)
	}
	return nil
}

// Gradient returns the gradient of tensor name from the last step or Loss.
func (t *Trainer) Gradient(name string) []float32 {
	if g := t.grads[name]; g != nil {
		return *g
	}
	return nil
}

// OptimizerStep returns how many updates the optimizer has applied.
func (t *Trainer) OptimizerStep() int64 { return t.opt.step }
