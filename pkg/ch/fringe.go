package ch

import (
	"math/bits"

	"github.com/mapsco/maps/pkg/graph"
)

// A table's upward searches stop at the core (see coretable.go), and on
// the 3M synthetic country's car hierarchy three in four of the edges they
// relax lead into it (2,608 of 3,547 a search), from few nodes: 2,449
// nodes below the core hold all 10,306 edges into or out of it, and every
// search settles some of them. Asking of each edge whether its head is a
// core node cost the searches more than anything else: a bit set too
// large for the first caches, and a branch on the answer, mispredicted a
// quarter of the time.
//
// A fringe therefore holds, for one direction, those nodes' edges split in
// two: the edges into the core, by core index, and the others as the
// hierarchy has them. A search looks up each node it settles (not each
// edge), offers the first to the core and relaxes the second, and relaxes
// the edges of a node outside the fringe without asking anything. It is
// computed once per hierarchy, with the first core table, in a pass over
// its edges (10 ms and 390 KB on that country).

// fringe is one direction's edges of the nodes below the core with an edge
// into it (Up) or out of it (Dn).
type fringe struct {
	nodes nodeIndex
	// first has two entries a fringe node: where its edges begin in below
	// (in edges, 4 words each) and in into, then a last pair for the end.
	first []uint32
	below []uint32  // the edges to nodes outside the core, as in Up or Dn
	into  []coreArc // the others
}

// coreArc is an edge between a node below the core and a core node.
type coreArc struct {
	index, weight, dist uint32 // index in the core
}

// newFringe collects the fringe of one direction's lists (Up or Dn).
func newFringe(first, list []uint32, c *core) *fringe {
	f := &fringe{}
	var nodes []uint32
	for u := range uint32(len(first) - 1) {
		if c.in(u) || !c.anyIn(first, list, u) {
			continue
		}
		nodes = append(nodes, u)
		f.first = append(f.first, uint32(len(f.below)/4), uint32(len(f.into)))
		for i := first[u]; i < first[u+1]; i++ {
			e := at(list, i)
			if c.in(e.other) {
				f.into = append(f.into, coreArc{index: c.index(e.other), weight: e.weight, dist: e.dist})
			} else {
				f.below = append(f.below, list[4*i:4*i+4]...)
			}
		}
	}
	f.first = append(f.first, uint32(len(f.below)/4), uint32(len(f.into)))
	f.nodes = newNodeIndex(nodes)
	return f
}

// anyIn reports whether any edge of u in list leads to a core node.
func (c *core) anyIn(first, list []uint32, u uint32) bool {
	for i := first[u]; i < first[u+1]; i++ {
		if c.in(list[4*i]) {
			return true
		}
	}
	return false
}

// edges returns u's number in the fringe, and its edges to nodes outside
// the core with the list they are in and their range; ok is false when u
// is not in the fringe. Its edges into the core under a state are the
// core table's (coreArcs).
func (f *fringe) edges(u uint32) (i uint32, below []uint32, lo, hi uint32, ok bool) {
	i, ok = f.nodes.find(u)
	if !ok {
		return 0, nil, 0, 0, false
	}
	return i, f.below, f.first[2*i], f.first[2*i+2], true
}

// coreArcs are a fringe's edges into the core under one state, weighed
// under it (coreTable.extra added, those it closes left out), each node's
// without those another of its edges beats through the core: an edge
// u→a when some u→a' has w' + D(a', a) < w (forward; D(a, a') + w' < w
// backward). A search that settles u reaches a through a' for less, so a
// either takes its cost from elsewhere or is a hit that a' covers
// strictly, which coreTable.prune and coreTable.column drop whatever its
// cost: the hits they keep are the same, and so are the cells. On the 3M
// synthetic country 6,106 of the 10,306 edges remain without a state.
type coreArcs struct {
	first []uint32 // per fringe node, then the end
	arcs  []coreArc
}

// of returns fringe node i's edges.
func (c *coreArcs) of(i uint32) []coreArc { return c.arcs[c.first[i]:c.first[i+1]] }

