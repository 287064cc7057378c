package cecp

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"chuzero/mcts"
	"chuzero/selfplay/engine"
)

// budget returns the next search's bounds: the clock's share of time (st,
// or level with time), the simulation cap (configured budget, sd). An
// untimed budget has a day, so that "?" can still stop it; with neither a
// clock nor a simulation cap (-sims 0) a move gets NoClockSimulations.
func (e *Engine) budget() mcts.Budget {
	b := mcts.Budget{Simulations: e.Cfg.Budget.Simulations}
	switch {
	case e.moveTime > 0:
		b.Time = e.moveTime * 95 / 100
	case e.clockKnown:
		togo := 40
		if e.mps > 0 {
			played := e.game.Len() / 2
			togo = e.mps - played%e.mps
		}
		t := e.clock/time.Duration(togo) + e.inc*9/10
		t = min(t, e.clock/2-50*time.Millisecond)
		b.Time = max(t, 20*time.Millisecond)
	case e.Cfg.Budget.Time > 0:
		b.Time = e.Cfg.Budget.Time
	}
	if e.depth > 0 {
		cap := 100 * e.depth
		if b.Simulations == 0 || cap < b.Simulations {
			b.Simulations = cap
		}
	}
	if b.Time == 0 && b.Simulations == 0 { // the clock alone, and no clock
		b.Simulations = engine.NoClockSimulations
	}
	if b.Time == 0 {
		b.Time = 24 * time.Hour
	}
	return b
}

// maxNodes is the tree size "memory" allows (0: no bound).
func (e *Engine) maxNodes() int {
	if e.memoryMB > 0 {
		return e.memoryMB << 20 / mcts.NodeBytes
	}
	return 0
}

// setLevel handles "level MPS BASE INC" (BASE in minutes or min:sec).
func (e *Engine) setLevel(arg, line string) {
	f := strings.Fields(arg)
	if len(f) != 3 {
		e.Send("Error (bad time control): %s", line)
		return
	}
	mps, err1 := strconv.Atoi(f[0])
	base, err2 := parseMinutes(f[1])
	inc, err3 := strconv.ParseFloat(f[2], 64)
	if err1 != nil || err2 != nil || err3 != nil || mps < 0 || !(inc >= 0) || math.IsInf(inc, 0) {
		e.Send("Error (bad time control): %s", line)
		return
	}
	e.mps, e.base, e.inc = mps, base, time.Duration(inc*float64(time.Second))
	e.moveTime = 0
	e.clock, e.clockKnown = base, base > 0
}

// setMoveTime handles "st SECONDS".
func (e *Engine) setMoveTime(arg, line string) {
	sec, err := strconv.ParseFloat(arg, 64)
	if err != nil || !(sec > 0) || math.IsInf(sec, 0) {
		e.Send("Error (bad time): %s", line)
		return
	}
	e.moveTime = time.Duration(sec * float64(time.Second))
}

// setInt handles a command with a whole number of at least least ("sd
// DEPTH", "memory MB"): it sets *v, or answers "bad what".
func (e *Engine) setInt(v *int, least int, what, arg, line string) {
	n, err := strconv.Atoi(arg)
	if err != nil || n < least || n > 1<<30 {
		e.Send("Error (bad %s): %s", what, line)
		return
	}
	*v = n
}

// parseMinutes reads "5" (minutes) or "0:30" (minutes:seconds).
func parseMinutes(s string) (time.Duration, error) {
	m, sec, hasSec := strings.Cut(s, ":")
	mins, err := strconv.Atoi(m)
	if err != nil || mins < 0 || mins > 1<<20 {
		return 0, fmt.Errorf("bad minutes %q", s)
	}
	d := time.Duration(mins) * time.Minute
	if hasSec {
		secs, err := strconv.Atoi(sec)
		if err != nil || secs < 0 || secs > 59 {
			return 0, fmt.Errorf("bad seconds %q", s)
		}
		d += time.Duration(secs) * time.Second
	}
	return d, nil
}

// setClock handles "time N" (the engine's clock) and "otim N", in
// centiseconds.
func (e *Engine) setClock(cmd, arg, line string) {
	cs, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || cs < -1<<40 || cs > 1<<40 {
		e.Send("Error (bad time): %s", line)
		return
	}
	if cmd == "time" {
		e.clock = max(time.Duration(cs)*10*time.Millisecond, 0)
		e.clockKnown = true
	}
}
