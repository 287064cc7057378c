package mcts

import (
	"context"
	"sync"
	"sync/atomic"

	"chuzero/encode"
)

// Cache wraps an evaluator with a bounded cache of its answers, keyed by a
// hash of the position, its recent moves, its repetition count and the
// moves asked about (everything the answer depends on). Eviction is the
// clock algorithm (second chance), per shard. It is safe for concurrent
// use and satisfies Evaluator itself.
type Cache struct {
	inner  Evaluator
	shards [cacheShards]cacheShard
	hits   atomic.Int64
	misses atomic.Int64
	pool   sync.Pool // *[]*encode.Request
}

const cacheShards = 16

type cacheShard struct {
	mu      sync.Mutex
	index   map[uint64]int32
	entries []cacheEntry
	hand    int
}

type cacheEntry struct {
	key    uint64
	valid  bool
	used   bool // clock reference bit
	priors []float32
	wdl    [3]float32
}

// NewCache returns a cache of about capacity entries in front of inner.
func NewCache(inner Evaluator, capacity int) *Cache {
	c := &Cache{inner: inner}
	per := max(1, capacity/cacheShards)
	for i := range c.shards {
		c.shards[i].index = make(map[uint64]int32, per)
		c.shards[i].entries = make([]cacheEntry, per)
	}
	return c
}

// Evaluate implements Evaluator: hits are answered from the cache, misses
// go to the inner evaluator in one call and are stored.
func (c *Cache) Evaluate(ctx context.Context, reqs []*encode.Request) error {
	mp, _ := c.pool.Get().(*[]*encode.Request)
	if mp == nil {
		mp = new([]*encode.Request)
	}
	misses := (*mp)[:0]
	for _, r := range reqs {
		if c.lookup(requestKey(r), r) {
			c.hits.Add(1)
			continue
		}
		c.misses.Add(1)
		misses = append(misses, r)
	}
	var err error
	if len(misses) > 0 {
		if err = c.inner.Evaluate(ctx, misses); err == nil {
			for _, r := range misses {
				c.store(requestKey(r), r)
			}
		}
	}
	*mp = misses[:0]
	c.pool.Put(mp)
	return err
}

func (c *Cache) shard(k uint64) *cacheShard { return &c.shards[k%cacheShards] }

func (c *Cache) lookup(k uint64, r *encode.Request) bool {
	s := c.shard(k)
	s.mu.Lock()
	defer s.mu.Unlock()
	i, ok := s.index[k]
	if !ok {
		return false
	}
	e := &s.entries[i]
	if len(e.priors) != len(r.Priors) {
		return false
	}
	copy(r.Priors, e.priors)
	r.WDL = e.wdl
	e.used = true
	return true
}

func (c *Cache) store(k uint64, r *encode.Request) {
	s := c.shard(k)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.index[k]; ok {
		return
	}
	for {
		e := &s.entries[s.hand]
		if !e.valid || !e.used {
			break
		}
		e.used = false
		s.hand = (s.hand + 1) % len(s.entries)
	}
	e := &s.entries[s.hand]
	if e.valid {
		delete(s.index, e.key)
	}
	e.key, e.valid, e.used, e.wdl = k, true, false, r.WDL
	e.priors = append(e.priors[:0], r.Priors...)
	s.index[k] = int32(s.hand)
	s.hand = (s.hand + 1) % len(s.entries)
}

// HitRatio returns hits / lookups so far (0 before any lookup).
func (c *Cache) HitRatio() float64 {
	h, m := c.hits.Load(), c.misses.Load()
	if h+m == 0 {
		return 0
	}
	return float64(h) / float64(h+m)
}

// Counts returns the hits and misses so far.
func (c *Cache) Counts() (hits, misses int64) { return c.hits.Load(), c.misses.Load() }
