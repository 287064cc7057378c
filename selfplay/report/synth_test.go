package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"chuzero/checkpoints"
	"chuzero/selfplay"
)

// synthRun describes a synthetic run directory and what it should count.
type synthRun struct {
	games, files, plies int
	falsePositives      int
	checked             int
	lastStep            int64
	gatings             int
}

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// writeSynthRun writes a run of the given length into dir: config.json,
// the three logs, and games files of 8 records each whose last file ends
// in a cut line (a crash mid-write).
func writeSynthRun(t *testing.T, dir string, span time.Duration, games int) synthRun {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	var want synthRun
	must := fatalIf(t)
	must(os.WriteFile(filepath.Join(dir, "config.json"),
		[]byte(`{"variant": "chu", "seed": 1, "selfplay": {"resign_threshold": -0.9, "no_resign_fraction": 0.1}}`+"\n"), 0o644))
	want.lastStep = writeSynthLogs(t, dir, span, r)
	want.gatings = 5
	writeSynthGames(t, dir, span, games, r, &want)
	return want
}

// writeSynthLogs writes the train, eval and gating logs of a run of the
// given span (200 training reports, 6 evaluations of 3 opponents, 5
// gating decisions) and returns the last training step.
func writeSynthLogs(t *testing.T, dir string, span time.Duration, r *rand.Rand) (lastStep int64) {
	t.Helper()
	must := fatalIf(t)
	train := checkpoints.Run{Dir: dir}.Appender(checkpoints.TrainLog)
	const reports = 200
	for i := 0; i < reports; i++ {
		f := float64(i) / reports
		e := checkpoints.TrainEntry{
			Time:       t0.Add(time.Duration(f * float64(span))),
			Step:       int64(10 * i),
			PolicyLoss: 6*math.Exp(-2*f) + 0.3*r.Float64(),
			ValueLoss:  0.9 - 0.4*f + 0.1*r.Float64(),
			L2Loss:     0.05 + 0.01*f,
			LR:         0.02,
			GradNorm:   1 + r.Float64(),
			Samples:    int64(1000 * i),
			Window:     250000,
		}
		e.Loss = e.PolicyLoss + e.ValueLoss + e.L2Loss
		e.SamplesSeen = 256 * e.Step
		must(train.Append(e))
		lastStep = e.Step
	}

	eval := checkpoints.Run{Dir: dir}.Appender(checkpoints.EvalLog)
	for i := 1; i <= 6; i++ {
		at := t0.Add(time.Duration(i) * span / 6)
		for j, opp := range []string{"first", "greedy", "hachu-d1"} {
			elo := float64(60*i - 150*j)
			e := checkpoints.EvalEntry{Time: at, Step: int64(300 * i), Checkpoint: fmt.Sprintf("step-%06d", 300*i), Opponent: opp,
				Games: 40, Wins: 20 + i, Draws: 5, Losses: 15 - i, Elo: elo, EloLow: elo - 80, EloHigh: elo + 80}
			if opp == "greedy" && i == 6 { // a clean sweep: the logger's stand-in for +inf
				e.Wins, e.Draws, e.Losses = 40, 0, 0
				e.Elo, e.EloLow, e.EloHigh = math.MaxFloat64, 400, math.MaxFloat64
			}
			must(eval.Append(e))
		}
	}

	gating := checkpoints.Run{Dir: dir}.Appender(checkpoints.GatingLog)
	for i := 1; i <= 5; i++ {
		promoted := i%2 == 1
		dec := "reject"
		if promoted {
			dec = "accept"
		}
		must(gating.Append(checkpoints.GatingEntry{Time: t0.Add(time.Duration(i) * span / 5), Candidate: fmt.Sprintf("step-%06d", 400*i),
			Best: "step-000000", Games: 100, Wins: 50 + i, Draws: 10, Losses: 40 - i, LLR: 1.5 * float64(i%3-1), Decision: dec, Promoted: promoted}))
	}
	return lastStep
}

// writeSynthGames writes the games files of a run (8 records each, the
// last cut mid-line) and counts them into want.
func writeSynthGames(t *testing.T, dir string, span time.Duration, games int, r *rand.Rand, want *synthRun) {
	t.Helper()
	must := fatalIf(t)
	gamesDir := filepath.Join(dir, checkpoints.GamesDir)
	must(os.MkdirAll(gamesDir, 0o755))
	var buf bytes.Buffer
	flush := func() {
		if buf.Len() == 0 {
			return
		}
		must(os.WriteFile(filepath.Join(gamesDir, fmt.Sprintf("games-%05d.jsonl", want.files)), buf.Bytes(), 0o644))
		want.files++
		buf.Reset()
	}
	for i := 0; i < games; i++ {
		rec := synthRecord(r, i, games, span, want)
		b, err := json.Marshal(rec)
		must(err)
		buf.Write(append(b, '\n'))
		want.games++
		want.plies += rec.Plies
		if buf.Len() > 0 && (i+1)%8 == 0 {
			flush()
		}
	}
	buf.WriteString(`{"id":"00ff","index":99999,"variant":"chu","moves":["f3f5","g1`) // cut by a crash
	flush()
	// an atomic writer's leftover temporary file is not a games file
	must(os.WriteFile(filepath.Join(gamesDir, ".games-99999.jsonl.tmp-123"), []byte("{"), 0o644))
}

// synthRecord is game i of a synthetic run: longer as the run goes on, a
// tenth of them with resignation off, most of those checked against a
// would-be resignation (counted into want).
func synthRecord(r *rand.Rand, i, games int, span time.Duration, want *synthRun) selfplay.Record {
	plies := 80 + r.IntN(200) + 100*i/games // games get longer as the net learns
	rec := selfplay.Record{
		ID: fmt.Sprintf("%016x", r.Uint64()), Index: uint64(i), Seed: r.Uint64(), Variant: "chu", Rules: "chu",
		Start:     "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1",
		Plies:     plies,
		Evaluator: "step-000300",
		Started:   t0.Add(time.Duration(float64(i) / float64(games) * float64(span))),
		Seconds:   20 + 10*r.Float64(),
	}
	for p := 0; p < plies; p++ {
		rec.Moves = append(rec.Moves, "f3f5")
		rec.Values = append(rec.Values, float32(r.Float64()*2-1))
		rec.Visits = append(rec.Visits, 32)
		rec.Full = append(rec.Full, p%4 == 0)
	}
	rec.Simulations = 32 * plies
	switch r.IntN(10) {
	case 0:
		rec.Result, rec.Reason = "1/2-1/2", "repetition"
	case 1, 2, 3, 4, 5:
		rec.Result, rec.Winner, rec.Reason = "1-0", "sente", "checkmate"
	default:
		rec.Result, rec.Winner, rec.Reason = "0-1", "gote", "checkmate"
	}
	rec.ResignAllowed = i%10 != 0
	if rec.ResignAllowed && r.IntN(3) == 0 {
		rec.Reason = "resignation"
	}
	if !rec.ResignAllowed && i%30 != 0 {
		side := "sente" // mostly the loser: a threshold that works
		if (rec.Winner == "sente") != (r.IntN(8) == 0) {
			side = "gote"
		}
		rec.WouldResign = &selfplay.WouldResign{Side: side, Ply: plies / 2}
		want.checked++
		if rec.FalsePositive() {
			want.falsePositives++
		}
	}
	return rec
}

// fatalIf returns a function that fails t at once on a non-nil error.
func fatalIf(t *testing.T) func(error) {
	return func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
}
