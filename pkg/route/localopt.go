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
// side trip up a valley and back). Only the turns inside the window are
// read.
func (r *Router) locallyOptimal(q *ch.Query, leg Leg, bestCost uint32) bool {
	arcs, st := leg.Arcs, q.State()
	window := uint64(LocalWindow * float64(graph.Unpenalised(bestCost)))
	x, y := leg.via, leg.via
	var before, after uint64 // time from x's end to the via arc's, from its end to y's
	for x > 0 && before < window {
		w, ok := turnWeight(r.g, st, arcs[x-1], arcs[x])
		if !ok {
			return false
		}
		before += uint64(w)
		x--
	}
	for y < len(arcs)-1 && after < window {
		w, ok := turnWeight(r.g, st, arcs[y], arcs[y+1])
		if !ok {
			return false
		}
		after += uint64(w)
		y++
	}
	if x == y {
		return true
	}
	stretch := before + after
	if stretch >= search.Unreached {
		return false
	}
	return !q.CheaperThan(arcs[x], arcs[y], uint32(stretch))
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
