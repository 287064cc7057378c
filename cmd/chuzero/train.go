package main

import (
	"fmt"
	"io"
	"time"

	"chuzero/model"
	"chuzero/selfplay/training"
)

func init() {
	register(command{name: "train", summary: "the training job: self-play and training in one process", run: runTrain})
}

// runTrain implements "chuzero train -variant chu -run DIR": self-play
// workers and the trainer, concurrently, on the run directory; it resumes
// whatever the directory holds (run.Train).
func runTrain(args []string, stdout, stderr io.Writer) int {
	start := time.Now()
	j := newJob("train", "train [-variant chu] [-run DIR] [-config FILE] [-duration D] [-max-steps N] [flags]", true, true, stdout, stderr)
	maxSteps := j.fs.Int64("max-steps", 0, "stop, cleanly with exit status 0, once training reaches this step (0: no limit)")
	if code, done := j.open(args, maxSteps); done {
		return code
	}
	defer j.close()
	cfg := j.cfg
	j.log.Info("training run", "dir", j.run.Dir, "variant", cfg.Variant, "model", cfg.Model.Preset, "blas", model.BLAS,
		"selfplay_games", cfg.Self.Games, "train_threads", cfg.Train.Threads, "selfplay_threads", cfg.Self.Threads)
	t, err := training.NewTrain(j.options())
	if err != nil {
		return j.fail(err)
	}
	defer t.Close()
	if err := j.serve(); err != nil {
		return j.fail(err)
	}
	j.startProgress(j.ctx)
	err = t.Run(j.ctx, *maxSteps)
	j.stopProgress()
	if err != nil {
		return j.fail(err)
	}
	st := t.Stats()
	wall := time.Since(start)
	cpu := cpuTime()
	j.log.Info("stopped", "step", t.Step(), "games", st.Games, "positions", st.Positions,
		"wall_seconds", int64(wall.Seconds()), "cpu_seconds", int64(cpu.Seconds()))
	fmt.Fprintf(stdout, "stopped at step %d; %d games, %d positions this session; %s\n",
		t.Step(), st.Games, st.Positions, cpuShare(cpu, wall))
	return 0
}

// cpuShare says how much CPU time the session used in its wall time, as
// "CPU 6669 s in 3600 s (185 % of one core)", or "CPU time unknown".
func cpuShare(cpu, wall time.Duration) string {
	if cpu <= 0 || wall <= 0 {
		return "CPU time unknown"
	}
	return fmt.Sprintf("CPU %.0f s in %.0f s (%.0f %% of one core)", cpu.Seconds(), wall.Seconds(), 100*cpu.Seconds()/wall.Seconds())
}
