package route

import (
	"sync"

	"github.com/mapsco/maps/pkg/elevation"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/snap"
)

// Elevation returns the terrain along rt: metres climbed and descended and
// the steepest grade, over the route's whole geometry, computed as the graph
// compiler computes each edge's (pkg/elevation's Profiler.Route: 30 m
// samples, 150 m smoothing, 3 m hysteresis, 100 m grade window). Pieces on
// bridges and in tunnels are interpolated between the ground heights where
// the structure begins and ends, so the Envalira tunnel does not climb the
// pass above it, and a tunnel cut into several segments is one run. Since
// the smoothed profile keeps its end heights, AscentM − DescentM equals
// EndM − StartM. d is the release's DEM; the Climb's Covered is false when
// no sample of the route lies in coverage.
//
// m holds the height samples mapc stored for every segment: whole segments
// of the route are read from it, and only the parts of segments where legs
// start and end are sampled from d now. With m nil (a release built before
// samples were stored) every piece is sampled now; the answer is the same
// up to float32 rounding of the stored offsets and heights.
func (r *Router) Elevation(d elevation.Sampler, m *elevation.Samples, rt *Route) elevation.Climb {
	w := terrainWork.Get().(*terrainScratch)
	defer terrainWork.Put(w)
	w.prof.Begin(d)
	for i, leg := range rt.Legs {
		w.addLeg(r.g, m, rt.Snapped[i], rt.Snapped[i+1], leg)
	}
	return w.prof.End()
}

// terrainScratch is the memory of one Elevation call: the profile being
// assembled and a piece of line, grown once and reused.
type terrainScratch struct {
	prof elevation.Profiler
	pts  []Point
}

// terrainWork pools terrainScratch across routers and calls. It holds no
// state a caller can observe, only buffers, so sharing it between releases
// and profiles is harmless; without it every directions request would
// allocate and grow slices of its route's length.
var terrainWork = sync.Pool{New: func() any { return new(terrainScratch) }}

// addLeg follows appendShape: the part of the first arc after the start,
// whole middle segments, the part of the last arc before the end.
func (w *terrainScratch) addLeg(g *graph.Graph, m *elevation.Samples, a, b snap.Result, leg Leg) {
	net := g.Net
	if leg.Direct {
		w.line(net, a.Seg, AppendPart(w.pts[:0], net, a.Seg, a.Frac, b.Frac))
		return
	}
	first, last := leg.Arcs[0], leg.Arcs[len(leg.Arcs)-1]
	_, rev := g.ArcSegment(first)
	w.line(net, a.Seg, AppendPart(w.pts[:0], net, a.Seg, a.Frac, boolFrac(!rev)))
	for _, arc := range leg.Arcs[1 : len(leg.Arcs)-1] {
		ref := g.ArcSegRef(arc)
		s, rev := graph.SplitSegRef(ref)
		st := structureOf(net, s)
		from, to := segmentEnds(net, s, rev)
		if !w.prof.Stored(m, s, rev, st, from, to) {
			w.line(net, s, appendSegment(w.pts[:0], net, ref))
		}
	}
	_, rev = g.ArcSegment(last)
	w.line(net, b.Seg, AppendPart(w.pts[:0], net, b.Seg, boolFrac(rev), b.Frac))
}

// line samples pts, a piece of segment s, now.
func (w *terrainScratch) line(net *graph.Network, s uint32, pts []Point) {
	w.pts = pts
	w.prof.Line(pts, structureOf(net, s))
}

// segmentEnds returns segment s's first and last points in the direction
// travelled.
func segmentEnds(net *graph.Network, s uint32, reversed bool) (from, to Point) {
	begin, end := net.Points(s)
	from[0], from[1] = net.Point(begin)
	to[0], to[1] = net.Point(end - 1)
	if reversed {
		from, to = to, from
	}
	return from, to
}

// boolFrac is the fraction of a segment's far end: 1 for its last point.
func boolFrac(toEnd bool) float64 {
	if toEnd {
		return 1
	}
	return 0
}

// structureOf says how segment s meets the terrain.
func structureOf(net *graph.Network, s uint32) elevation.Structure {
	f := net.SegFlags[s]
	return elevation.StructureOf(f&graph.FlagBridge != 0, f&graph.FlagTunnel != 0)
}
