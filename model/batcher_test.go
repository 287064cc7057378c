package model

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"

	"chuzero/encode"
	"chuzero/mcts/eval"
	"chuzero/rules"
)

// TestBatcherMatchesDirect: requests from many goroutines, batched, get
// exactly the priors and values of a direct evaluation, and the batch
// fill is recorded.
func TestBatcherMatchesDirect(t *testing.T) {
	spec := encode.MustSpec(rules.Chu, encode.DefaultOptions())
	w := tinyWeights(t, spec, 3)
	randomize(w, 4)
	net := NewNet(w)
	b, err := NewBatcher(net, BatcherConfig{MaxBatch: 8, MaxWait: time.Millisecond, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- b.Run(ctx) }()
	r := rules.MustNew(rules.DefaultConfig(rules.Chu))
	var wg sync.WaitGroup
	for gi := 0; gi < 12; gi++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := rules.NewGame(r.StartPosition())
			ws := net.NewWorkspace(1)
			planes := make([]float32, spec.PlaneSize())
			for ply := 0; ply < 6+gi; ply++ {
				reqs := []*eval.Request{{}, {}}
				reqs[0].Set(g, g.LegalMoves())
				reqs[1].Set(g, g.LegalMoves()[:1])
				if err := b.Evaluate(context.Background(), reqs); err != nil {
					t.Error(err)
					return
				}
				// direct evaluation of the same position
				st := reqs[0].State()
				spec.Encode(&st, planes)
				net.Forward(ws, planes, 1)
				legal, _ := spec.LegalIndices(g.Position(), g.LegalMoves(), nil)
				want := make([]float32, len(legal))
				net.Priors(ws, 0, legal, want)
				sum := float32(0)
				for i := range want {
					if d := math.Abs(float64(want[i] - reqs[0].Priors[i])); d > 1e-5 {
						t.Errorf("prior %d: batched %v, direct %v", i, reqs[0].Priors[i], want[i])
					}
					sum += reqs[0].Priors[i]
				}
				wdl := net.WDL(ws, 0)
				var dw float64
				for k := range wdl {
					dw = max(dw, math.Abs(float64(wdl[k]-reqs[0].WDL[k])))
				}
				// a batch may round differently from a single position (GEMM blocking)
				if d := math.Abs(float64(ws.Material[1] - reqs[0].Material)); d > 1e-5 || reqs[0].Material == 0 {
					t.Errorf("material forecast: batched %v, direct %v", reqs[0].Material, ws.Material[1])
				}
				if math.Abs(float64(sum)-1) > 1e-4 || dw > 1e-5 || reqs[1].Priors[0] != 1 {
					t.Errorf("priors sum %v, WDL %v vs %v, single-move prior %v", sum, reqs[0].WDL, net.WDL(ws, 0), reqs[1].Priors[0])
				}
				g.Play(g.LegalMoves()[(ply*7)%len(g.LegalMoves())])
			}
		}()
	}
	wg.Wait()
	st := b.Stats()
	if st.Positions == 0 || st.Fill() <= 0 || st.Fill() > 1 {
		t.Errorf("stats %+v, fill %v", st, st.Fill())
	}
	t.Logf("%d batches, %d positions, fill %.2f", st.Batches, st.Positions, st.Fill())
	// swapping the network takes effect for new requests
	w2 := tinyWeights(t, spec, 9)
	if err := b.SetNet(NewNet(w2)); err != nil {
		t.Fatal(err)
	}
	cancel()
	<-done
	req := &eval.Request{}
	g := rules.NewGame(r.StartPosition())
	req.Set(g, g.LegalMoves())
	if err := b.Evaluate(context.Background(), []*eval.Request{req}); err != ErrClosed {
		t.Errorf("Evaluate after Run returned: %v, want ErrClosed", err)
	}
}
