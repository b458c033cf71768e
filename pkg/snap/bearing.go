package snap

import (
	"math"

	"github.com/mapsco/maps/pkg/geo"
)

// pieceBearing is the compass bearing, in degrees clockwise from north, of
// travelling from a to b, in the plane of geo.Project (k is the longitude
// scale there); ok is false for a piece of no length, which has none.
func pieceBearing(k, aLon, aLat, bLon, bLat float64) (deg float64, ok bool) {
	dx, dy := (bLon-aLon)*k, bLat-aLat
	if dx == 0 && dy == 0 {
		return 0, false
	}
	return math.Atan2(dx, dy) * 180 / math.Pi, true
}

// admits reports whether heading h (degrees, any turn) lies within the
// bearing's tolerance.
func (b *Bearing) admits(h float64) bool {
	d := math.Abs(math.Mod(h-b.Degrees, 360))
	if d > 180 {
		d = 360 - d
	}
	return d <= b.Tolerance
}

// inset moves projection p of the search's point onto piece a–b off the
// piece's end it fell on, BearingInset metres (at most half the piece)
// into the piece, whose heading is the one the bearing was matched
// against. At an end the road may turn (a bend), or the point is a node,
// where leaving or reaching it in a direction travels no part of this
// piece and its heading is whichever road the route takes there: a bearing
// met there was met by nothing, and the route could arrive heading
// elsewhere and turn round on the spot (issue 36). Inside the piece the
// route both reaches and leaves the point along it.
func (s *search) inset(p geo.Projection, aLon, aLat, bLon, bLat float64) geo.Projection {
	if p.T > 0 && p.T < 1 {
		return p
	}
	dx, dy := (bLon-aLon)*s.k, bLat-aLat
	length := math.Hypot(dx, dy) * geo.MetresPerDegreeLat
	if length == 0 {
		return p // no heading: directions admitted neither way
	}
	t := min(0.5, BearingInset/length)
	if p.T == 1 {
		t = 1 - t
	}
	p.T, p.Lon, p.Lat = t, aLon+(bLon-aLon)*t, aLat+(bLat-aLat)*t
	x, y := (p.Lon-s.lon)*s.k, p.Lat-s.lat
	p.Dist = math.Hypot(x, y) * geo.MetresPerDegreeLat
	return p
}
