package model

import (
	"fmt"
	"math"
	"math/rand/v2"

	"chuzero/encode"
)

// Role says how a tensor is used, which decides its initialisation,
// whether weight decay applies, and whether the optimizer updates it.
type Role uint8

// Tensor roles.
const (
	RoleWeight  Role = iota // convolution or dense weights: He-initialised, L2-regularised
	RoleBias                // zero-initialised, no L2
	RoleGamma               // batch-norm scale: ones, no L2
	RoleBeta                // batch-norm shift: zeros, no L2
	RoleRunMean             // batch-norm running mean: not trained
	RoleRunVar              // batch-norm running variance: not trained
	RoleZero                // weights that start at zero (global-pooling bias): L2-regularised
)

// Trained reports whether the optimizer updates tensors of this role.
func (r Role) Trained() bool { return r != RoleRunMean && r != RoleRunVar }

// Decayed reports whether L2 regularisation applies.
func (r Role) Decayed() bool { return r == RoleWeight || r == RoleZero }

// Tensor is a named float32 tensor of the network.
type Tensor struct {
	Name  string
	Shape []int
	Role  Role
	Data  []float32
}

// Weights are every tensor of a network, in a fixed order, with the
// architecture and the encoding they belong to.
type Weights struct {
	Config  Config
	Spec    *encode.Spec
	Tensors []*Tensor
	byName  map[string]*Tensor
}

// layout lists the network's tensors. Names are stable: checkpoints refer
// to them.
func layout(c Config, s *encode.Spec) []*Tensor {
	var ts []*Tensor
	add := func(name string, role Role, shape ...int) {
		ts = append(ts, &Tensor{Name: name, Shape: shape, Role: role})
	}
	bn := func(prefix string, ch int) {
		add(prefix+"/gamma", RoleGamma, ch)
		add(prefix+"/beta", RoleBeta, ch)
		add(prefix+"/mean", RoleRunMean, ch)
		add(prefix+"/var", RoleRunVar, ch)
	}
	f := c.Filters
	add("stem/conv/w", RoleWeight, 3, 3, s.Planes, f)
	bn("stem/bn", f)
	for i := 0; i < c.Blocks; i++ {
		p := fmt.Sprintf("block%d", i)
		add(p+"/conv1/w", RoleWeight, 3, 3, f, f)
		bn(p+"/bn1", f)
		if c.hasGlobalPool(i) {
			add(p+"/gpool/w", RoleZero, f, f)
		}
		add(p+"/conv2/w", RoleWeight, 3, 3, f, f)
		bn(p+"/bn2", f)
	}
	add("policy/conv/w", RoleWeight, 1, 1, f, c.PolicyFilters)
	bn("policy/bn", c.PolicyFilters)
	add("policy/out/w", RoleWeight, 1, 1, c.PolicyFilters, s.PolicyPlanes())
	add("policy/out/b", RoleBias, s.PolicyPlanes())
	if s.HasPass() {
		add("policy/pass/w", RoleWeight, c.PolicyFilters, 1)
		add("policy/pass/b", RoleBias, 1)
	}
	add("value/conv/w", RoleWeight, 1, 1, f, c.ValueFilters)
	bn("value/bn", c.ValueFilters)
	add("value/fc1/w", RoleWeight, 2*c.ValueFilters, c.ValueHidden)
	add("value/fc1/b", RoleBias, c.ValueHidden)
	add("value/fc2/w", RoleWeight, c.ValueHidden, 3)
	add("value/fc2/b", RoleBias, 3)
	if c.AuxHeads { // last, so the other tensors initialise as without them
		addAuxLayout(add, c, s)
	}
	for _, t := range ts {
		n := 1
		for _, d := range t.Shape {
			n *= d
		}
		t.Data = make([]float32, n)
	}
	return ts
}

// NewWeights returns freshly initialised weights: He-normal for weights
// (fan-in), ones for batch-norm scales and running variances, zeros
// elsewhere; the output layers start small so the first policies are near
// uniform and the first values near even.
func NewWeights(c Config, s *encode.Spec, seed uint64) (*Weights, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	w := &Weights{Config: c, Spec: s, Tensors: layout(c, s)}
	w.index()
	rng := rand.New(rand.NewPCG(seed, 0x6d6f64656c))
	for _, t := range w.Tensors {
		switch t.Role {
		case RoleWeight:
			fanIn := 1
			for _, d := range t.Shape[:len(t.Shape)-1] {
				fanIn *= d
			}
			std := math.Sqrt(2 / float64(fanIn))
			if t.Name == "policy/out/w" || t.Name == "value/fc2/w" || t.Name == "policy/pass/w" || isAuxTensor(t.Name) {
				std *= 0.1
			}
			for i := range t.Data {
				t.Data[i] = float32(rng.NormFloat64() * std)
			}
		case RoleGamma, RoleRunVar:
			for i := range t.Data {
				t.Data[i] = 1
			}
		}
	}
	return w, nil
}

func (w *Weights) index() {
	w.byName = make(map[string]*Tensor, len(w.Tensors))
	for _, t := range w.Tensors {
		w.byName[t.Name] = t
	}
}

// Get returns the tensor called name, or nil.
func (w *Weights) Get(name string) *Tensor { return w.byName[name] }

// must returns the tensor called name; the layout guarantees it exists.
func (w *Weights) must(name string) []float32 {
	t := w.byName[name]
	if t == nil {
		panic("model: missing tensor " + name)
	}
	return t.Data
}

// Clone returns a deep copy.
func (w *Weights) Clone() *Weights {
	c := &Weights{Config: w.Config, Spec: w.Spec}
	for _, t := range w.Tensors {
		c.Tensors = append(c.Tensors, &Tensor{Name: t.Name, Shape: append([]int(nil), t.Shape...), Role: t.Role,
			Data: append([]float32(nil), t.Data...)})
	}
	c.index()
	return c
}

// CopyFrom copies the values of o (same architecture) into w.
func (w *Weights) CopyFrom(o *Weights) error {
	if len(o.Tensors) != len(w.Tensors) {
		return fmt.Errorf("model: copying %d tensors into %d", len(o.Tensors), len(w.Tensors))
	}
	for i, t := range w.Tensors {
		if o.Tensors[i].Name != t.Name || len(o.Tensors[i].Data) != len(t.Data) {
			return fmt.Errorf("model: tensor %s does not match %s", t.Name, o.Tensors[i].Name)
		}
		copy(t.Data, o.Tensors[i].Data)
	}
	return nil
}

// NumParams returns the number of trained parameters.
func (w *Weights) NumParams() int {
	n := 0
	for _, t := range w.Tensors {
		if t.Role.Trained() {
			n += len(t.Data)
		}
	}
	return n
}
