package route

import "github.com/mapsco/maps/pkg/search"

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
