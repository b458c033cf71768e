package route

import (
	"math"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// A leg under road operations (graph.Overlay) is first searched on the
// hierarchy, whose times are the graph's own: a lower bound of every cost
// under the operations. When the path found crosses no arc they change,
// it costs the same under them and no other path got cheaper, so it is the
// answer. Otherwise the leg is searched again, exactly, by A* on the turn
// graph under the operations with the hierarchy's distances as potentials
// (potential.go): consistent lower bounds, so the first path to settle the
// target is the fastest, and the search stays near the route, widening only
// as far as the operations' delay. No query goes back to plain Dijkstra.

// crossesOperations reports whether the path res found from ends e enters
// an arc the overlay changes (its start arc included).
func crossesOperations(ov *graph.Overlay, e Ends, res ch.Result) bool {
	if ov == nil {
		return false
	}
	return ov.Has(e.Origin[res.Source]) || ov.Touches(res.Arcs)
}

// repairLeg is the exact leg from a to b under st's operations (see above).
func (r *Router) repairLeg(st *graph.State, e Ends, a, b snap.Result) (Leg, bool) {
	s := penaltyWork.Get().(*penaltySearch)
	defer penaltyWork.Put(s)
	s.begin(len(r.g.Turns.First) - 1) // no arc penalised: the plain fastest path
	leg, ok, _ := r.penaltyLeg(s, st, e, a, b, search.Unreached-1, math.MaxInt)
	cost := uint32(search.Unreached)
	if ok {
		cost = uint32(math.Round(leg.DurationS * 1000))
		leg.via = 0
		if i := sourceOf(e, leg.Arcs[0]); i >= 0 && e.Origin[i] != leg.Arcs[0] {
			leg.Arcs = append([]uint32{e.Origin[i]}, leg.Arcs...)
		}
	}
	if e.Direct != search.Unreached && (!ok || e.Direct <= cost) {
		leg, ok = r.directLeg(st, a, b, e.Direct), true
	}
	leg.Operated = true
	return leg, ok
}

// sourceOf is the index of the source seed on arc, -1 for none.
func sourceOf(e Ends, arc uint32) int {
	for i, s := range e.Sources {
		if s.Node == arc {
			return i
		}
	}
	return -1
}
