package ch

import (
	"slices"

	"github.com/mapsco/maps/pkg/search"
)

// Via is a candidate via node for an alternative route: a node both upward
// searches reached, with the cost of going source → node → target through
// their labels (an upper bound on the real via path's cost).
type Via struct {
	Node uint32
	Cost uint32
}

// Vias runs both upward searches to exhaustion below limit (no early stop:
// the alternatives live beyond the best meeting point) and returns the
// nodes settled by both, cheapest first, at most max of them. This is the
// candidate set of the via-node method on a contraction hierarchy
// (Abraham, Delling, Goldberg and Werneck, "Alternative routes in road
// networks", 2010).
func (q *Query) Vias(sources, targets []search.Seed, limit uint32, max int) []Via {
	bias := bias(targets)
	var fwd []Via
	q.upward(&q.fwd, Endpoint{Seeds: sources, Dists: make([]int64, len(sources))}, 0, func(u, c uint32, _ int64) {
		if c < limit {
			fwd = append(fwd, Via{u, c})
		}
	})
	costs := make(map[uint32]uint32, len(fwd))
	for _, v := range fwd {
		costs[v.Node] = v.Cost
	}
	var out []Via
	q.upward(&q.bwd, Endpoint{Seeds: targets, Dists: make([]int64, len(targets))}, bias, func(u, c uint32, _ int64) {
		if f, ok := costs[u]; ok && uint64(f)+uint64(c) >= uint64(bias) {
			if total := uint64(f) + uint64(c) - uint64(bias); total < uint64(limit) {
				out = append(out, Via{u, uint32(total)})
			}
		}
	})
	slices.SortFunc(out, func(a, b Via) int { return int(a.Cost) - int(b.Cost) })
	if len(out) > max {
		out = out[:max]
	}
	return out
}
