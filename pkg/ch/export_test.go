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