// arcsOf weighs f's edges into the core (up: entering it) under t and
// drops those beaten.
func (t *coreTable) arcsOf(f *fringe, up bool) coreArcs {
	var out coreArcs
	var weighed []coreArc
	for i := 0; i+2 < len(f.first); i += 2 {
		out.first = append(out.first, uint32(len(out.arcs)))
		weighed = weighed[:0]
		for _, a := range f.into[f.first[i+1]:f.first[i+3]] {
			if up {
				x := t.extra[a.index]
				if x == graph.NoWay {
					continue
				}
				a.weight += x
			}
			weighed = append(weighed, a)
		}
		for _, a := range weighed {
			if !t.beaten(a, weighed, up) {
				out.arcs = append(out.arcs, a)
			}
		}
	}
	out.first = append(out.first, uint32(len(out.arcs)))
	return out
}

// beaten reports whether another of arcs, all of one node, reaches a's
// core node (up) or is reached from it for strictly less through the core.
func (t *coreTable) beaten(a coreArc, arcs []coreArc, up bool) bool {
	for _, o := range arcs {
		d := t.cost[int(a.index)*t.k+int(o.index)] // o to a
		if !up {
			d = t.cost[int(o.index)*t.k+int(a.index)] // a to o
		}
		if uint64(o.weight)+uint64(d) < uint64(a.weight) {
			return true
		}
	}
	return false
}

// nodeIndex numbers a set of nodes (i for nodes[i]) in an open-addressing
// table at most half full: 16 KiB for a thousand nodes.
type nodeIndex struct {
	slots []uint64 // node<<32 | number, or emptySlot
	shift uint32   // 32 − log2(len(slots))
}

const emptySlot = ^uint64(0) // node ^0, which no hierarchy has

func newNodeIndex(nodes []uint32) nodeIndex {
	b := max(4, bits.Len(uint(2*len(nodes))))
	x := nodeIndex{slots: make([]uint64, 1<<b), shift: uint32(32 - b)}
	for i := range x.slots {
		x.slots[i] = emptySlot
	}
	mask := uint32(len(x.slots) - 1)
	for n, v := range nodes {
		i := hashNode(v, x.shift)
		for x.slots[i] != emptySlot {
			i = (i + 1) & mask
		}
		x.slots[i] = uint64(v)<<32 | uint64(n)
	}
	return x
}

// find returns v's number, ok false when v is not in the set.
func (x *nodeIndex) find(v uint32) (n uint32, ok bool) {
	mask := uint32(len(x.slots) - 1)
	for i := hashNode(v, x.shift); ; i = (i + 1) & mask {
		s := x.slots[i]
		if uint32(s>>32) == v {
			return uint32(s), true
		}
		if s == emptySlot {
			return 0, false
		}
	}
}

// hashNode is Fibonacci hashing, as search.Labels hashes nodes.
func hashNode(v, shift uint32) uint32 { return (v * 0x9E3779B9) >> shift }

// uncrossed drops from one target's buckets, in place, those at a fringe
// node u that the core beats strictly for every source: some edge u→a into
// the core (upArcs) has w + col[a] < the bucket's cost, col being the
// target's column (costs biased alike). A source's search that settles u
// reaches a for at most its cost at u plus w, and its crossing to the target
// through a, or through a hit that covers a, costs at most that plus col[a],
// below what the bucket offers, so the bucket never sets a cell. The fringe
// holds the nodes with the most buckets, which every forward search reads.
func (t *coreTable) uncrossed(list []bucket, col []uint32) []bucket {
	kept := list[:0]
	for _, b := range list {
		if i, ok := t.up.nodes.find(b.node); ok && crossedBelow(t.upArcs.of(i), col, b.cost) {
			continue
		}
		kept = append(kept, b)
	}
	return kept
}

// crossedBelow reports whether one of a node's arcs into the core, then the
// column, costs less than cost.
func crossedBelow(arcs []coreArc, col []uint32, cost uint32) bool {
	for _, a := range arcs {
		if uint64(a.weight)+uint64(col[a.index]) < uint64(cost) {
			return true
		}
	}
	return false
}
