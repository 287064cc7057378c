package mcts

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"chuzero/mcts/eval"
	"chuzero/mcts/qsearch"
	"chuzero/rules"
)

// Search is the tree search of one game: single-threaded over an index
// arena, with several leaves in flight per batch (virtual loss) so that one
// game feeds a batching evaluator with more than one position at a time.
// It is not safe for concurrent use; run one per game.
type Search struct {
	cfg  Config
	eval Evaluator
	rng  *rand.Rand
	t    tree

	// the position of the root, to recognise it in the next search
	rootLen  int
	rootHash uint64

	gumbelInterior bool // this search selects below the root by Gumbel's rule

	paths     [][]int32 // per leaf of a batch: node indices from the root
	reqs      []*eval.Request
	qs        *qsearch.Search // the leaves' capture search (Config.Quiescence), for the rules of the last game
	qv        []float64       // per request: its quiescence value, scaled to [-1, 1]
	slots     []int           // which path each request belongs to
	origPrior []float32
	gumbel    gumbelScratch
	interior  interiorScratch
}

// Options are the choices of one search.
type Options struct {
	Simulations int  // playouts to add to the tree
	Noise       bool // Dirichlet noise on the root priors (PUCT self-play)
	Gumbel      bool // Gumbel search: sequential halving at the root, Config.GumbelInterior below it
	// Partial: a PUCT search whose ctx ends returns the tree as it stands
	// (the root is expanded whatever ctx says: one evaluation), not the
	// error, so a timed search always has a move by its deadline.
	Partial bool
}

// New returns a search; seed drives the noise and the move choice.
func New(cfg Config, ev Evaluator, seed uint64) (*Search, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &Search{cfg: cfg, eval: ev, rng: newRand(seed)}
	s.t.reset()
	s.rootLen = -1
	for i := 0; i < cfg.LeavesPerBatch; i++ {
		s.paths = append(s.paths, make([]int32, 0, 64))
		s.reqs = append(s.reqs, &eval.Request{})
	}
	s.qv = make([]float64, cfg.LeavesPerBatch)
	return s, nil
}

// Config returns the search configuration.
func (s *Search) Config() Config { return s.cfg }

// Reset drops the tree.
func (s *Search) Reset() {
	s.t.reset()
	s.rootLen = -1
}

// ErrGameOver is returned when asked to search a finished game.
var ErrGameOver = errors.New("mcts: the game is over")

// Run searches the current position of g. The game is modified during the
// search and restored before Run returns. With ReuseTree, the subtree of a
// previous search is kept when g continues the game it searched.
func (s *Search) Run(ctx context.Context, g *rules.Game, o Options) (*Result, error) {
	if g.Result().Over() {
		return nil, ErrGameOver
	}
	if o.Simulations < 1 {
		return nil, fmt.Errorf("mcts: %d simulations", o.Simulations)
	}
	s.syncRoot(g)
	root := s.t.root
	if s.t.nodes.at(root).state != expanded {
		ectx := ctx
		if o.Partial && !o.Gumbel {
			ectx = context.WithoutCancel(ctx)
		}
		if err := s.expandRoot(ectx, g); err != nil {
			return nil, err
		}
	}
	kids := s.t.children(root)
	s.origPrior = s.origPrior[:0]
	for i := range kids {
		s.origPrior = append(s.origPrior, kids[i].prior)
	}
	res := &Result{}
	var err error
	s.gumbelInterior = o.Gumbel && s.cfg.GumbelInterior
	if o.Gumbel {
		err = s.runGumbel(ctx, g, o.Simulations, res)
	} else {
		if o.Noise {
			s.addNoise(kids)
		}
		err = s.simulate(ctx, g, o.Simulations, nil, res)
	}
	kids = s.t.children(root)
	for i, p := range s.origPrior { // the noise lives for this search only
		kids[i].prior = p
	}
	if err != nil && !(o.Partial && !o.Gumbel && ctx.Err() != nil) {
		return nil, err
	}
	s.fillResult(res, o.Gumbel)
	return res, nil
}

// syncRoot keeps the tree if g continues the previously searched game,
// moving the root down the moves played since; otherwise starts afresh.
func (s *Search) syncRoot(g *rules.Game) {
	keep := s.cfg.ReuseTree && s.rootLen >= 0 && g.Len() >= s.rootLen && g.HashAt(s.rootLen) == s.rootHash
	if keep {
		node := s.t.root
		for i := s.rootLen; i < g.Len() && node >= 0; i++ {
			node = s.t.child(node, g.MoveAt(i))
		}
		if node >= 0 && s.t.nodes.at(node).state == expanded {
			if node != s.t.root {
				s.t.promote(node)
			}
		} else {
			keep = false
		}
	}
	if !keep {
		s.t.reset()
	}
	s.rootLen, s.rootHash = g.Len(), g.Position().Hash()
}

// expandRoot evaluates the root and creates its children.
func (s *Search) expandRoot(ctx context.Context, g *rules.Game) error {
	req := s.reqs[0]
	req.Set(g, g.LegalMoves())
	s.quiesce(g, 0)
	if err := s.eval.Evaluate(ctx, s.reqs[:1]); err != nil {
		return err
	}
	s.t.reset()
	v := s.value(req, 0)
	s.t.expand(0, req.Moves, req.Priors, v)
	root := s.t.nodes.at(0)
	root.visits = 1
	root.valueSum = -v
	return nil
}

