package mcts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"chuzero/encode"
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
	netValue float64 // the evaluator's value of the root, side to move

	paths     [][]int32 // per leaf of a batch: node indices from the root
	reqs      []*encode.Request
	slots     []int // which path each request belongs to
	origPrior []float32
	gumbel    gumbelScratch
}

// Options are the choices of one search.
type Options struct {
	Simulations int  // playouts to add to the tree
	Noise       bool // Dirichlet noise on the root priors (PUCT self-play)
	Gumbel      bool // Gumbel root search instead of PUCT at the root
}

// Result is what a search found at the root.
type Result struct {
	Moves       []rules.Move // the legal moves
	Visits      []int32      // visits of each move's child
	Prior       []float32    // the evaluator's prior of each move
	Policy      []float32    // training target: visit distribution (PUCT) or completed-Q improved policy (Gumbel)
	Best        rules.Move   // most visited move (PUCT) or the sequential-halving winner (Gumbel)
	RootValue   float64      // mean value of the root for the side to move, in [-1, 1]
	Simulations int          // playouts added by this search
	Collisions  int          // selections discarded because their leaf was already in flight
}

// New returns a search; seed drives the noise and the move choice.
func New(cfg Config, eval Evaluator, seed uint64) (*Search, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &Search{cfg: cfg, eval: eval, rng: rand.New(rand.NewPCG(seed, 0x6d637473))}
	s.t.reset()
	s.rootLen = -1
	for i := 0; i < cfg.LeavesPerBatch; i++ {
		s.paths = append(s.paths, make([]int32, 0, 64))
		s.reqs = append(s.reqs, &encode.Request{})
	}
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
	if s.t.nodes[root].state != expanded {
		if err := s.expandRoot(ctx, g); err != nil {
			return nil, err
		}
	}
	rootNode := &s.t.nodes[root]
	kids := s.t.children(root)
	s.origPrior = s.origPrior[:0]
	for i := range kids {
		s.origPrior = append(s.origPrior, kids[i].prior)
	}
	defer func() { // the noise lives for this search only
		for i, p := range s.origPrior {
			s.t.nodes[s.t.nodes[root].first+int32(i)].prior = p
		}
	}()
	res := &Result{}
	var err error
	if o.Gumbel {
		err = s.runGumbel(ctx, g, o.Simulations, res)
	} else {
		if o.Noise {
			s.addNoise(kids)
		}
		err = s.simulate(ctx, g, o.Simulations, nil, res)
	}
	if err != nil {
		return nil, err
	}
	rootNode = &s.t.nodes[root]
	kids = s.t.children(root)
	res.RootValue = -rootNode.valueSum / float64(rootNode.visits)
	var total int32
	for i := range kids {
		res.Moves = append(res.Moves, kids[i].move)
		res.Visits = append(res.Visits, kids[i].visits)
		res.Prior = append(res.Prior, s.origPrior[i])
		total += kids[i].visits
	}
	if o.Gumbel {
		res.Policy = s.improvedPolicy(kids, s.origPrior)
	} else {
		res.Policy = make([]float32, len(kids))
		best := 0
		for i := range kids {
			res.Policy[i] = float32(kids[i].visits) / float32(max(total, 1))
			if kids[i].visits > kids[best].visits {
				best = i
			}
		}
		res.Best = kids[best].move
	}
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
		if node >= 0 && s.t.nodes[node].state == expanded {
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
	if err := s.eval.Evaluate(ctx, s.reqs[:1]); err != nil {
		return err
	}
	s.t.reset()
	s.t.expand(0, req.Moves, req.Priors)
	v := float64(req.WDL[0] - req.WDL[2])
	s.netValue = v
	root := &s.t.nodes[0]
	root.visits = 1
	root.valueSum = -v
	return nil
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
			leaf := &s.t.nodes[path[len(path)-1]]
			collided := false
			switch {
			case leaf.state == terminal:
				s.backup(path, float64(leaf.termValue))
				done++
				res.Simulations++
			case leaf.state == pending:
				s.revert(path)
				res.Collisions++
				collided = true
				turn-- // retry this forced child in the next batch
			case g.Result().Over():
				leaf.state = terminal
				leaf.termValue = float32(g.Result().ValueFor(g.Position().SideToMove()))
				s.backup(path, float64(leaf.termValue))
				done++
				res.Simulations++
			default:
				leaf.state = pending
				s.reqs[nreq].Set(g, g.LegalMoves())
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
				s.t.nodes[path[len(path)-1]].state = unexpanded
				s.revert(path)
			}
			return err
		}
		for k := 0; k < nreq; k++ {
			path := s.paths[s.slots[k]]
			leafIdx := path[len(path)-1]
			req := s.reqs[k]
			s.t.expand(leafIdx, req.Moves, req.Priors)
			s.backup(path, float64(req.WDL[0]-req.WDL[2]))
		}
		done += nreq
		res.Simulations += nreq
	}
	return nil
}

