package web

import (
	"fmt"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// processFields reads the serving process's chuzero_* metrics: a counter
// summed over its labels, a histogram as its count and mean, and each
// gauge of a family on its own ("train_loss{head=policy}").
func processFields(g prometheus.Gatherer) []Field {
	families, err := g.Gather()
	if err != nil && len(families) == 0 {
		return []Field{{"error", "metrics", err.Error()}}
	}
	var out []Field
	for _, mf := range families {
		name := mf.GetName()
		if !strings.HasPrefix(name, "chuzero_") || name == "chuzero_build_info" {
			continue
		}
		label := strings.TrimPrefix(name, "chuzero_")
		var sum, count float64
		switch mf.GetType() {
		case dto.MetricType_GAUGE:
			for _, m := range mf.GetMetric() {
				key := label + labels(m)
				out = append(out, Field{"chuzero_" + key, key, fmt.Sprintf("%.6g", m.GetGauge().GetValue())})
			}
			continue
		case dto.MetricType_HISTOGRAM:
			for _, m := range mf.GetMetric() {
				sum += m.GetHistogram().GetSampleSum()
				count += float64(m.GetHistogram().GetSampleCount())
			}
			mean := 0.0
			if count > 0 {
				mean = sum / count
			}
			out = append(out, Field{name, label, fmt.Sprintf("%.0f, mean %.4g", count, mean)})
			continue
		}
		for _, m := range mf.GetMetric() {
			sum += m.GetCounter().GetValue() + m.GetUntyped().GetValue()
		}
		out = append(out, Field{name, label, fmt.Sprintf("%.6g", sum)})
	}
	return out
}

// labels writes a metric's labels as {a=x,b=y} ("" without any).
func labels(m *dto.Metric) string {
	if len(m.GetLabel()) == 0 {
		return ""
	}
	var parts []string
	for _, l := range m.GetLabel() {
		parts = append(parts, l.GetName()+"="+l.GetValue())
	}
	return "{" + strings.Join(parts, ",") + "}"
}