// value is the value for the side to move of the position of request k:
// win minus loss, plus the material utility when the config asks for it,
// blended with its quiescence value by Config.Quiescence (a residual
// evaluator's value completed by its own weight instead: Residual).
func (s *Search) value(req *eval.Request, k int) float64 {
	v := float64(req.WDL[0] - req.WDL[2])
	if u := s.cfg.MaterialUtility; u > 0 {
		v = max(-1, min(1, v+u*float64(req.Material)))
	}
	if l := s.cfg.Quiescence; l > 0 {
		if r := float64(req.Residual); r > 0 {
			return Residual(v, s.qv[k], r)
		}
		v = Blend(v, s.qv[k], l)
	}
	return v
}

// quiesce computes the quiescence value of g's current position for
// request k, when the config blends one in.
func (s *Search) quiesce(g *rules.Game, k int) {
	if s.cfg.Quiescence <= 0 {
		return
	}
	if s.qs == nil || s.qs.Rules() != g.Rules() {
		s.qs = s.cfg.CaptureSearch(g.Rules())
	}
	s.qv[k] = s.qs.Scaled(g, s.cfg.QuiescenceScale)
}

// QuiescenceNodes returns the capture-search nodes the search has
// visited so far (0 without Config.Quiescence).
func (s *Search) QuiescenceNodes() int64 {
	if s.qs == nil {
		return 0
	}
	return s.qs.Nodes
}

// addNoise mixes Dirichlet noise into the root priors.
func (s *Search) addNoise(kids []node) {
	alpha := s.cfg.NoiseAlphaScale / float64(len(kids))
	eps := s.cfg.NoiseFraction
	noise := dirichlet(s.rng, alpha, len(kids))
	for i := range kids {
		kids[i].prior = float32((1-eps)*float64(kids[i].prior) + eps*noise[i])
	}
}

// simulate adds sims playouts. With forced root children (Gumbel's
// sequential halving), the playouts go through them in turn; with none,
// the root child is chosen by PUCT like every other.
func (s *Search) simulate(ctx context.Context, g *rules.Game, sims int, forced []int32, res *Result) error {
	done := 0
	turn := 0 // next forced child
	for done < sims {
		if err := ctx.Err(); err != nil {
			return err
		}
		want := min(s.cfg.LeavesPerBatch, sims-done)
		nreq := 0
		for slot := 0; slot < want; slot++ {
			f := int32(-1)
			if len(forced) > 0 {
				f = forced[turn%len(forced)]
			}
			path := s.selectPath(g, f, slot)
			res.SelDepth = max(res.SelDepth, len(path)-1)
			leaf := s.t.nodes.at(path[len(path)-1])
			collided := false
			switch {
			case leaf.state == terminal:
				s.backup(path, float64(leaf.value))
				done++
				res.Simulations++
			case leaf.state == pending:
				s.revert(path)
				res.Collisions++
				collided = true
				turn-- // retry this forced child in the next batch
			case g.Result().Over():
				leaf.state = terminal
				leaf.value = float32(g.Result().ValueFor(g.Position().SideToMove()))
				leaf.mm = packMinimax(-float64(leaf.value))
				s.backup(path, float64(leaf.value))
				done++
				res.Simulations++
			default:
				leaf.state = pending
				s.reqs[nreq].Set(g, g.LegalMoves())
				s.quiesce(g, nreq)
				s.slots = append(s.slots[:nreq], slot)
				nreq++
			}
			turn++
			for range len(path) - 1 {
				g.Undo()
			}
			if collided {
				break // evaluate what is in flight first
			}
		}
		if nreq == 0 {
			continue
		}
		if err := s.eval.Evaluate(ctx, s.reqs[:nreq]); err != nil {
			for k := 0; k < nreq; k++ { // leave the tree consistent
				path := s.paths[s.slots[k]]
				s.t.nodes.at(path[len(path)-1]).state = unexpanded
				s.revert(path)
			}
			return err
		}
		for k := 0; k < nreq; k++ {
			path := s.paths[s.slots[k]]
			leafIdx := path[len(path)-1]
			req := s.reqs[k]
			v := s.value(req, k)
			s.t.expand(leafIdx, req.Moves, req.Priors, v)
			s.backup(path, v)
		}
		done += nreq
		res.Simulations += nreq
	}
	return nil
}

// backup adds value v (for the side to move at the leaf) along path,
// alternating the point of view, and removes the path's virtual loss.
func (s *Search) backup(path []int32, v float64) {
	if s.cfg.MinimaxWeight > 0 {
		s.minimaxBackup(path)
	}
	for i := len(path) - 1; i >= 0; i-- {
		n := s.t.nodes.at(path[i])
		v = -v // the player who moved into this node
		n.valueSum += v
		n.visits++
		n.inFlight--
	}
}

// revert removes a path's virtual loss without a visit.
func (s *Search) revert(path []int32) {
	for _, i := range path {
		s.t.nodes.at(i).inFlight--
	}
}

// NodeCount returns the nodes in the tree (for memory accounting and tests).
func (s *Search) NodeCount() int { return int(s.t.nodes.size) }

// newRand returns the generator of a search seeded with seed.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6d637473)) }
