package search

// Labels is a search's working memory: one value of type T for each node
// the search touches, in space proportional to the nodes touched rather
// than to the graph. A search on a country touches a few thousand of its
// millions of nodes; arrays the size of the graph, one per search in
// flight, made a server's memory grow with its clients (issue 25: 1.2 GiB
// at 64 connections on the 3M-node synthetic country). This is the
// hash-based storage of OSRM's per-thread query heaps
// (util::UnorderedMapStorage), kept by a fixed set of workers (Pool).
//
// It is an open-addressing hash table with linear probing from node to an
// index into a dense slice of values, at most half full. Slots carry the
// generation they were written in, so Reset empties the table in O(1);
// only a wrap of the generation counter clears them. The table fits in the
// caches where the graph-sized arrays it replaces missed on every label.
//
// The zero Labels is empty and ready. Pointers returned by Get and Add are
// valid until the next Add or Reset, which may move the values.
type Labels[T any] struct {
	slots []slot
	vals  []T
	nodes []uint32 // nodes[i] is the node of vals[i]
	gen   uint32   // generation of the occupied slots; never 0 once slots exist
	shift uint32   // 32 − log2(len(slots)): the hash keeps the top bits
}

type slot struct{ gen, node, index uint32 }

const (
	minSlotBits = 10
	// keepSlots bounds the table a Labels keeps between searches: a search
	// that needed more (an isochrone over a large area) gives the memory
	// back at the next Reset instead of holding it for every later one.
	keepSlots = 1 << 20
)

// Reset forgets every label.
func (l *Labels[T]) Reset() {
	if len(l.slots) > keepSlots {
		*l = Labels[T]{}
		return
	}
	l.vals, l.nodes = l.vals[:0], l.nodes[:0]
	l.gen++
	if l.gen == 0 { // wrapped: old slots could look current
		clear(l.slots)
		l.gen = 1
	}
}

// Len returns the number of nodes labelled since the last Reset.
func (l *Labels[T]) Len() int { return len(l.vals) }

// Node returns the i-th node labelled (0 ≤ i < Len), and At its value.
func (l *Labels[T]) Node(i int) uint32 { return l.nodes[i] }

// At returns the value of the i-th node labelled (0 ≤ i < Len).
func (l *Labels[T]) At(i int) *T { return &l.vals[i] }

// Get returns node's value, or nil when the node has none.
func (l *Labels[T]) Get(node uint32) *T {
	if len(l.slots) == 0 {
		return nil
	}
	mask := uint32(len(l.slots) - 1)
	for i := hashNode(node, l.shift); ; i = (i + 1) & mask {
		s := &l.slots[i]
		if s.gen != l.gen {
			return nil
		}
		if s.node == node {
			return &l.vals[s.index]
		}
	}
}

// Add returns node's value, adding a zero one (added true) when the node
// has none.
func (l *Labels[T]) Add(node uint32) (v *T, added bool) {
	if 2*(len(l.vals)+1) > len(l.slots) {
		l.grow()
	}
	mask := uint32(len(l.slots) - 1)
	for i := hashNode(node, l.shift); ; i = (i + 1) & mask {
		s := &l.slots[i]
		if s.gen != l.gen {
			*s = slot{gen: l.gen, node: node, index: uint32(len(l.vals))}
			var zero T
			l.vals = append(l.vals, zero)
			l.nodes = append(l.nodes, node)
			return &l.vals[len(l.vals)-1], true
		}
		if s.node == node {
			return &l.vals[s.index], false
		}
	}
}

// grow doubles the table (or makes its first one) and places the labelled
// nodes again.
func (l *Labels[T]) grow() {
	bits := uint32(minSlotBits)
	for 1<<bits < 2*(len(l.vals)+1) || 1<<bits <= len(l.slots) {
		bits++
	}
	l.slots = make([]slot, 1<<bits)
	l.shift = 32 - bits
	l.gen = 1
	mask := uint32(len(l.slots) - 1)
	for k, node := range l.nodes {
		i := hashNode(node, l.shift)
		for l.slots[i].gen == l.gen {
			i = (i + 1) & mask
		}
		l.slots[i] = slot{gen: l.gen, node: node, index: uint32(k)}
	}
}

// hashNode is Fibonacci hashing: the top bits of node × 2³²/φ spread
// consecutive ids, which neighbouring arcs have, over the whole table.
func hashNode(node, shift uint32) uint32 { return (node * 0x9E3779B9) >> shift }
