package mcts

import (
	"context"
	"fmt"
	"testing"

	"chuzero/encode"
	"chuzero/mcts/eval"
	"chuzero/rules"
)

// TestCacheKey: the key covers exactly what the network reads: the last
// HistoryPlies moves (not older ones), the repetition count as its planes
// encode it (1, 2, 3 or more), and the progress plane (plies / MaxPlies).
func TestCacheKey(t *testing.T) {
	spec := encode.MustSpec(rules.Sho, encode.DefaultOptions()) // 4 plies of history
	g := game(t, rules.Sho, "")
	for i := 0; i < 10; i++ {
		g.Play(g.LegalMoves()[(i*7)%len(g.LegalMoves())])
	}
	base := &eval.Request{}
	base.Set(g, g.LegalMoves())
	if base.NHistory != encode.MaxHistory {
		t.Fatalf("NHistory %d, want %d", base.NHistory, encode.MaxHistory)
	}
	other := g.LegalMoves()[0]
	maxPlies := rules.DefaultConfig(rules.Sho).MaxPlies
	const sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - %d"
	atPly := func(ply int) func(r *eval.Request) {
		return func(r *eval.Request) {
			h := game(t, rules.Sho, fmt.Sprintf(sfen, ply+1))
			r.Set(h, h.LegalMoves())
		}
	}
	tests := []struct {
		name   string
		a, b   func(r *eval.Request)
		shared bool // same entry under the spec's cache
	}{
		{"5th to 8th last move", nil, func(r *eval.Request) {
			for i := 0; i < 4; i++ {
				r.History[i] = other
			}
		}, true},
		{"4th last move", nil, func(r *eval.Request) { r.History[4] = other }, false},
		{"last move", nil, func(r *eval.Request) { r.History[7] = other }, false},
		{"repetitions 1 and 2", nil, func(r *eval.Request) { r.Repetitions = 2 }, false},
		{"repetitions 3 and 5", func(r *eval.Request) { r.Repetitions = 3 }, func(r *eval.Request) { r.Repetitions = 5 }, true},
		{"plies 0 and 30", atPly(0), atPly(30), false},
		{"plies 30 and 31", atPly(30), atPly(31), false},
		{"plies past MaxPlies", atPly(maxPlies + 3), atPly(maxPlies + 9), true},
		{"moves asked", nil, func(r *eval.Request) { r.Moves = r.Moves[1:]; r.Priors = r.Priors[1:] }, false},
	}
	specCache := NewSpecCache(Uniform{}, 100, spec)
	fullCache := NewCache(Uniform{}, 100)
	for _, tt := range tests {
		a, b := &eval.Request{}, &eval.Request{}
		a.Set(g, g.LegalMoves())
		b.Set(g, g.LegalMoves())
		if tt.a != nil {
			tt.a(a)
		}
		tt.b(b)
		if got := specCache.key(a) == specCache.key(b); got != tt.shared {
			t.Errorf("%s: same key %v, want %v", tt.name, got, tt.shared)
		}
		wantFull := tt.shared && tt.name != "5th to 8th last move" // NewCache keys on all 8
		if got := fullCache.key(a) == fullCache.key(b); got != wantFull {
			t.Errorf("%s, NewCache: same key %v, want %v", tt.name, got, wantFull)
		}
	}
}

// TestSpecCacheHits: a request that differs from a cached one only in
// moves the network does not read is answered from the cache.
func TestSpecCacheHits(t *testing.T) {
	spec := encode.MustSpec(rules.Chu, encode.DefaultOptions())
	c := NewSpecCache(Random{Seed: 1}, 1000, spec)
	g := game(t, rules.Chu, "")
	for i := 0; i < 9; i++ {
		g.Play(g.LegalMoves()[(i*5)%len(g.LegalMoves())])
	}
	a, b := &eval.Request{}, &eval.Request{}
	a.Set(g, g.LegalMoves())
	b.Set(g, g.LegalMoves())
	b.History[0], b.History[3] = b.History[3], b.History[0]
	b.History[1] = rules.NoMove
	ctx := context.Background()
	if err := c.Evaluate(ctx, []*eval.Request{a}); err != nil {
		t.Fatal(err)
	}
	if err := c.Evaluate(ctx, []*eval.Request{b}); err != nil {
		t.Fatal(err)
	}
	if h, m := c.Counts(); h != 1 || m != 1 {
		t.Errorf("hits %d, misses %d; want 1, 1", h, m)
	}
	if b.WDL != a.WDL {
		t.Errorf("the hit answered %v, the evaluation %v", b.WDL, a.WDL)
	}
}

// TestCacheWith: evaluators made by With share the cache's entries and
// counts but not their answers: each salt is a key space of its own.
func TestCacheWith(t *testing.T) {
	spec := encode.MustSpec(rules.Sho, encode.DefaultOptions())
	c := NewSpecCache(Uniform{}, 1000, spec)
	a, b := c.With(Random{Seed: 1}, 1), c.With(Random{Seed: 2}, 2)
	g := game(t, rules.Sho, "")
	ask := func(e Evaluator) [3]float32 {
		req := &eval.Request{}
		req.Set(g, g.LegalMoves())
		if err := e.Evaluate(context.Background(), []*eval.Request{req}); err != nil {
			t.Fatal(err)
		}
		return req.WDL
	}
	wa, wb := ask(a), ask(b)
	if wa == wb {
		t.Fatal("two salts share an answer")
	}
	if again := ask(a); again != wa {
		t.Error("a salted evaluator does not answer from its own entries")
	}
	if h, m := c.Counts(); h != 1 || m != 2 {
		t.Errorf("hits %d, misses %d; want 1, 2", h, m)
	}
}

// TestCacheKeepsOutputs: a hit returns every output of the evaluator's
// answer: the value, the material forecast and the residual weight.
func TestCacheKeepsOutputs(t *testing.T) {
	g := game(t, rules.Sho, "")
	c := NewCache(residualEval{wdl: [3]float32{0.5, 0.25, 0.25}, r: 0.75}, 10)
	for i := 0; i < 2; i++ {
		req := &eval.Request{}
		req.Set(g, g.LegalMoves())
		if err := c.Evaluate(context.Background(), []*eval.Request{req}); err != nil {
			t.Fatal(err)
		}
		if req.WDL != [3]float32{0.5, 0.25, 0.25} || req.Residual != 0.75 {
			t.Fatalf("evaluation %d: WDL %v, residual %v", i, req.WDL, req.Residual)
		}
	}
	if h, _ := c.Counts(); h != 1 {
		t.Fatalf("%d hits, want 1", h)
	}
}
