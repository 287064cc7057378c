package mcts

// arena holds the nodes of a tree in fixed blocks that are never moved: a
// growing tree allocates a new block instead of copying the old ones (a
// slice doubling copies the whole tree, hundreds of megabytes on a big
// reused tree: a stall a timed search cannot afford). A node's children
// are contiguous within one block. Index i is node i&blockMask of block
// i>>blockBits; the blocks are kept across resets.
type arena struct {
	blocks [][]node
	size   int32 // the next free index (the nodes in use, and the few left free at a block's end)
}

const (
	blockBits = 13 // 8192 nodes, 320 KiB: a small tree costs little, a big one never moves
	blockSize = 1 << blockBits
	blockMask = blockSize - 1
)

// at returns node i.
func (a *arena) at(i int32) *node { return &a.blocks[i>>blockBits][i&blockMask] }

// span returns the n nodes from i (within one block).
func (a *arena) span(i, n int32) []node {
	b := a.blocks[i>>blockBits]
	off := i & blockMask
	return b[off : off+n]
}

// alloc reserves k contiguous zero nodes and returns the first's index; a
// run that would cross a block's end starts the next block.
func (a *arena) alloc(k int) int32 {
	if k > blockSize {
		panic("mcts: a node with more children than a block holds")
	}
	if off := int(a.size & blockMask); off+k > blockSize {
		a.size += int32(blockSize - off) // the rest of this block stays unused
	}
	first := a.size
	for need := int(first>>blockBits) + (int(first&blockMask)+k-1)>>blockBits; len(a.blocks) <= need; {
		a.blocks = append(a.blocks, make([]node, blockSize))
	}
	a.size += int32(k)
	clear(a.span(first, int32(k))) // blocks are reused after a reset
	return first
}

// push appends one node and returns its index.
func (a *arena) push(n node) int32 {
	i := a.alloc(1)
	*a.at(i) = n
	return i
}

// truncate drops every node.
func (a *arena) truncate() { a.size = 0 }
