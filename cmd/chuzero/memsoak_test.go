package main

import (
	"runtime"
	"testing"

	"chuzero/encode"
	cmodel "chuzero/model"
	"chuzero/rules"
)

// TestNetworkSwitchesFreeMemory switches self-play to a new network 50
// times, as a long run does at every checkpoint, while games in flight
// keep the evaluators of the old networks (as they do until they end),
// and checks that the heap stays bounded: the networks share one
// evaluation cache (about 3 MB here) instead of one each.
func TestNetworkSwitchesFreeMemory(t *testing.T) {
	cfg := DefaultRunConfig(rules.Sho)
	cfg.Model.Preset = "tiny"
	cfg.Self.Cache = 50000
	mc, err := cfg.modelConfig()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := encode.NewSpec(rules.Sho, encode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := cmodel.NewWeights(mc, spec, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, m := newRegistry()
	s, err := newSelfPlayer(cfg, t.TempDir(), cmodel.NewNet(w), "n0", 0, m, nil, slogDiscard())
	if err != nil {
		t.Fatal(err)
	}
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	var at10 uint64
	var inFlight []any // what games started under the old networks hold
	for i := int64(1); i <= 50; i++ {
		net := cmodel.NewNet(w)
		if err := s.use(net, "n", i); err != nil {
			t.Fatal(err)
		}
		inFlight = append(inFlight, s.evaluator(net))
		if i == 10 {
			at10 = heap()
		}
	}
	at50 := heap()
	runtime.KeepAlive(s) // the self-player and its metrics live on in a run
	runtime.KeepAlive(m)
	runtime.KeepAlive(inFlight)
	const bound = 24 << 20 // far below 40 more caches
	if at50 > at10+bound {
		t.Fatalf("heap grew from %d MB after 10 switches to %d MB after 50: each network has a cache of its own",
			at10>>20, at50>>20)
	}
	t.Logf("heap after 10 switches %d MB, after 50 %d MB", at10>>20, at50>>20)
}
