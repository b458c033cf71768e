package route

import (
	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
)

// locallyOptimal is the T-test of Abraham et al.: the stretch of the
// alternative from LocalWindow of the best route's time before its via arc
// to as much after it must itself be a shortest path. A path that passes
// makes no detour a driver would see through (a loop around a block, a
// side trip up a valley and back). cum is scratch memory, returned grown.
func (r *Router) locallyOptimal(q *ch.Query, e Ends, leg Leg, bestCost uint32, cum []uint64) (bool, []uint64) {
	arcs := leg.Arcs
	cum = cum[:0]
	for i := range arcs {
		if i == 0 {
			var c uint64
			for _, s := range e.Sources {
				if s.Node == arcs[0] {
					c = uint64(s.Cost)
				}
			}
			cum = append(cum, c) // time to each arc's end along the alternative
			continue
		}
		w, ok := turnWeight(r.g, q.State(), arcs[i-1], arcs[i])
		if !ok {
			return false, cum
		}
		cum = append(cum, cum[i-1]+uint64(w))
	}
	window := uint64(LocalWindow * float64(bestCost))
	x, y := leg.via, leg.via
	for x > 0 && cum[leg.via]-cum[x] < window {
		x--
	}
	for y < len(arcs)-1 && cum[y]-cum[leg.via] < window {
		y++
	}
	if x == y {
		return true, cum
	}
	c, ok := q.Cost([]search.Seed{{Node: arcs[x]}}, []search.Seed{{Node: arcs[y]}})
	return ok && uint64(c) == cum[y]-cum[x], cum
}

// turnWeight is the weight of the turn a→b under st; ok is false when there
// is none or it is forbidden now.
func turnWeight(g *graph.Graph, st *graph.State, a, b uint32) (uint32, bool) {
	begin, end := g.Turns.Out(a)
	for i := begin; i < end; i++ {
		if to, w, _ := g.Turn(i); to == b {
			w = st.Edge(a, b, w, true)
			return w, w != graph.NoWay
		}
	}
	return 0, false
}
