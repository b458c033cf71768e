package route

import (
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/snap"
)

// Point is [lon, lat] in degrees, the API's order.
type Point = [2]float64

// shapeWriter receives a line's points in order and drops a point that
// repeats the last one. It either collects them (add nil) or hands each to
// add, which appends it to dst: an answer encodes a route's shape as it is
// walked, with no slice of points in between (on a 700 km route that slice
// was 70 KB per request, written once and read once).
type shapeWriter struct {
	last Point
	n    int     // points written
	pts  []Point // the points, when add is nil
	dst  []byte
	add  func([]byte, Point) []byte
}

// collector returns a writer that appends to pts.
func collector(pts []Point) shapeWriter {
	w := shapeWriter{pts: pts, n: len(pts)}
	if w.n > 0 {
		w.last = pts[w.n-1]
	}
	return w
}

// put writes p unless it repeats the last point.
func (w *shapeWriter) put(p Point) {
	if w.n > 0 && w.last == p {
		return
	}
	w.last = p
	w.n++
	if w.add != nil {
		w.dst = w.add(w.dst, p)
		return
	}
	w.pts = append(w.pts, p)
}

// segment writes a whole segment's shape in the direction travelled.
func (w *shapeWriter) segment(net *graph.Network, segRef uint32) {
	s, reversed := graph.SplitSegRef(segRef)
	begin, end := net.Points(s)
	if !reversed {
		for i := begin; i < end; i++ {
			lon, lat := net.Point(i)
			w.put(Point{lon, lat})
		}
		return
	}
	for i := end; i > begin; i-- {
		lon, lat := net.Point(i - 1)
		w.put(Point{lon, lat})
	}
}

// appendSegment adds a whole segment's shape in the direction travelled.
func appendSegment(pts []Point, net *graph.Network, segRef uint32) []Point {
	w := collector(pts)
	w.segment(net, segRef)
	return w.pts
}

// AppendPart adds the part of segment s between fractions a and b of its
// length, in that order (backwards when b < a).
func AppendPart(pts []Point, net *graph.Network, s uint32, a, b float64) []Point {
	w := collector(pts)
	w.part(net, s, a, b)
	return w.pts
}

// part writes the part of segment s between fractions a and b of its
// length, in that order (backwards when b < a).
func (w *shapeWriter) part(net *graph.Network, s uint32, a, b float64) {
	begin, end := net.Points(s)
	var room [64]float64 // most segments have fewer points: no allocation
	cum := room[:0]      // distance from the first point
	total := 0.0
	for i := begin; i < end; i++ {
		if i > begin {
			aLon, aLat := net.Point(i - 1)
			bLon, bLat := net.Point(i)
			total += geo.Distance(aLon, aLat, bLon, bLat)
		}
		cum = append(cum, total)
	}
	w.put(pointAt(net, begin, cum, a*total))
	if a <= b {
		for i := range cum {
			if d := cum[i]; d > a*total && d < b*total {
				lon, lat := net.Point(begin + uint32(i))
				w.put(Point{lon, lat})
			}
		}
	} else {
		for i := len(cum) - 1; i >= 0; i-- {
			if d := cum[i]; d < a*total && d > b*total {
				lon, lat := net.Point(begin + uint32(i))
				w.put(Point{lon, lat})
			}
		}
	}
	w.put(pointAt(net, begin, cum, b*total))
}

// pointAt interpolates the point at distance d along a shape.
func pointAt(net *graph.Network, begin uint32, cum []float64, d float64) Point {
	for i := 1; i < len(cum); i++ {
		if d <= cum[i] || i == len(cum)-1 {
			t := 0.0
			if span := cum[i] - cum[i-1]; span > 0 {
				t = min(1, max(0, (d-cum[i-1])/span))
			}
			aLon, aLat := net.Point(begin + uint32(i-1))
			bLon, bLat := net.Point(begin + uint32(i))
			return Point{aLon + (bLon-aLon)*t, aLat + (bLat-aLat)*t}
		}
	}
	lon, lat := net.Point(begin)
	return Point{lon, lat}
}

// leg writes a leg's shape from a to b: the part of its first arc after a,
// its whole arcs between, the part of its last before b.
func (w *shapeWriter) leg(g *graph.Graph, a, b snap.Result, leg Leg) {
	net := g.Net
	if leg.Direct {
		w.part(net, a.Seg, a.Frac, b.Frac)
		return
	}
	first, last := leg.Arcs[0], leg.Arcs[len(leg.Arcs)-1]
	if _, rev := g.ArcSegment(first); rev {
		w.part(net, a.Seg, a.Frac, 0)
	} else {
		w.part(net, a.Seg, a.Frac, 1)
	}
	for _, arc := range leg.Arcs[1 : len(leg.Arcs)-1] {
		w.segment(net, g.ArcSegRef(arc))
	}
	if _, rev := g.ArcSegment(last); rev {
		w.part(net, b.Seg, 1, b.Frac)
	} else {
		w.part(net, b.Seg, 0, b.Frac)
	}
}

// route writes rt's whole shape. RFC 7946 wants two positions in a
// LineString: a route of no length (two waypoints at one place) is drawn
// from the place to itself.
func (w *shapeWriter) route(rt *Route) {
	for i, leg := range rt.Legs {
		w.leg(rt.g, rt.Snapped[i], rt.Snapped[i+1], leg)
	}
	if w.n == 1 {
		w.n = 0 // the repeat is wanted here
		w.put(w.last)
	}
}

// Shape returns the route's geometry: at least two points, consecutive
// ones distinct unless the route has no length, in which case it repeats
// its one point.
func (rt *Route) Shape() []Point {
	w := collector(make([]Point, 0, rt.MaxPoints()))
	w.route(rt)
	return w.pts
}

// AppendShape appends the route's geometry (Shape's points) to dst with
// add, one point at a time, without holding the points: how an answer
// encodes it. add must not keep the slice it is given.
func (rt *Route) AppendShape(dst []byte, add func(dst []byte, p Point) []byte) []byte {
	w := shapeWriter{dst: dst, add: add}
	w.route(rt)
	return w.dst
}

// MaxPoints is at least the number of points in the route's Shape, for
// sizing what holds it.
func (rt *Route) MaxPoints() int {
	n := 1 // a route of no length repeats its one point
	for _, leg := range rt.Legs {
		n += leg.points
	}
	return n
}
