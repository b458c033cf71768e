package snap

import "math"

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
