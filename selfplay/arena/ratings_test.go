package arena

import (
	"math"
	"math/rand/v2"
	"testing"
)

// roundRobin simulates games games between each two of the players rated
// elos, with draw rate draw, and returns the results keyed (i, j), i < j.
func roundRobin(elos []float64, games int, draw float64, rng *rand.Rand) map[[2]int]Score {
	res := map[[2]int]Score{}
	for i := range elos {
		for j := i + 1; j < len(elos); j++ {
			g := newGame(elos[i]-elos[j], draw)
			var s Score
			for range games {
				s = s.record(g.play(rng))
			}
			res[[2]int{i, j}] = s
		}
	}
	return res
}

func TestRatingsRecoversStrengths(t *testing.T) {
	elos := []float64{0, 100, 250}
	res := roundRobin(elos, 1500, 0.3, rand.New(rand.NewPCG(5, 6)))
	rs, err := Ratings(len(elos), res, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rs {
		if r.Player != i || r.Games != 3000 {
			t.Errorf("rating %d = %+v, want player %d with 3000 games", i, r, i)
		}
		if !(r.Low <= elos[i] && elos[i] <= r.High) {
			t.Errorf("player %d: true Elo %v outside [%.1f, %.1f] (estimate %.1f)", i, elos[i], r.Low, r.High, r.Elo)
		}
		if i > 0 && r.High-r.Low > 60 {
			t.Errorf("player %d: interval [%.1f, %.1f] wider than 60 Elo", i, r.Low, r.High)
		}
	}
	if r := rs[0]; r.Elo != 0 || r.Low != 0 || r.High != 0 {
		t.Errorf("anchor rating = %+v, want 0 in [0, 0]", r)
	}
	points := 0.0
	for _, r := range rs {
		points += r.Points
	}
	if points != 3*1500 {
		t.Errorf("points add up to %v, want %v", points, 3*1500)
	}

	// Anchored on the mean, the differences stay and the mean is 0.
	mean, err := Ratings(len(elos), res, -1)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for i, r := range mean {
		sum += r.Elo
		if d := r.Elo - mean[0].Elo; !near(d, rs[i].Elo, 1e-6) {
			t.Errorf("player %d: %v above player 0 with the mean anchor, %v with anchor 0", i, d, rs[i].Elo)
		}
		if !(r.High-r.Low > 0) {
			t.Errorf("player %d: empty interval [%v, %v] with the mean anchor", i, r.Low, r.High)
		}
	}
	if !near(sum, 0, 1e-6) {
		t.Errorf("ratings anchored on the mean sum to %v, want 0", sum)
	}

	// The same games keyed the other way round give the same ratings.
	flipped := map[[2]int]Score{}
	for k, s := range res {
		flipped[[2]int{k[1], k[0]}] = s.Flip()
	}
	again, err := Ratings(len(elos), flipped, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rs {
		if !near(again[i].Elo, rs[i].Elo, 1e-9) || !near(again[i].High, rs[i].High, 1e-9) {
			t.Errorf("player %d: %+v with flipped keys, %+v before", i, again[i], rs[i])
		}
	}
}

// TestRatingsCoverage repeats a smaller round robin and checks that the
// intervals hold the true differences at least about 95% of the time (they
// are conservative when there are draws).
func TestRatingsCoverage(t *testing.T) {
	elos := []float64{0, -80, 150}
	const runs = 200
	rng := rand.New(rand.NewPCG(7, 8))
	covered, total := 0, 0
	for range runs {
		rs, err := Ratings(len(elos), roundRobin(elos, 100, 0.3, rng), 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(elos); i++ {
			total++
			if rs[i].Low <= elos[i] && elos[i] <= rs[i].High {
				covered++
			}
		}
	}
	if rate := float64(covered) / float64(total); rate < 0.92 {
		t.Errorf("Ratings intervals covered the truth in %.3f of cases, want at least about 0.95", rate)
	}
}

// TestRatingsTwoPlayers compares Ratings with the head-to-head EloInterval:
// without draws the Bradley–Terry information is the binomial one, so
// estimate and width agree up to the prior's small pull.
func TestRatingsTwoPlayers(t *testing.T) {
	s := Score{Wins: 600, Losses: 400}
	rs, err := Ratings(2, map[[2]int]Score{{1, 0}: s}, 0)
	if err != nil {
		t.Fatal(err)
	}
	elo, low, high := EloInterval(s)
	r := rs[1]
	if !near(r.Elo, elo, 0.5) {
		t.Errorf("Ratings Elo = %v, want about %v", r.Elo, elo)
	}
	if w, want := r.High-r.Low, high-low; math.Abs(w-want) > 0.02*want {
		t.Errorf("Ratings interval width = %v, want about %v", w, want)
	}
}

func TestRatingsPerfectScores(t *testing.T) {
	res := map[[2]int]Score{
		{0, 1}: {Wins: 50},
		{2, 0}: {Losses: 50},
		{1, 2}: {Wins: 20, Draws: 20, Losses: 10},
	}
	// Player 3 has not played.
	rs, err := Ratings(4, res, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		for _, x := range []float64{r.Elo, r.Low, r.High} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("rating %+v is not finite", r)
			}
		}
	}
	if r := rs[0]; !(r.Elo > 200 && r.Low > rs[2].Elo) {
		t.Errorf("all-wins player rated %+v, want well above the others (%+v, %+v)", r, rs[1], rs[2])
	}
	if r := rs[3]; r.Games != 0 || !(r.High-r.Low > 500) {
		t.Errorf("player without games rated %+v, want a wide interval", r)
	}
}

func TestRatingsErrors(t *testing.T) {
	good := map[[2]int]Score{{0, 1}: {Wins: 1}}
	tests := []struct {
		name    string
		n       int
		results map[[2]int]Score
		anchor  int
	}{
		{"one player", 1, nil, 0},
		{"no players", 0, nil, -1},
		{"anchor out of range", 2, good, 2},
		{"player out of range", 3, map[[2]int]Score{{0, 3}: {Wins: 1}}, 0},
		{"negative player", 3, map[[2]int]Score{{-1, 0}: {Wins: 1}}, 0},
		{"against itself", 3, map[[2]int]Score{{1, 1}: {Wins: 1}}, 0},
		{"negative count", 3, map[[2]int]Score{{0, 1}: {Wins: -1}}, 0},
	}
	for _, tt := range tests {
		if _, err := Ratings(tt.n, tt.results, tt.anchor); err == nil {
			t.Errorf("Ratings(%s) succeeded, want an error", tt.name)
		}
	}
	if _, err := Ratings(2, good, -1); err != nil {
		t.Errorf("Ratings with the mean anchor: %v", err)
	}
}
