package route

import (
	"context"

	"github.com/mapsco/maps/pkg/search"
)

// AlternativesFromSpaces is Alternatives with its candidates taken from
// the search spaces whatever the route's length (for tests of that way on
// short routes).
func (r *Router) AlternativesFromSpaces(ctx context.Context, best *Route, n int) []*Route {
	return r.alternatives(ctx, best, n, true)
}

// Potentials returns the penalty search's potential of each arc in arcs
// towards targets (for tests of potential.go).
func (r *Router) Potentials(targets []search.Seed, arcs []uint32) []uint32 {
	var p potentials
	p.reset(r.h, targets)
	out := make([]uint32, len(arcs))
	for i, a := range arcs {
		out[i] = p.at(a)
	}
	return out
}

// LegShape is the geometry of leg i of rt alone, from its waypoint to the
// next (for tests of the route's headings at each waypoint).
func (rt *Route) LegShape(i int) []Point {
	w := collector(nil)
	w.leg(rt.g, rt.Snapped[i], rt.Snapped[i+1], rt.Legs[i])
	return w.pts
}
