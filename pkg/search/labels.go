package search

import "unsafe"

// Labels is a search's working memory: one value of type T for each node
// the search touches, in space proportional to the nodes touched rather
// than to the graph. A search on a country touches a few thousand of its
// millions of nodes; arrays the size of the graph, one per search in
// flight, made a server's memory grow with its clients (issue 25: 1.2 GiB
// at 64 connections on the 3M-node synthetic country). This is the
// hash-based storage of OSRM's per-thread query heaps
// (util::UnorderedMapStorage), kept by a fixed set of workers (Pool).
//
// It is an open-addressing hash table with linear probing, at most a
// quarter full (short probes: most lookups read one slot), whose slots hold the values themselves, so a lookup touches one
// cache line, as an array indexed by node would. Slots carry the
// generation they were written in, so Reset empties the table in O(1);
// only a wrap of the generation counter clears them. For a search of a few
// thousand nodes the table fits in the caches where the graph-sized arrays
// it replaces missed on most labels.
//
// On a small graph, one whose labels all fit in denseBytes, Fit makes the
// table an array indexed by node instead (slot i is node i's): as fast as
// the graph-sized arrays were, and no bigger than the hash tables a
// country's searches grow.
//
// The zero Labels is empty and ready. Pointers returned by Get, Add and At
// are valid until the next Add or Reset, which may move the values.
type Labels[T any] struct {
	slots []slot[T]
	order []uint32 // the slots labelled, in the order their nodes were added
	gen   uint32   // generation of the occupied slots; never 0 once slots exist
	shift uint32   // 32 − log2(len(slots)): the hash keeps the top bits
	dense bool     // slots is indexed by node (see Fit)
}

type slot[T any] struct {
	gen, node uint32
	val       T
}

const (
	// denseBytes is the most a Labels holds as an array indexed by node:
	// Andorra's graphs fit, a country's do not.
	denseBytes  = 1 << 20
	minSlotBits = 10
	// keepSlots bounds the table a Labels keeps between searches: a search
	// that needed more (an isochrone over a large area) gives the memory
	// back at the next Reset instead of holding it for every later one.
	keepSlots = 1 << 20
)

// Fit tells the table that nodes are below n, before a search on a graph
// of n nodes: it becomes an array indexed by node when n slots fit in
// denseBytes, and a hash table otherwise. It forgets every label.
func (l *Labels[T]) Fit(n int) {
	dense := n*int(unsafe.Sizeof(slot[T]{})) <= denseBytes
	switch {
	case dense && l.dense && len(l.slots) >= n:
		l.Reset()
	case dense:
		*l = Labels[T]{slots: make([]slot[T], n), gen: 1, dense: true, order: l.order[:0]}
	case l.dense:
		*l = Labels[T]{}
	default:
		l.Reset()
	}
}

// Reset forgets every label.
func (l *Labels[T]) Reset() {
	if len(l.slots) > keepSlots && !l.dense {
		*l = Labels[T]{}
		return
	}
	l.order = l.order[:0]
	l.gen++
	if l.gen == 0 { // wrapped: old slots could look current
		clear(l.slots)
		l.gen = 1
	}
}

// Len returns the number of nodes labelled since the last Reset.
func (l *Labels[T]) Len() int { return len(l.order) }

// Node returns the i-th node labelled (0 ≤ i < Len).
func (l *Labels[T]) Node(i int) uint32 { return l.slots[l.order[i]].node }

// At returns the value of the i-th node labelled (0 ≤ i < Len).
func (l *Labels[T]) At(i int) *T { return &l.slots[l.order[i]].val }

// Get returns node's value, or nil when the node has none.
func (l *Labels[T]) Get(node uint32) *T {
	if l.dense {
		if s := &l.slots[node]; s.gen == l.gen {
			return &s.val
		}
		return nil
	}
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
			return &s.val
		}
	}
}

// Add returns node's value, adding a zero one (added true) when the node
// has none.
func (l *Labels[T]) Add(node uint32) (v *T, added bool) {
	if l.dense {
		s := &l.slots[node]
		if s.gen == l.gen {
			return &s.val, false
		}
		*s = slot[T]{gen: l.gen, node: node}
		l.order = append(l.order, node)
		return &s.val, true
	}
	if 4*(len(l.order)+1) > len(l.slots) {
		l.grow()
	}
	mask := uint32(len(l.slots) - 1)
	for i := hashNode(node, l.shift); ; i = (i + 1) & mask {
		s := &l.slots[i]
		if s.gen != l.gen {
			*s = slot[T]{gen: l.gen, node: node}
			l.order = append(l.order, i)
			return &s.val, true
		}
		if s.node == node {
			return &s.val, false
		}
	}
}

// grow doubles the table (or makes its first one) and moves the labels.
func (l *Labels[T]) grow() {
	bits := uint32(minSlotBits)
	for 1<<bits < 4*(len(l.order)+1) || 1<<bits <= len(l.slots) {
		bits++
	}
	old := l.slots
	l.slots = make([]slot[T], 1<<bits)
	l.shift = 32 - bits
	l.gen = 1
	mask := uint32(len(l.slots) - 1)
	for k, at := range l.order {
		s := old[at]
		i := hashNode(s.node, l.shift)
		for l.slots[i].gen == l.gen {
			i = (i + 1) & mask
		}
		s.gen = l.gen
		l.slots[i] = s
		l.order[k] = i
	}
}

// hashNode is Fibonacci hashing: the top bits of node × 2³²/φ spread
// consecutive ids, which neighbouring arcs have, over the whole table.
// (Keeping blocks of 8 consecutive ids in consecutive slots, for an
// array's locality, measured no faster.)
func hashNode(node, shift uint32) uint32 { return (node * 0x9E3779B9) >> shift }
