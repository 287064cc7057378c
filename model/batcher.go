package model

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"chuzero/encode"
	"chuzero/mcts/eval"
)

// BatcherConfig configures a Batcher.
type BatcherConfig struct {
	MaxBatch int           // positions per network call
	MaxWait  time.Duration // how long a partial batch waits for more requests
	Workers  int           // goroutines running the network, each with its own buffers
	Threads  int           // goroutines per network layer in each worker (0: GOMAXPROCS)
}

// Validate reports a problem with c.
func (c BatcherConfig) Validate() error {
	if c.MaxBatch < 1 || c.Workers < 1 || c.MaxWait < 0 {
		return fmt.Errorf("model: bad batcher config %+v", c)
	}
	return nil
}

// Batcher evaluates positions for the search: requests from many
// goroutines are encoded by their callers, grouped into batches of up to
// MaxBatch (or what arrives within MaxWait) and run through the network by
// Workers goroutines. It satisfies the search's Evaluator interface
// (Evaluate) without importing it. The network can be swapped at any time
// (SetNet); requests already in a batch finish on the old one.
type Batcher struct {
	cfg     BatcherConfig
	spec    *encode.Spec
	net     atomic.Pointer[Net]
	in      chan *job
	stopped chan struct{} // closed when Run returns
	pool    sync.Pool     // *job

	batches   atomic.Int64
	positions atomic.Int64
	stats     batchStats

	// OnBatch, if set before Run, is called after every network call with
	// the batch size and the call's duration (for metrics).
	OnBatch func(size int, d time.Duration)
}

// job is one request in flight.
type job struct {
	net    *Net // the network to evaluate it with
	req    *eval.Request
	planes []float32
	legal  []int32
	done   chan struct{}
	err    error
}

// NewBatcher returns a batcher for net; call Run to start its workers.
func NewBatcher(net *Net, cfg BatcherConfig) (*Batcher, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	b := &Batcher{cfg: cfg, spec: net.Spec, in: make(chan *job, 4*cfg.MaxBatch), stopped: make(chan struct{})}
	b.net.Store(net)
	b.stats.sizes = make([]int64, cfg.MaxBatch+1)
	return b, nil
}

// SetNet swaps in a new network of the same encoding.
func (b *Batcher) SetNet(n *Net) error {
	if n.Spec != b.spec {
		return fmt.Errorf("model: network for %v, batcher for %v", n.Spec.Info(), b.spec.Info())
	}
	b.net.Store(n)
	return nil
}

// Net returns the network in use.
func (b *Batcher) Net() *Net { return b.net.Load() }

// ErrClosed is returned for requests made after the batcher stopped.
var ErrClosed = errors.New("model: batcher stopped")

// Evaluate fills Priors and WDL of every request with the current network
// (see SetNet). It encodes them in the calling goroutine, hands them to the
// workers and waits.
func (b *Batcher) Evaluate(ctx context.Context, reqs []*eval.Request) error {
	return b.evaluate(ctx, reqs, b.net.Load())
}

// View returns an evaluator that uses net through this batcher, whatever
// SetNet installs later: a self-play game keeps the network it started
// with while new games take the newest. Requests of different networks
// never share a batch.
func (b *Batcher) View(net *Net) *View { return &View{b: b, net: net} }

// View is an evaluator bound to one network; see Batcher.View.
type View struct {
	b   *Batcher
	net *Net
}

// Evaluate implements the search's Evaluator with the view's network.
func (v *View) Evaluate(ctx context.Context, reqs []*eval.Request) error {
	return v.b.evaluate(ctx, reqs, v.net)
}

// Net returns the view's network.
func (v *View) Net() *Net { return v.net }

