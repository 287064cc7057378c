package model

import (
	"fmt"
	"testing"

	"chuzero/encode"
	"chuzero/rules"
)

// Benchmarks report positions/s; profile them with
//
//	go test ./model -run '^$' -bench Infer/small -cpuprofile cpu.out
//
// and add -tags openblas for the OpenBLAS build.

func BenchmarkInfer(b *testing.B) {
	for _, preset := range []string{"tiny", "small"} {
		for _, batch := range []int{1, 8, 32} {
			b.Run(fmt.Sprintf("%s/batch%d", preset, batch), func(b *testing.B) {
				spec := encode.MustSpec(rules.Chu, encode.DefaultOptions())
				w, _ := NewWeights(Presets[preset], spec, 1)
				bt, _ := RandomBatch(spec, batch, 1)
				net := NewNet(w)
				ws := net.NewWorkspace(batch)
				net.Forward(ws, bt.Planes, batch)
				b.ReportAllocs()
				n := 0
				for b.Loop() {
					net.Forward(ws, bt.Planes, batch)
					n += batch
				}
				b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "positions/s")
				b.ReportMetric(float64(n)*Presets[preset].ForwardFLOPs(spec)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

func BenchmarkTrainStep(b *testing.B) {
	for _, c := range []struct {
		preset string
		batch  int
	}{{"tiny", 64}, {"small", 64}} {
		b.Run(fmt.Sprintf("%s/batch%d", c.preset, c.batch), func(b *testing.B) {
			spec := encode.MustSpec(rules.Chu, encode.DefaultOptions())
			w, _ := NewWeights(Presets[c.preset], spec, 1)
			bt, _ := RandomBatch(spec, c.batch, 1)
			cfg := DefaultTrainConfig()
			cfg.Batch = c.batch
			tr, err := NewTrainer(w, cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer tr.Close()
			tr.Step(bt, 1e-4)
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				if _, err := tr.Step(bt, 1e-4); err != nil {
					b.Fatal(err)
				}
				n += c.batch
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "positions/s")
			b.ReportMetric(3*float64(n)*Presets[c.preset].ForwardFLOPs(spec)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
