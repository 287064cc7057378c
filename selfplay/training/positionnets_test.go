package training

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"chuzero/checkpoints"
	"chuzero/encode"
	"chuzero/mcts/eval"
	"chuzero/model"
	"chuzero/rules"
)

// TestPositionNetworks: the network of the checkpoint asked for answers;
// the same checkpoint rewritten with other weights is reloaded; a missing
// file is an error.
func TestPositionNetworks(t *testing.T) {
	r, err := rules.New(rules.DefaultConfig(rules.Sho))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := encode.NewSpec(rules.Sho, encode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mc, err := model.Preset("tiny")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), checkpoints.Name(1)+checkpoints.Ext)
	write := func(seed uint64) checkpoints.Entry {
		w, err := model.NewWeights(mc, spec, seed)
		if err != nil {
			t.Fatal(err)
		}
		c, err := w.Checkpoint(checkpoints.Meta{Variant: "sho", Step: 1, Created: time.Now().UTC()})
		if err != nil {
			t.Fatal(err)
		}
		if err := checkpoints.WriteFile(path, c); err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(path)
		later := fi.ModTime().Add(time.Duration(seed) * time.Second) // a new mtime even on a coarse clock
		if err := os.Chtimes(path, later, later); err != nil {
			t.Fatal(err)
		}
		return checkpoints.Entry{Name: checkpoints.Name(1), Step: 1, Path: path}
	}
	g := rules.NewGame(r.StartPosition())
	ask := func(n *PositionNetworks, e checkpoints.Entry) ([]float32, error) {
		var req eval.Request
		req.Set(g, g.LegalMoves())
		err := n.Evaluate(context.Background(), e, &req)
		return req.Priors, err
	}
	var n PositionNetworks
	e := write(1)
	first, err := ask(&n, e)
	if err != nil {
		t.Fatal(err)
	}
	sum := float32(0)
	for _, p := range first {
		sum += p
	}
	if len(first) != len(g.LegalMoves()) || sum < 0.99 || sum > 1.01 {
		t.Fatalf("%d priors summing to %v for %d moves", len(first), sum, len(g.LegalMoves()))
	}
	again, _ := ask(&n, e)
	if again[0] != first[0] {
		t.Errorf("the same file answered %v, then %v", first[0], again[0])
	}
	other, err := ask(&n, write(2))
	if err != nil || other[0] == first[0] {
		t.Errorf("a rewritten checkpoint was not reloaded: %v then %v (%v)", first[0], other[0], err)
	}
	if _, err := ask(&n, checkpoints.Entry{Name: "gone", Path: path + ".gone"}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing checkpoint: %v, want not-exist", err)
	}
}
