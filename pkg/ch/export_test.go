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
	arcs, list, lo, hi, ok := f.edges(u)
	for _, a := range arcs {
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
