package route

import (
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
)

// Point is [lon, lat] in degrees, the API's order.
type Point = [2]float64

// appendPoint adds p unless it repeats the last point.
func appendPoint(pts []Point, p Point) []Point {
	if n := len(pts); n > 0 && pts[n-1] == p {
		return pts
	}
	return append(pts, p)
}

// appendSegment adds a whole segment's shape in the direction travelled.
func appendSegment(pts []Point, net *graph.Network, segRef uint32) []Point {
	s, reversed := graph.SplitSegRef(segRef)
	begin, end := net.Points(s)
	if !reversed {
		for i := begin; i < end; i++ {
			lon, lat := net.Point(i)
			pts = appendPoint(pts, Point{lon, lat})
		}
		return pts
	}
	for i := end; i > begin; i-- {
		lon, lat := net.Point(i - 1)
		pts = appendPoint(pts, Point{lon, lat})
	}
	return pts
}

// AppendPart adds the part of segment s between fractions a and b of its
// length, in that order (backwards when b < a).
func AppendPart(pts []Point, net *graph.Network, s uint32, a, b float64) []Point {
	begin, end := net.Points(s)
	cum := make([]float64, 0, end-begin) // distance from the first point
	total := 0.0
	for i := begin; i < end; i++ {
		if i > begin {
			aLon, aLat := net.Point(i - 1)
			bLon, bLat := net.Point(i)
			total += geo.Distance(aLon, aLat, bLon, bLat)
		}
		cum = append(cum, total)
	}
	at := func(f float64) Point { return pointAt(net, begin, cum, f*total) }
	pts = appendPoint(pts, at(a))
	if a <= b {
		for i := range cum {
			if d := cum[i]; d > a*total && d < b*total {
				lon, lat := net.Point(begin + uint32(i))
				pts = appendPoint(pts, Point{lon, lat})
			}
		}
	} else {
		for i := len(cum) - 1; i >= 0; i-- {
			if d := cum[i]; d < a*total && d > b*total {
				lon, lat := net.Point(begin + uint32(i))
				pts = appendPoint(pts, Point{lon, lat})
			}
		}
	}
	return appendPoint(pts, at(b))
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
