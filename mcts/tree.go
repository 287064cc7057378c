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
	nodes []node
	spare []node // the other arena, for compaction
	root  int32
}

func (t *tree) reset() {
	t.nodes = append(t.nodes[:0], node{})
	t.root = 0
}

// children returns the children of node i.
func (t *tree) children(i int32) []node {
	n := &t.nodes[i]
	return t.nodes[n.first : n.first+n.n]
}

// expand creates the children of node i with the given moves and priors;
// v is the evaluator's value of node i for its side to move.
func (t *tree) expand(i int32, moves []rules.Move, priors []float32, v float64) {
	first := int32(len(t.nodes))
	for k, m := range moves {
		t.nodes = append(t.nodes, node{move: m, prior: priors[k]})
	}
	n := &t.nodes[i]
	n.first, n.n, n.state, n.value = first, int32(len(moves)), expanded, float32(v)
}

// child returns the index of node i's child reached by m, or -1.
func (t *tree) child(i int32, m rules.Move) int32 {
	n := &t.nodes[i]
	if n.state != expanded {
		return -1
	}
	for c := n.first; c < n.first+n.n; c++ {
		if t.nodes[c].move == m {
			return c
		}
	}
	return -1
}

// promote makes node i the root, copying its subtree into the spare arena
// (breadth first, children blocks kept contiguous) and dropping the rest.
func (t *tree) promote(i int32) {
	dst := append(t.spare[:0], t.nodes[i])
	dst[0].move = rules.NoMove
	type pair struct{ old, new int32 }
	queue := []pair{{i, 0}}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		n := t.nodes[p.old]
		if n.state != expanded {
			if n.state == pending { // cannot happen between searches; be safe
				dst[p.new].state = unexpanded
			}
			continue
		}
		first := int32(len(dst))
		for c := n.first; c < n.first+n.n; c++ {
			dst = append(dst, t.nodes[c])
			queue = append(queue, pair{c, int32(len(dst) - 1)})
		}
		dst[p.new].first = first
	}
	t.spare, t.nodes = t.nodes, dst
	t.root = 0
}
