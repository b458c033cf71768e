package ch

import (
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
)

// CrossCore computes h's core table under st, for the benchmarks.
func CrossCore(h *Hierarchy, st *graph.State) { h.crossCore(st) }

// MeetsAcross reports whether q's best meeting from sources to targets is
// across the core by its table, for the tests to count them.
func MeetsAcross(q *Query, sources, targets []search.Seed) bool {
	m := q.meet(sources, targets)
	return m.from != m.to
}

// FringeEdges splits node u's edges in one direction (Up when up) as the
// fringe of h's core does: the heads (tails for Dn) and weights of its
// edges into the core, and of its others; ok is false when u is not in the
// fringe. h must have a core table.
func FringeEdges(h *Hierarchy, up bool, u uint32) (into, below [][2]uint32, ok bool) {
	ct := h.coreTable(nil)
	f := ct.dn
	if up {
		f = ct.up
	}
	i, list, lo, hi, ok := f.edges(u)
	if !ok {
		return nil, nil, false
	}
	for _, a := range f.into[f.first[2*i+1]:f.first[2*i+3]] {
		into = append(into, [2]uint32{h.core.nodes[a.index], a.weight})
	}
	for i := lo; i < hi; i++ {
		e := at(list, i)
		below = append(below, [2]uint32{e.other, e.weight})
	}
	return into, below, ok
}

// CoreNodes lists h's core nodes.
func CoreNodes(h *Hierarchy) []uint32 {
	if h.core == nil {
		return nil
	}
	return h.core.nodes
}

// CoreArcs returns, for fringe node u in one direction (up: Up), its edges
// into the core as the fringe holds them and as h's core table without a
// state keeps them ({core node, weight} each), and the cost across the
// core from one core node to another; ok is false when u is not in the
// fringe.
func CoreArcs(h *Hierarchy, up bool, u uint32) (all, kept [][2]uint32, across func(a, b uint32) uint32, ok bool) {
	ct := h.coreTable(nil)
	f, arcs := ct.dn, &ct.dnArcs
	if up {
		f, arcs = ct.up, &ct.upArcs
	}
	i, _, _, _, ok := f.edges(u)
	if !ok {
		return nil, nil, nil, false
	}
	for _, a := range f.into[f.first[2*i+1]:f.first[2*i+3]] {
		all = append(all, [2]uint32{h.core.nodes[a.index], a.weight})
	}
	for _, a := range arcs.of(i) {
		kept = append(kept, [2]uint32{h.core.nodes[a.index], a.weight})
	}
	across = func(a, b uint32) uint32 {
		return ct.cost[int(h.core.index(b))*ct.k+int(h.core.index(a))]
	}
	return all, kept, across, true
}

// EdgeArcs returns the arcs whose times the weight of entry i of Up (up)
// or Dn holds, unpacked to original edges: each original edge's head (for
// Up, other; for Dn, the node it is stored at).
func EdgeArcs(q *Query, up bool, owner, i uint32) []uint32 {
	h := q.h
	var e edge
	var first hop
	if up {
		e = at(h.Up, i)
		first = hop{from: owner, to: e.other, middle: e.middle, weight: e.weight}
	} else {
		e = at(h.Dn, i)
		first = hop{from: e.other, to: owner, middle: e.middle, weight: e.weight}
	}
	return q.expand(nil, first)
}

// Tainted reports whether t marks entry i of Up (up) or Dn.
func Tainted(t *Taint, up bool, i uint32) bool { return t.at(up, i) }
