package usi

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"chuzero/rules"
	"chuzero/selfplay/engine"
)

// limits are the arguments of "go".
type limits struct {
	time     [2]time.Duration // remaining: btime (Sente), wtime (Gote)
	inc      [2]time.Duration // binc, winc
	byoyomi  time.Duration
	movetime time.Duration
	nodes    int
	depth    int
	clock    bool // btime or wtime given
	infinite bool
	ponder   bool
	mate     bool // "go mate": answered with checkmate, not bestmove
}

// parseGo reads the arguments of "go".
func parseGo(arg string) (limits, error) {
	var l limits
	f := strings.Fields(arg)
	for i := 0; i < len(f); i++ {
		key := f[i]
		switch key {
		case "infinite":
			l.infinite = true
			continue
		case "ponder":
			l.ponder = true
			continue
		case "mate": // "go mate MS|infinite": a mate search
			l.mate = true
			if i+1 < len(f) && f[i+1] == "infinite" {
				l.infinite = true
				i++
				continue
			}
			if i+1 < len(f) {
				if n, err := strconv.ParseInt(f[i+1], 10, 64); err == nil && n > 0 && n < 1<<40 {
					l.movetime = time.Duration(n) * time.Millisecond
					i++
					continue
				}
			}
			l.infinite = true // no time given: until stop
			continue
		}
		if i+1 >= len(f) {
			return l, fmt.Errorf("go: %s without a value", engine.Clip(key))
		}
		i++
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil || n < -1<<40 || n > 1<<40 {
			return l, fmt.Errorf("go: bad %s %q", engine.Clip(key), engine.Clip(f[i]))
		}
		ms := time.Duration(max(n, 0)) * time.Millisecond
		switch key {
		case "btime", "wtime":
			l.time[b2i(key == "wtime")] = ms
			l.clock = true
		case "binc", "winc":
			l.inc[b2i(key == "winc")] = ms
		case "byoyomi":
			l.byoyomi = ms
		case "movetime":
			l.movetime = ms
		case "nodes":
			l.nodes = int(max(n, 1))
		case "depth": // tree search has no depth: 100 playouts a ply
			l.depth = int(min(max(n, 1), 1<<20))
		default:
			return l, fmt.Errorf("go: unknown argument %s", engine.Clip(key))
		}
	}
	return l, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Time management. A move gets a share of the remaining time, 1/movesToGo
// of it, plus 90% of the increment or byoyomi, but never more than what
// is left on the clock (the remaining time, plus the byoyomi) less a
// safety margin of the option Move Overhead (default 100 ms), a tenth of
// the byoyomi or increment and a fiftieth of the remaining time, for the
// transport and the last chunk of search past the deadline. The floor is
// minThink. A movetime is kept less its tenth, or the overhead if less.
const (
	movesToGo       = 40
	defaultOverhead = 100 * time.Millisecond
	minThink        = 20 * time.Millisecond
)

// thinkTime returns the time to search for side to move, or 0 for no
// time bound (nodes, the configured simulations, or infinite).
func (l limits) thinkTime(side rules.Color, overhead, fallback time.Duration) time.Duration {
	switch {
	case l.infinite || l.ponder:
		return 0
	case l.movetime > 0:
		return max(l.movetime-min(overhead, l.movetime/10), minThink)
	case l.clock || l.byoyomi > 0:
		s := b2i(side == rules.Gote)
		left, inc := l.time[s], l.inc[s]
		share := left/movesToGo + (inc+l.byoyomi)*9/10
		margin := overhead + (inc+l.byoyomi)/10 + left/50
		return max(min(share, left+l.byoyomi-margin), minThink)
	}
	return fallback
}
