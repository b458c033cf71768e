package route

import (
	"math"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/polyline"
	"github.com/mapsco/maps/pkg/snap"
)

// Point is [lon, lat] in degrees, the API's order.
type Point = [2]float64

// shapeWriter receives a line's points in order and drops a point that
// repeats the last one. It either collects them or encodes each as a
// polyline onto dst: an answer encodes a route's shape as it is walked,
// with no slice of points in between (on a 700 km route that slice was
// 70 KB per request, written once and read once).
type shapeWriter struct {
	last   Point
	n      int     // points written
	pts    []Point // the points, unless encoding
	encode bool
	enc    polyline.Encoder
	dst    []byte
	// Stored points, when encoding polyline6, go from fixed point to the
	// encoding in integers (e7To6): last is then lastFixed, if lastIsFixed.
	fixed       bool
	lastIsFixed bool
	lastFixed   [2]int32
	touched     int32 // see arcs: kept only so that the reads it takes are not dropped
}

// collector returns a writer that appends to pts.
func collector(pts []Point) shapeWriter {
	w := shapeWriter{pts: pts, n: len(pts)}
	if w.n > 0 {
		w.last = pts[w.n-1]
	}
	return w
}

// encoder returns a writer that appends the polyline encoding of the
// points at precision to dst.
func encoder(dst []byte, precision int) shapeWriter {
	return shapeWriter{encode: true, enc: polyline.NewEncoder(precision), dst: dst, fixed: precision == 6 && geo.Scale == 1e7}
}

// put writes p unless it repeats the last point.
func (w *shapeWriter) put(p Point) {
	if w.n > 0 && w.lastPoint() == p {
		return
	}
	w.last, w.lastIsFixed = p, false
	w.n++
	if w.encode {
		w.dst = w.enc.Append(w.dst, p)
		return
	}
	w.pts = append(w.pts, p)
}

// lastPoint is the last point written, in degrees.
func (w *shapeWriter) lastPoint() Point {
	if w.lastIsFixed {
		return Point{geo.Degrees(w.lastFixed[0]), geo.Degrees(w.lastFixed[1])}
	}
	return w.last
}

// vertex writes stored point i of net unless it repeats the last point.
func (w *shapeWriter) vertex(net *graph.Network, i uint32) {
	if !w.fixed {
		lon, lat := net.Point(i)
		w.put(Point{lon, lat})
		return
	}
	w.fixedVertex(net.GeomCoord[2*i], net.GeomCoord[2*i+1])
}

// fixedVertex writes a stored point, in fixed point, unless it repeats the
// last point (comparing fixed points is comparing their degrees: Degrees
// is one-to-one).
func (w *shapeWriter) fixedVertex(lon, lat int32) {
	p := [2]int32{lon, lat}
	if w.n > 0 && (w.lastIsFixed && w.lastFixed == p || !w.lastIsFixed && w.last == Point{geo.Degrees(lon), geo.Degrees(lat)}) {
		return
	}
	w.lastFixed, w.lastIsFixed = p, true
	w.n++
	w.dst = w.enc.AppendScaled(w.dst, e7To6(lat), e7To6(lon))
}

// e7To6 is polyline6's rounding of a stored coordinate (geo.Scale 1e7),
// round(geo.Degrees(x) × 1e6) half away from zero, in integers: x/10
// rounded. Unless x/10 is a tie (x%10 is ±5), the float expression's error
// (below 1e-7 for any longitude) cannot carry it across a rounding boundary
// 0.1 away, so both agree; a tie is left to the float expression, which is
// what answers have always held.
func e7To6(x int32) int64 {
	q := x / 10
	r := x - 10*q // x%10
	if r*r == 25 {
		return e7To6Tie(x)
	}
	return int64(q + r/6) // r/6: 1 for 6..9, −1 for −9..−6, else 0
}

// e7To6Tie is e7To6 for a tie, apart so that e7To6 inlines.
func e7To6Tie(x int32) int64 { return int64(math.Round(geo.Degrees(x) * 1e6)) }

// segment writes a whole segment's shape in the direction travelled.
func (w *shapeWriter) segment(net *graph.Network, segRef uint32) {
	s, reversed := graph.SplitSegRef(segRef)
	begin, end := net.Points(s)
	w.span(net, begin, end, reversed)
}

// span writes stored points begin to end−1, backwards if reversed.
func (w *shapeWriter) span(net *graph.Network, begin, end uint32, reversed bool) {
	if !w.fixed {
		if !reversed {
			for i := begin; i < end; i++ {
				w.vertex(net, i)
			}
			return
		}
		for i := end; i > begin; i-- {
			w.vertex(net, i-1)
		}
		return
	}
	c := net.GeomCoord[2*begin : 2*end]
	if !reversed {
		for i := 0; i+1 < len(c); i += 2 {
			w.fixedVertex(c[i], c[i+1])
		}
		return
	}
	for i := len(c) - 2; i >= 0; i -= 2 {
		w.fixedVertex(c[i], c[i+1])
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
	w.arcs(g, leg.Arcs[1:len(leg.Arcs)-1])
	if _, rev := g.ArcSegment(last); rev {
		w.part(net, b.Seg, 1, b.Frac)
	} else {
		w.part(net, b.Seg, 0, b.Frac)
	}
}

// arcs writes the whole segments arcs travel. It looks their segments and
// spans up a batch at a time: on a country each lookup is a cache miss, and
// loops of loads that do not depend on each other let the processor wait
// for a batch's misses at once rather than for one after the other.
func (w *shapeWriter) arcs(g *graph.Graph, arcs []uint32) {
	const batch = 16
	var refs [batch]uint32
	var spans [batch][2]uint32
	net := g.Net
	for len(arcs) > 0 {
		chunk := arcs[:min(batch, len(arcs))]
		arcs = arcs[len(chunk):]
		for i, arc := range chunk {
			refs[i] = g.ArcSegRef(arc)
		}
		var touched int32
		for i := range chunk {
			s, _ := graph.SplitSegRef(refs[i])
			spans[i][0], spans[i][1] = net.Points(s)
			// Read each segment's first point now, so that its cache line
			// is fetched with the batch's rather than when it is written.
			touched |= net.GeomCoord[2*spans[i][0]]
		}
		w.touched = touched
		for i := range chunk {
			_, reversed := graph.SplitSegRef(refs[i])
			w.span(net, spans[i][0], spans[i][1], reversed)
		}
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
		w.put(w.lastPoint())
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

// AppendPolyline appends the route's geometry (Shape's points) to dst as
// an encoded polyline at the given precision (package polyline), encoding
// each point as the route is walked, without holding the points.
func (rt *Route) AppendPolyline(dst []byte, precision int) []byte {
	w := encoder(dst, precision)
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
