package training

import (
	"log/slog"
	"time"

	"chuzero/checkpoints"
	"chuzero/model"
)

// trainLog appends the trainer's reports to logs/train.jsonl: every 10th
// step, and at least every 30 seconds while steps are taken.
type trainLog struct {
	app  *checkpoints.Appender
	last time.Time
}

func newTrainLog(run checkpoints.Run) *trainLog {
	return &trainLog{app: run.Appender(checkpoints.TrainLog)}
}

func (t *trainLog) step(i model.StepInfo, log *slog.Logger) {
	if i.Waiting || i.Skipped || i.Stats.Skipped {
		return
	}
	if i.Step%10 != 0 && time.Since(t.last) < 30*time.Second {
		return
	}
	t.last = time.Now()
	s := i.Stats
	e := checkpoints.TrainEntry{Time: t.last.UTC(), Step: i.Step, PolicyLoss: s.PolicyLoss, ValueLoss: s.ValueLoss, L2Loss: s.L2Loss,
		Loss: s.Loss, LR: i.LR, GradNorm: s.GradNorm, Samples: i.Samples, SamplesSeen: i.SamplesSeen, Window: i.Window,
		Games: i.Games, ReplyLoss: s.ReplyLoss, MaterialLoss: s.MaterialLoss, OwnershipLoss: s.OwnershipLoss,
		ShortValueLoss: s.ShortValueLoss, ValueQ: i.ValueQ, Reanalysed: i.Reanalyse.Reanalysed}
	if h := i.HeldOut; h != nil {
		e.HeldOutPolicy, e.HeldOutValue = h.PolicyLoss, h.ValueLoss
	}
	if err := t.app.Append(e); err != nil {
		log.Warn("writing the training log failed", "err", err)
	}
}