func (b *Batcher) evaluate(ctx context.Context, reqs []*eval.Request, net *Net) error {
	if net.Spec != b.spec {
		return fmt.Errorf("model: network for %v, batcher for %v", net.Spec.Info(), b.spec.Info())
	}
	jobs := make([]*job, len(reqs))
	for i, r := range reqs {
		j, _ := b.pool.Get().(*job)
		if j == nil {
			j = &job{planes: make([]float32, b.spec.PlaneSize()), done: make(chan struct{}, 1)}
		}
		j.req, j.err, j.net = r, nil, net
		st := r.State()
		if err := b.spec.Encode(&st, j.planes); err != nil {
			return err
		}
		var err error
		if j.legal, err = b.spec.LegalIndices(&r.Pos, r.Moves, j.legal[:0]); err != nil {
			return err
		}
		jobs[i] = j
	}
	submitted := len(jobs)
	var err error
	for i, j := range jobs {
		select {
		case b.in <- j:
			continue
		case <-ctx.Done():
			err = ctx.Err()
		case <-b.stopped:
			err = ErrClosed
		}
		submitted = i
		break
	}
	for _, j := range jobs[:submitted] {
		select {
		case <-j.done:
		case <-b.stopped:
			select {
			case <-j.done:
			default:
				j.err = ErrClosed
				j = nil // may still be signalled: never reuse it
			}
		}
		if j == nil {
			if err == nil {
				err = ErrClosed
			}
			continue
		}
		if j.err != nil && err == nil {
			err = j.err
		}
		b.pool.Put(j)
	}
	return err
}

// Run runs the workers until ctx is done.
func (b *Batcher) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for i := 0; i < b.cfg.Workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.work(ctx)
		}()
	}
	wg.Wait()
	close(b.stopped)
	// fail whatever is still queued
	for {
		select {
		case j := <-b.in:
			j.err = ErrClosed
			j.done <- struct{}{}
		default:
			return ctx.Err()
		}
	}
}

func (b *Batcher) work(ctx context.Context) {
	var ws *Workspace
	var wsNet *Net
	batch := make([]*job, 0, b.cfg.MaxBatch)
	planes := make([]float32, b.cfg.MaxBatch*b.spec.PlaneSize())
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var carry *job // a request for another network than the batch's
	for {
		batch = batch[:0]
		if carry != nil {
			batch, carry = append(batch, carry), nil
		} else {
			select {
			case j := <-b.in:
				batch = append(batch, j)
			case <-ctx.Done():
				return
			}
		}
		net := batch[0].net
		timer.Reset(b.cfg.MaxWait)
	fill:
		for len(batch) < b.cfg.MaxBatch {
			select {
			case j := <-b.in:
				if j.net != net {
					carry = j
					break fill
				}
				batch = append(batch, j)
			case <-timer.C:
				break fill
			}
		}
		timer.Stop()
		if ws == nil || wsNet.Config != net.Config {
			ws, wsNet = net.NewWorkspace(b.cfg.MaxBatch), net
			if b.cfg.Threads > 0 {
				ws.SetThreads(b.cfg.Threads)
			}
		}
		ps := b.spec.PlaneSize()
		for i, j := range batch {
			copy(planes[i*ps:(i+1)*ps], j.planes)
		}
		start := time.Now()
		err := net.Forward(ws, planes, len(batch))
		d := time.Since(start)
		b.stats.record(len(batch), d)
		if b.OnBatch != nil {
			b.OnBatch(len(batch), d)
		}
		for i, j := range batch {
			if err != nil {
				j.err = err
			} else {
				net.Priors(ws, i, j.legal, j.req.Priors)
				j.req.WDL = net.WDL(ws, i)
				j.req.Material = ws.Material[2*i+1] // AuxAheadPlies ahead
				j.req.Residual = float32(net.Config.ValueResidual)
			}
			j.done <- struct{}{}
		}
		b.batches.Add(1)
		b.positions.Add(int64(len(batch)))
	}
}

// batchStats counts batch sizes and network time.
type batchStats struct {
	mu      sync.Mutex
	sizes   []int64 // batches per size
	seconds float64
}

func (s *batchStats) record(n int, d time.Duration) {
	s.mu.Lock()
	s.sizes[n]++
	s.seconds += d.Seconds()
	s.mu.Unlock()
}

// BatcherStats summarizes a batcher's work so far.
type BatcherStats struct {
	Batches    int64
	Positions  int64
	Sizes      []int64 // number of batches of each size (index = size)
	NetSeconds float64 // time spent in the network
	MaxBatch   int
}

// Fill returns the mean batch size as a fraction of MaxBatch.
func (s BatcherStats) Fill() float64 {
	if s.Batches == 0 {
		return 0
	}
	return float64(s.Positions) / float64(s.Batches) / float64(s.MaxBatch)
}

// Stats returns the counters.
func (b *Batcher) Stats() BatcherStats {
	b.stats.mu.Lock()
	defer b.stats.mu.Unlock()
	return BatcherStats{Batches: b.batches.Load(), Positions: b.positions.Load(),
		Sizes: append([]int64(nil), b.stats.sizes...), NetSeconds: b.stats.seconds, MaxBatch: b.cfg.MaxBatch}
}
