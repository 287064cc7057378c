package training

import (
	"chuzero/model"
	"chuzero/selfplay"
)

// Observer is told what a run's process does, for a display of its
// progress (the command's status line); its methods are called from the
// games' and the trainer's goroutines and must not block.
type Observer interface {
	// Checkpoint names the network in use or the newest written.
	Checkpoint(name string)
	// Game reports a finished self-play game.
	Game(rec *selfplay.Record)
	// Move reports a self-play move searched with sims playouts.
	Move(sims int)
	// TrainStep reports a training step (or a wait for data).
	TrainStep(i model.StepInfo)
}

// noObserver is the Observer of a process nobody watches.
type noObserver struct{}

func (noObserver) Checkpoint(string)        {}
func (noObserver) Game(*selfplay.Record)    {}
func (noObserver) Move(int)                 {}
func (noObserver) TrainStep(model.StepInfo) {}
