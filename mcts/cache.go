package mcts

import (
	"context"
	"sync"
	"sync/atomic"

	"chuzero/encode"
	"chuzero/mcts/eval"
	"chuzero/rules"
)

// Cache wraps an evaluator with a bounded cache of its answers, keyed by a
// hash of what the network reads (see key) and the moves asked about.
// Eviction is the clock algorithm (second chance), per shard. It is safe
// for concurrent use and satisfies Evaluator itself.
type Cache struct {
	inner   Evaluator
	history int // past moves in the key: the spec's HistoryPlies
	shards  [cacheShards]cacheShard
	counts  *CacheCounts
	pool    sync.Pool // *[]*eval.Request
	configs sync.Map  // *rules.Rules -> uint64, a hash of its Config
}

const cacheShards = 16

// CacheCounts counts the hits and misses of one or more caches. Several
// caches may share one, so that a process that makes a new cache for every
// network keeps one running count and lets the old caches go.
type CacheCounts struct {
	Hits, Misses atomic.Int64
}

// HitRatio returns hits / lookups so far (0 before any lookup).
func (s *CacheCounts) HitRatio() float64 {
	h, m := s.Hits.Load(), s.Misses.Load()
	if h+m == 0 {
		return 0
	}
	return float64(h) / float64(h+m)
}

type cacheShard struct {
	mu      sync.Mutex
	index   map[uint64]int32
	entries []cacheEntry
	hand    int
}

type cacheEntry struct {
	key      uint64
	valid    bool
	used     bool // clock reference bit
	priors   []float32
	wdl      [3]float32
	material float32
	residual float32
}

// NewCache returns a cache of about capacity entries in front of inner,
// keyed on all encode.MaxHistory past moves a request holds, which is
// right for a network of any spec. NewSpecCache keys on only the history
// the network reads, for more hits.
func NewCache(inner Evaluator, capacity int) *Cache {
	return newCache(inner, capacity, encode.MaxHistory)
}

// NewSpecCache returns a cache of about capacity entries in front of
// inner, a network whose input planes are those of spec: two requests that
// differ only in moves older than spec.HistoryPlies share an entry.
func NewSpecCache(inner Evaluator, capacity int, spec *encode.Spec) *Cache {
	return newCache(inner, capacity, spec.HistoryPlies)
}

func newCache(inner Evaluator, capacity, history int) *Cache {
	c := &Cache{inner: inner, history: history, counts: new(CacheCounts)}
	per := max(1, capacity/cacheShards)
	for i := range c.shards {
		c.shards[i].index = make(map[uint64]int32, per)
		c.shards[i].entries = make([]cacheEntry, per)
	}
	return c
}

// Evaluate implements Evaluator: hits are answered from the cache, misses
// go to the inner evaluator in one call and are stored.
func (c *Cache) Evaluate(ctx context.Context, reqs []*eval.Request) error {
	return c.evaluate(ctx, reqs, c.inner, 0)
}

// With returns an evaluator that shares c's entries, and so its bound on
// memory, under a key space of its own (salt) and asks inner on a miss.
// A process that switches networks gives each network its own salt: the
// entries of an old network stop being asked for and age out by the
// clock, however many networks games in flight still use.
func (c *Cache) With(inner Evaluator, salt uint64) Evaluator {
	return &saltedCache{c: c, inner: inner, salt: mix(salt + rules.Golden)}
}

// saltedCache is an evaluator of Cache.With.
type saltedCache struct {
	c     *Cache
	inner Evaluator
	salt  uint64
}

// Evaluate implements Evaluator.
func (s *saltedCache) Evaluate(ctx context.Context, reqs []*eval.Request) error {
	return s.c.evaluate(ctx, reqs, s.inner, s.salt)
}

// evaluate answers reqs from the entries of key space salt, asking inner
// about the rest in one call.
func (c *Cache) evaluate(ctx context.Context, reqs []*eval.Request, inner Evaluator, salt uint64) error {
	mp, _ := c.pool.Get().(*[]*eval.Request)
	if mp == nil {
		mp = new([]*eval.Request)
	}
	misses := (*mp)[:0]
	for _, r := range reqs {
		if c.lookup(c.key(r)^salt, r) {
			c.counts.Hits.Add(1)
			continue
		}
		c.counts.Misses.Add(1)
		misses = append(misses, r)
	}
	var err error
	if len(misses) > 0 {
		if err = inner.Evaluate(ctx, misses); err == nil {
			for _, r := range misses {
				c.store(c.key(r)^salt, r)
			}
		}
	}
	*mp = misses[:0]
	c.pool.Put(mp)
	return err
}

func (c *Cache) shard(k uint64) *cacheShard { return &c.shards[k%cacheShards] }

func (c *Cache) lookup(k uint64, r *eval.Request) bool {
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
	r.WDL, r.Material, r.Residual = e.wdl, e.material, e.residual
	e.used = true
	return true
}

func (c *Cache) store(k uint64, r *eval.Request) {
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
	e.key, e.valid, e.used, e.wdl, e.material, e.residual = k, true, false, r.WDL, r.Material, r.Residual
	e.priors = append(e.priors[:0], r.Priors...)
	s.index[k] = int32(s.hand)
	s.hand = (s.hand + 1) % len(s.entries)
}

// CountInto makes c count its hits and misses in s (shared with other
// caches) from now on; call it before c is first used. It returns c.
func (c *Cache) CountInto(s *CacheCounts) *Cache {
	c.counts = s
	return c
}

// HitRatio returns hits / lookups so far (0 before any lookup) of the
// counts c adds to.
func (c *Cache) HitRatio() float64 { return c.counts.HitRatio() }

// Counts returns the hits and misses so far of the counts c adds to.
func (c *Cache) Counts() (hits, misses int64) { return c.counts.Hits.Load(), c.counts.Misses.Load() }

// key identifies what an evaluation depends on, as the input planes
// encode it (encode.Spec.Encode): the position (its Zobrist key: board,
// side to move, counter-strike and suppression squares), the rules config
// (option planes; MaxPlies), the repetition count capped at 3, the plies
// played capped at MaxPlies (the progress plane, plies / MaxPlies), the
// last c.history moves, and the moves asked about.
func (c *Cache) key(r *eval.Request) uint64 {
	const golden = rules.Golden
	p := &r.Pos
	maxPlies := p.Rules().Config().MaxPlies
	rep := min(max(r.Repetitions, 1), 3)
	h := mix(p.Hash() ^ c.configKey(p.Rules()))
	h = mix(h + uint64(rep)*golden)
	h = mix(h + uint64(min(p.Plies(), maxPlies))*golden)
	k := min(c.history, r.NHistory)
	h = mix(h ^ uint64(k))
	for _, m := range r.History[r.NHistory-k : r.NHistory] {
		h = mix(h ^ uint64(m))
	}
	h = mix(h ^ uint64(len(r.Moves)))
	for _, m := range r.Moves {
		h = mix(h + uint64(m))
	}
	return h
}

// configKey returns a hash of the config of rules r (cached per Rules,
// which are immutable).
func (c *Cache) configKey(r *rules.Rules) uint64 {
	if v, ok := c.configs.Load(r); ok {
		return v.(uint64)
	}
	b, _ := r.Config().AppendBinary(nil) // a Rules' config is valid
	h := uint64(len(b))
	for _, x := range b {
		h = mix(h ^ uint64(x))
	}
	c.configs.Store(r, h)
	return h
}
