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
func (r *Router) Elevation(d elevation.Sampler, rt *Route) elevation.Climb {
	w := terrainWork.Get().(*terrainScratch)
	defer terrainWork.Put(w)
	l := &w.line
	l.pts, l.structs = l.pts[:0], l.structs[:0]
	for i, leg := range rt.Legs {
		l.addLeg(r.g, rt.Snapped[i], rt.Snapped[i+1], leg)
	}
	return w.prof.Route(d, l.pts, l.structs)
}

// terrainScratch is the memory of one Elevation call: a route's line and
// its sampled profile, thousands of points each, grown once and reused.
type terrainScratch struct {
	line terrainLine
	prof elevation.Profiler
}

// terrainWork pools terrainScratch across routers and calls. It holds no
// state a caller can observe, only buffers, so sharing it between releases
// and profiles is harmless; without it every directions request would
// allocate and grow four slices of its route's length.
var terrainWork = sync.Pool{New: func() any { return new(terrainScratch) }}

// terrainLine is a route's shape with the structure of each of its
// segments: structs[i] belongs to pts[i]→pts[i+1].
type terrainLine struct {
	pts     []Point
	structs []elevation.Structure
}

// addLeg follows appendShape: the part of the first arc after the start,
// whole middle segments, the part of the last arc before the end.
func (l *terrainLine) addLeg(g *graph.Graph, a, b snap.Result, leg Leg) {
	net := g.Net
	if leg.Direct {
		l.add(net, a.Seg, func(pts []Point) []Point { return AppendPart(pts, net, a.Seg, a.Frac, b.Frac) })
		return
	}
	first, last := leg.Arcs[0], leg.Arcs[len(leg.Arcs)-1]
	_, rev := graph.SplitSegRef(g.Fwd.Edges[3*first+2])
	l.add(net, a.Seg, func(pts []Point) []Point { return AppendPart(pts, net, a.Seg, a.Frac, boolFrac(!rev)) })
	for _, arc := range leg.Arcs[1 : len(leg.Arcs)-1] {
		ref := g.Fwd.Edges[3*arc+2]
		s, _ := graph.SplitSegRef(ref)
		l.add(net, s, func(pts []Point) []Point { return appendSegment(pts, net, ref) })
	}
	_, rev = graph.SplitSegRef(g.Fwd.Edges[3*last+2])
	l.add(net, b.Seg, func(pts []Point) []Point { return AppendPart(pts, net, b.Seg, boolFrac(rev), b.Frac) })
}

// add appends a piece of segment s's shape with appendPiece and gives every
// new segment of the line s's structure. A piece's first point usually
// repeats the line's last and is dropped, so the segment leading to the
// first new point belongs to the piece, as it should.
func (l *terrainLine) add(net *graph.Network, s uint32, appendPiece func([]Point) []Point) {
	n := len(l.pts)
	l.pts = appendPiece(l.pts)
	st := structureOf(net.SegFlags[s])
	for i := max(n, 1); i < len(l.pts); i++ {
		l.structs = append(l.structs, st)
	}
}

// boolFrac is the fraction of a segment's far end: 1 for its last point.
func boolFrac(toEnd bool) float64 {
	if toEnd {
		return 1
	}
	return 0
}

// structureOf maps segment flags to how the segment meets the terrain.
func structureOf(flags uint8) elevation.Structure {
	switch {
	case flags&graph.FlagTunnel != 0:
		return elevation.Tunnel
	case flags&graph.FlagBridge != 0:
		return elevation.Bridge
	}
	return elevation.Ground
}
