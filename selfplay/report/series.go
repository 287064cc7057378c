package report

import (
	"math"
	"sort"
	"time"
)

// binWidths are the widths a time bin may have: round numbers, so that
// "games per 10 minutes" reads as such.
var binWidths = []time.Duration{
	time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
	time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
	time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour,
	24 * time.Hour, 2 * 24 * time.Hour, 7 * 24 * time.Hour, 14 * 24 * time.Hour, 28 * 24 * time.Hour,
}

// binWidth returns the narrowest round width that cuts span into at most
// target bins.
func binWidth(span time.Duration, target int) time.Duration {
	t := time.Duration(max(1, target))
	need := span / t
	if span%t != 0 {
		need++
	}
	for _, w := range binWidths {
		if w >= need {
			return w
		}
	}
	w := binWidths[len(binWidths)-1]
	for w < need && w < math.MaxInt64/2 {
		w *= 2
	}
	return w
}

// bin is the games that finished in [start, start+width) of the run,
// counted from the run's start.
type bin struct {
	start   time.Duration // since the run's start
	covered time.Duration // the part of the bin inside the run (less than the width only for the last)
	games   []gamePoint
}

// binGames cuts [start, end] into bins of width w and puts each game
// (sorted by end) into its bin. Every bin up to the run's end is
// returned, empty or not.
func binGames(games []gamePoint, start, end time.Time, w time.Duration) []bin {
	span := end.Sub(start)
	if span < 0 || w <= 0 {
		return nil
	}
	n := int(span/w) + 1
	if span > 0 && span%w == 0 {
		n-- // a game at the very end belongs to the last full bin
	}
	bins := make([]bin, n)
	for i := range bins {
		bins[i].start = time.Duration(i) * w
		bins[i].covered = min(w, span-bins[i].start)
	}
	s := start.UnixNano()
	lo := 0
	for i := range bins {
		hi := lo
		limit := s + int64(bins[i].start+w)
		for hi < len(games) && (games[hi].end < limit || i == n-1) {
			hi++
		}
		bins[i].games = games[lo:hi]
		lo = hi
	}
	return bins
}

// movingAverage returns the centred moving average of ys over k points
// (k odd); near the ends the window shrinks to the points there are.
func movingAverage(ys []float64, k int) []float64 {
	if k <= 1 {
		return append([]float64(nil), ys...)
	}
	h := k / 2
	out := make([]float64, len(ys))
	for i := range ys {
		lo, hi := max(0, i-h), min(len(ys), i+h+1)
		var s float64
		for _, y := range ys[lo:hi] {
			s += y
		}
		out[i] = s / float64(hi-lo)
	}
	return out
}

// smoothWindow returns the moving-average window for n points: k if
// given, else about n/25, and always odd.
func smoothWindow(n, k int) int {
	if k <= 0 {
		k = n / 25
	}
	k = max(1, k)
	if k%2 == 0 {
		k++
	}
	return k
}

// quantile returns the q-quantile of sorted xs (linear interpolation
// between order statistics).
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(sorted)-1)
	i := int(pos)
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	f := pos - float64(i)
	return sorted[i]*(1-f) + sorted[i+1]*f
}

// lengthStats returns the mean and the 10th and 90th percentiles of the
// game lengths in plies.
func lengthStats(games []gamePoint) (mean, p10, p90 float64) {
	xs := make([]float64, len(games))
	for i, g := range games {
		xs[i] = float64(g.plies)
		mean += xs[i]
	}
	sort.Float64s(xs)
	return mean / float64(len(xs)), quantile(xs, 0.1), quantile(xs, 0.9)
}

// wilson returns the 95% Wilson score interval of k successes in n
// trials (n > 0).
func wilson(k, n int) (lo, hi float64) {
	const z = 1.959963984540054
	p := float64(k) / float64(n)
	nf := float64(n)
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return max(0, c-h), min(1, c+h)
}

// finite reports whether x is a number other than ±Inf.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