// selectPath walks from the root to a leaf, playing the moves on g and
// adding virtual loss along the way; the path is stored in s.paths[slot].
func (s *Search) selectPath(g *rules.Game, forced int32, slot int) []int32 {
	path := append(s.paths[slot][:0], s.t.root)
	idx := s.t.root
	for {
		n := &s.t.nodes[idx]
		n.inFlight++
		if n.state != expanded {
			break
		}
		var next int32
		if idx == s.t.root && forced >= 0 {
			next = n.first + forced
		} else {
			next = s.pick(idx)
		}
		g.Push(s.t.nodes[next].move)
		path = append(path, next)
		idx = next
	}
	s.paths[slot] = path
	return path
}

// pick returns the child of idx with the highest PUCT score.
func (s *Search) pick(idx int32) int32 {
	n := &s.t.nodes[idx]
	parentN := float64(n.visits + n.inFlight)
	c := s.cfg.CPuct + math.Log((1+parentN+s.cfg.CPuctBase)/s.cfg.CPuctBase)
	cs := c * math.Sqrt(max(parentN, 1))
	fpu := s.cfg.FPUReduction
	if idx == s.t.root {
		fpu = s.cfg.FPURoot
	}
	parentQ := 0.0
	if n.visits > 0 {
		parentQ = -n.valueSum / float64(n.visits)
	}
	fpuQ := parentQ - fpu
	vl := s.cfg.VirtualLoss
	best, bestScore := n.first, math.Inf(-1)
	kids := s.t.nodes[n.first : n.first+n.n]
	for i := range kids {
		ch := &kids[i]
		visits := ch.visits + ch.inFlight
		q := fpuQ
		if visits > 0 {
			q = ch.q(vl)
		}
		score := q + cs*float64(ch.prior)/float64(1+visits)
		if score > bestScore {
			best, bestScore = n.first+int32(i), score
		}
	}
	return best
}

// backup adds value v (for the side to move at the leaf) along path,
// alternating the point of view, and removes the path's virtual loss.
func (s *Search) backup(path []int32, v float64) {
	for i := len(path) - 1; i >= 0; i-- {
		n := &s.t.nodes[path[i]]
		v = -v // the player who moved into this node
		n.valueSum += v
		n.visits++
		n.inFlight--
	}
}

// revert removes a path's virtual loss without a visit.
func (s *Search) revert(path []int32) {
	for _, i := range path {
		s.t.nodes[i].inFlight--
	}
}

// Choose picks the move to play from a result: by temperature over the
// visit counts (PUCT; temperature 0 = most visited), or the Gumbel winner.
// ply is the game's ply count, for the temperature schedule.
func (s *Search) Choose(res *Result, ply int, gumbel bool) rules.Move {
	if gumbel || len(res.Moves) == 1 {
		return res.Best
	}
	t := s.cfg.FinalTemperature
	if ply < s.cfg.TemperatureMoves {
		t = s.cfg.Temperature
	}
	if t < 1e-3 {
		return res.Best
	}
	var sum float64
	w := make([]float64, len(res.Visits))
	for i, v := range res.Visits {
		w[i] = math.Pow(float64(v), 1/t)
		sum += w[i]
	}
	if sum == 0 {
		return res.Best
	}
	x := s.rng.Float64() * sum
	for i := range w {
		if x < w[i] {
			return res.Moves[i]
		}
		x -= w[i]
	}
	return res.Moves[len(res.Moves)-1]
}

// NodeCount returns the nodes in the tree (for memory accounting and tests).
func (s *Search) NodeCount() int { return len(s.t.nodes) }
