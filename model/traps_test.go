package model

import (
	"fmt"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func newTrapGraph(t *testing.T) *G.ExprGraph { return G.NewGraph() }

// softmaxPair reports whether LogSoftMax(x) returns the SoftMax(x) node
// when both are built on the same input (Gorgonia's node de-duplication).
func softmaxPair(g *G.ExprGraph) (bool, error) {
	x := G.NewMatrix(g, G.Float32, G.WithShape(2, 3), G.WithName("x"),
		G.WithValue(tensor.New(tensor.WithShape(2, 3), tensor.WithBacking([]float32{0, 1, 2, 3, 4, 5}))))
	sm, err := G.SoftMax(x)
	if err != nil {
		return false, err
	}
	lsm, err := G.LogSoftMax(x)
	if err != nil {
		return false, err
	}
	return sm == lsm, nil
}

// unnamedMerge reports whether two unnamed inputs of equal shape become one
// node.
func unnamedMerge() (bool, error) {
	g := G.NewGraph()
	a := G.NewMatrix(g, G.Float32, G.WithShape(2, 2))
	b := G.NewMatrix(g, G.Float32, G.WithShape(2, 2))
	return a == b, nil
}

// heNPanics reports HeN's panic for float32 as an error.
func heNPanics() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("HeN panicked: %v", r)
		}
	}()
	G.HeN(1)(tensor.Float32, 4, 4)
	return nil
}

// globalAvgPoolGrad reports the failure to differentiate GlobalAveragePool2D.
func globalAvgPoolGrad() (err error) {
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
}

func TestTrapsDocumented(t *testing.T) {
	g := G.NewGraph()
	same, err := softmaxPair(g)
	if err != nil {
		t.Fatal(err)
	}
	merged, _ := unnamedMerge()
	t.Logf("softmax/logsoftmax collide: %v; unnamed nodes merge: %v; HeN float32: %v; GlobalAveragePool2D grad: %v",
		same, merged, heNPanics(), globalAvgPoolGrad())
}
