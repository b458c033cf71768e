// Package geo holds the small amount of spherical geometry the engine needs:
// fixed-point coordinates, great-circle distance, and projecting a point onto
// a short line piece. Everything here is pure and safe for concurrent use.
package geo

import "math"

// Scale is the fixed-point resolution of stored coordinates: 1e-7 degrees,
// OpenStreetMap's own resolution (about 1 cm), so compiling loses nothing.
const Scale = 1e7

// EarthRadius is the mean Earth radius in metres (IUGG), used by Distance.
const EarthRadius = 6371008.8

// Fixed converts degrees to fixed point, rounding to nearest.
func Fixed(deg float64) int32 { return int32(math.Round(deg * Scale)) }

// Degrees converts fixed point back to degrees.
func Degrees(v int32) float64 { return float64(v) / Scale }

// Distance returns the great-circle (haversine) distance in metres between
// two points given in degrees.
func Distance(lon1, lat1, lon2, lat2 float64) float64 {
	const rad = math.Pi / 180
	dLat := (lat2 - lat1) * rad
	dLon := (lon2 - lon1) * rad
	s1 := math.Sin(dLat / 2)
	s2 := math.Sin(dLon / 2)
	a := s1*s1 + math.Cos(lat1*rad)*math.Cos(lat2*rad)*s2*s2
	return 2 * EarthRadius * math.Asin(math.Min(1, math.Sqrt(a)))
}

// Projection is what Project found: the closest point of a piece, how far
// along the piece it lies (0 at a, 1 at b) and its distance in metres.
type Projection struct {
	Lon, Lat float64
	T        float64
	Dist     float64
}

// Project finds the point of the piece a–b closest to p. It works in a local
// equirectangular plane scaled at p's latitude (k is LonScale(pLat)): over
// the kilometre that snapping searches, the error is far below a GPS fix's,
// and it costs no trigonometry per piece, which matters because snapping
// projects onto dozens of pieces per point.
func Project(pLon, pLat, k, aLon, aLat, bLon, bLat float64) Projection {
	ax, ay := (aLon-pLon)*k, aLat-pLat
	bx, by := (bLon-pLon)*k, bLat-pLat
	dx, dy := bx-ax, by-ay
	t := 0.0
	if l2 := dx*dx + dy*dy; l2 > 0 {
		t = max(0, min(1, -(ax*dx+ay*dy)/l2))
	}
	x, y := ax+dx*t, ay+dy*t
	return Projection{Lon: aLon + (bLon-aLon)*t, Lat: aLat + (bLat-aLat)*t, T: t,
		Dist: math.Sqrt(x*x+y*y) * MetresPerDegreeLat}
}

// LonScale is the length of a degree of longitude relative to one of
// latitude at lat.
func LonScale(lat float64) float64 { return math.Cos(lat * math.Pi / 180) }

// MetresPerDegreeLat is the length of one degree of latitude, used to turn
// a search radius into a box.
const MetresPerDegreeLat = EarthRadius * math.Pi / 180
