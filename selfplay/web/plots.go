package web

import (
	"sync"

	"chuzero/checkpoints"
	"chuzero/selfplay/report"
)

// plotCache keeps the report's plots of the run as PNG bytes, drawn again
// (all at once, by report.Render) only when the run's fingerprint changes:
// a log or games file grew, a file came or went.
type plotCache struct {
	run checkpoints.Run
	opt report.Options

	mu  sync.Mutex // held while drawing: concurrent requests wait for one render
	key string
	png map[string][]byte
}

// get returns the PNG of plot file name (one of report.Plots), drawn
// from the run as it is now; ok is false for a name that is not a plot.
func (c *plotCache) get(name string) (png []byte, ok bool, err error) {
	if !isPlot(name) {
		return nil, false, nil
	}
	key := fingerprint(c.run)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.png == nil || c.key != key {
		r, err := report.Render(c.run.Dir, c.opt)
		if err != nil {
			return nil, true, err
		}
		c.key, c.png = key, r.PNG
	}
	return c.png[name], true, nil
}

// isPlot reports whether name is the file name of one of the report's
// plots: the only names /plots/ serves.
func isPlot(name string) bool {
	for _, p := range report.Plots() {
		if p.File == name {
			return true
		}
	}
	return false
}
