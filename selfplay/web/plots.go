package web

import (
	"sync"
	"time"

	"chuzero/checkpoints"
	"chuzero/selfplay/report"
)

// plotCache keeps the report's plots of the run as PNG bytes, drawn again
// (all at once, by report.Render, which reads every games file) only when
// the run's fingerprint changed (a log or games file grew, a file came or
// went), and at most every `every`: a live run changes all the time.
type plotCache struct {
	run   checkpoints.Run
	opt   report.Options
	every time.Duration

	draw sync.Mutex // held while drawing: concurrent requests wait for one render

	mu    sync.Mutex // guards the fields below
	key   string     // the fingerprint the plots were drawn at
	drawn time.Time
	png   map[string][]byte
}

// fresh reports whether the plots were drawn less than c.every ago.
func (c *plotCache) fresh() bool {
	return c.png != nil && time.Since(c.drawn) < c.every
}

// version names the plots the next request gets: the drawn ones while
// they are fresh, else the run's state. Pages put it in the plots' URLs,
// so that a browser fetches a plot again exactly when it changes.
func (c *plotCache) version() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fresh() {
		return c.key
	}
	return fingerprint(c.run)
}

// get returns the PNG of plot file name (one of report.Plots); ok is
// false for a name that is not a plot.
func (c *plotCache) get(name string) (png []byte, ok bool, err error) {
	if !isPlot(name) {
		return nil, false, nil
	}
	c.draw.Lock()
	defer c.draw.Unlock()
	c.mu.Lock()
	key := c.key
	if !c.fresh() {
		key = fingerprint(c.run)
	}
	if c.png != nil && key == c.key {
		png = c.png[name]
	}
	c.mu.Unlock()
	if png != nil {
		return png, true, nil
	}
	r, err := report.Render(c.run, c.opt)
	if err != nil {
		return nil, true, err
	}
	c.mu.Lock()
	c.key, c.png, c.drawn = key, r.PNG, time.Now()
	c.mu.Unlock()
	return r.PNG[name], true, nil
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
