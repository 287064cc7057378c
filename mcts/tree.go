package mcts

import "chuzero/rules"

// nodeState is the life cycle of a node.
type nodeState uint8

const (
	unexpanded nodeState = iota
	pending              // its evaluation is in flight
	expanded             // children created
	terminal             // the game is over here; value holds the result
)

// NodeBytes is the memory of one tree node, for callers that bound the
// tree by memory (Search.NodeCount() * NodeBytes).
const NodeBytes = 40

// node is one position of the tree, reached from its parent by move. The
// children of a node are contiguous in the arena.
type node struct {
	move     rules.Move
	prior    float32
	visits   int32
	inFlight int32   // paths through this node waiting for an evaluation (virtual loss)
	valueSum float64 // sum of backed-up values, for the player who moved into this node
	first    int32   // index of the first child
	n        int32   // number of children
	state    nodeState
	mm       int16 // implicit minimax value for the player who moved into this node (see minimax.go)
	// value is, for the side to move here, the result (terminal) or the
	// evaluator's raw value (expanded): v in Gumbel's v_mix.
	value float32
}

// q returns the node's mean value for the player who moved into it,
// counting in-flight paths as losses of weight vl.
func (n *node) q(vl float64) float64 {
	return (n.valueSum - vl*float64(n.inFlight)) / float64(n.visits+n.inFlight)
}

// tree is an index-based arena of nodes.
type tree struct {
	nodes arena
	spare arena // the other arena, for compaction
	root  int32
}

func (t *tree) reset() {
	t.nodes.truncate()
	t.nodes.push(node{})
	t.root = 0
}

// children returns the children of node i.
func (t *tree) children(i int32) []node {
	n := t.nodes.at(i)
	return t.nodes.span(n.first, n.n)
}

// expand creates the children of node i with the given moves and priors;
// v is the evaluator's value of node i for its side to move.
func (t *tree) expand(i int32, moves []rules.Move, priors []float32, v float64) {
	first := t.nodes.alloc(len(moves))
	kids := t.nodes.span(first, int32(len(moves)))
	for k, m := range moves {
		kids[k] = node{move: m, prior: priors[k]}
	}
	n := t.nodes.at(i)
	n.first, n.n, n.state, n.value = first, int32(len(moves)), expanded, float32(v)
	n.mm = packMinimax(-v)
}

// child returns the index of node i's child reached by m, or -1.
func (t *tree) child(i int32, m rules.Move) int32 {
	n := t.nodes.at(i)
	if n.state != expanded {
		return -1
	}
	for k, c := range t.nodes.span(n.first, n.n) {
		if c.move == m {
			return n.first + int32(k)
		}
	}
	return -1
}

// promote makes node i the root, copying its subtree into the spare arena
// (breadth first, children blocks kept contiguous) and dropping the rest.
func (t *tree) promote(i int32) {
	dst := &t.spare
	dst.truncate()
	dst.push(*t.nodes.at(i))
	dst.at(0).move = rules.NoMove
	type pair struct{ old, new int32 }
	queue := []pair{{i, 0}}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		n := *t.nodes.at(p.old)
		if n.state != expanded {
			if n.state == pending { // cannot happen between searches; be safe
				dst.at(p.new).state = unexpanded
			}
			continue
		}
		first := dst.alloc(int(n.n))
		copy(dst.span(first, n.n), t.nodes.span(n.first, n.n))
		for k := range n.n {
			queue = append(queue, pair{n.first + k, first + k})
		}
		dst.at(p.new).first = first
	}
	t.spare, t.nodes = t.nodes, t.spare
	t.root = 0
}
