package report

import (
	"chuzero/checkpoints"
	"chuzero/selfplay/arena"
	"fmt"
	"strings"
	"time"
)

// Summary is what Generate found in a run directory and what it wrote.
type Summary struct {
	RunDir, OutDir string
	Variant        string   // from config.json, else from the first game record
	Files          []string // the files written, OutDir joined with their names: the plots, then index.html

	Start, End time.Time // earliest and latest timestamp among logs and games (zero: none)
	Hours      float64   // End - Start in hours

	// Self-play games (games/*.jsonl).
	GameFiles      int
	Games          int
	Plies          int64 // positions played, over all games
	SenteWins      int
	GoteWins       int
	Draws          int
	Resignations   int // games that ended by resignation
	NoResignGames  int // games in which resigning was forbidden
	ResignChecked  int // of those, games in which a side would have resigned
	FalsePositives int // of those, games the would-be resigner did not lose
	Undated        int // games without a start time (counted, not plotted)

	ResignThreshold *float64 // from config.json (nil: unknown); the records do not carry it

	// Logs.
	TrainEntries int
	LastTrain    *checkpoints.TrainEntry  // the latest training report (nil: none)
	Evals        int                      // evaluation matches
	LatestElo    []checkpoints.EvalEntry  // the latest match against each opponent, by opponent name
	Gatings      int                      // gating decisions
	Promotions   int                      // of those, candidates promoted
	LastGating   *checkpoints.GatingEntry // nil: none

	// Damaged input: lines skipped. A bad last line of a file (a crash
	// mid-write) is only counted in Truncated; any other bad line is
	// also a warning naming the file and line.
	Truncated    int
	SkippedLines int
	Warnings     []string // the first 20 warnings
	WarningCount int      // all warnings
}

// MeanPlies is the mean game length in plies (0 without games).
func (s *Summary) MeanPlies() float64 {
	if s.Games == 0 {
		return 0
	}
	return float64(s.Plies) / float64(s.Games)
}

// FalsePositiveRate is FalsePositives/ResignChecked (0 without checks).
func (s *Summary) FalsePositiveRate() float64 {
	if s.ResignChecked == 0 {
		return 0
	}
	return float64(s.FalsePositives) / float64(s.ResignChecked)
}

// String is a one-paragraph summary of the run.
func (s *Summary) String() string {
	var b strings.Builder
	variant := s.Variant
	if variant == "" {
		variant = "variant unknown"
	}
	fmt.Fprintf(&b, "Run %s (%s): %.2f hours, %d games in %d files (%d plies, %.1f per game; Sente %d, Gote %d, draws %d; %d resigned)",
		s.RunDir, variant, s.Hours, s.Games, s.GameFiles, s.Plies, s.MeanPlies(), s.SenteWins, s.GoteWins, s.Draws, s.Resignations)
	if s.ResignChecked > 0 {
		fmt.Fprintf(&b, "; resignation false positives %d of %d (%.1f%%)", s.FalsePositives, s.ResignChecked, 100*s.FalsePositiveRate())
	}
	if t := s.LastTrain; t != nil {
		fmt.Fprintf(&b, "; training at step %d, loss %.4g (policy %.4g, value %.4g, L2 %.4g)", t.Step, t.Loss, t.PolicyLoss, t.ValueLoss, t.L2Loss)
	} else {
		b.WriteString("; no training steps logged")
	}
	if len(s.LatestElo) > 0 {
		b.WriteString("; latest Elo:")
		for i, e := range s.LatestElo {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " %s at step %d vs %s", arena.FormatElo(e.Elo), e.Step, e.Opponent)
		}
	}
	fmt.Fprintf(&b, "; %d gating decisions, %d promoted.", s.Gatings, s.Promotions)
	if s.WarningCount > 0 {
		fmt.Fprintf(&b, " %d warnings about damaged input (skipped).", s.WarningCount)
	}
	return b.String()
}
