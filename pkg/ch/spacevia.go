package ch

import "github.com/mapsco/maps/pkg/search"

// SpaceVias finds candidate via nodes for alternatives to route as OSRM's
// CH alternatives and X-CHV do (Abraham, Delling, Goldberg and Werneck,
// "Alternative routes in road networks", 2013): every node both upward
// searches settle, run to limit, is a candidate whose path is the forward
// search tree's path to it and the backward tree's path from it, appended
// to out when that costs less than limit. Its route indexes (see Via) are
// carried along each tree as Vias carries them along its cones.
//
// Unlike Vias, a candidate's cost is that of its tree paths, which may be
// dearer than the best path through its node, and only nodes of both
// search spaces are candidates; but the work is the two upward searches
// alone, whatever the length of the route. On a long route across a
// country the search spaces are large and hold many good detours (three
// quarters of 700 km trips across the 3M-node synthetic country get an
// alternative from them), where Vias's cones above the route grow with its
// length (docs/benchmarks-history.md, issue 37).
//
// The labels stay valid for ViaPath until the next search on q.
func (q *Query) SpaceVias(sources, targets []search.Seed, route []uint32, limit uint32, out []Via) []Via {
	shift := q.settleBoth(sources, targets, route, limit)
	v := q.via
	down, up := &v.cones[0], &v.cones[1]
	for k, u := range v.settled[0] {
		a := v.marks.get(u, markUp)
		if a > settledAt {
			continue // not settled backward
		}
		f, b := down.pre[k], up.pre[settledAt-a]
		total := uint64(f.cost) + uint64(b.cost)
		if total < uint64(shift) || total-uint64(shift) >= uint64(limit) {
			continue
		}
		out = append(out, Via{Node: u, Cost: uint32(total - uint64(shift)),
			Leaves: int(f.route), Joins: int(b.route), at: inSpaces})
	}
	return out
}
