package route

import (
	"slices"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
)

// unloop removes the excursions from a path that come back on themselves,
// in place: where a segment comes round a second time the same way, the
// loop between goes; where it comes back the other way (a spur up a side
// road and back, a U-turn), the spur goes. The via node of an alternative
// is often the tip of such a spur off a good detour, and the detour is
// what remains. via is an index into arcs; unloop returns the index of the
// same arc, or of the arc before the cut when the arc went with it. ok is
// false when a cut leaves two arcs no turn joins, or would remove the
// first arc.
func (r *Router) unloop(arcs []uint32, via int, seen *segMap[int32]) (out []uint32, at int, ok bool) {
	seen.begin(r.g.Net.NumSegments())
	out, at = arcs[:0], via
	for j, x := range arcs {
		s := r.segOf(x)
		i32, again := seen.get(s)
		i := int(i32)
		switch {
		case again && i < len(out) && r.segOf(out[i]) == s && r.g.Original(out[i]) == r.g.Original(x):
			out = out[:i+1] // round a loop back onto the same arc: keep the first time
			if at > i && at <= j {
				at = i
			}
			continue
		case again && i < len(out) && r.segOf(out[i]) == s:
			if i == 0 {
				return nil, 0, false
			}
			out = out[:i] // back along the way it came: drop the spur
			if at >= i && at <= j {
				at = i - 1
			}
			continue
		}
		seen.set(s, int32(len(out)))
		out = append(out, x)
		if j == via {
			at = len(out) - 1
		}
	}
	return out, at, true
}

// pathCost is the time of a path from a to b along arcs under st, from the
// source seed cost of its first arc to the target seed cost of its last;
// ok is false when a turn between two arcs is missing or forbidden now, or
// when the path no longer ends on a target seed's arc: unloop drops a spur
// that passes the target point and comes back the other way, target arc
// and all (on a grid town such a path was kept at the cost of its truncated
// arcs, 14 s faster than the best route).
func (r *Router) pathCost(st *graph.State, e Ends, arcs []uint32) (uint64, bool) {
	if !slices.ContainsFunc(e.Targets, func(s search.Seed) bool { return s.Node == arcs[len(arcs)-1] }) {
		return 0, false
	}
	c := uint64(seedCost(e.Sources, arcs[0]))
	for i := 1; i < len(arcs); i++ {
		w, ok := turnWeight(r.g, st, arcs[i-1], arcs[i])
		if !ok {
			return 0, false
		}
		c += uint64(w)
	}
	t := uint64(seedCost(e.Targets, arcs[len(arcs)-1]))
	return c - min(c, t), true
}
