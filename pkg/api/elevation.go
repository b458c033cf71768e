package api

import (
	"github.com/mapsco/maps/pkg/elevation"
	"github.com/mapsco/maps/pkg/route"
)

// elevationOp is POST /v1/elevation: the surface height at each coordinate,
// in request order (spec behaviour rule 5).
var elevationOp = endpoint[ElevationRequest]{
	name:   "elevation",
	decode: DecodeElevation,
	cost:   func(r ElevationRequest) int64 { return startedUnits(len(r.Coordinates), 100) },
	run:    runElevation,
	light:  true,
}

// runElevation samples the release's DEM bilinearly between posts. A point
// outside coverage is null, and so is every point when the release was built
// without a DEM: the spec's null means "no elevation here", which is then
// true everywhere.
func runElevation(rc *runContext, req ElevationRequest, dst []byte) ([]byte, *failure) {
	dst = appendKey(dst, "elevations_m", true)
	dst = append(dst, '[')
	for i, c := range req.Coordinates {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendHeight(dst, rc.rel.DEM, c)
	}
	return append(dst, ']'), nil
}

// appendHeight writes one height in metres with two decimals (the DEM
// stores quarter metres; bilinear weights make finer fractions that mean
// nothing), or null.
func appendHeight(dst []byte, d *elevation.DEM, c Coordinate) []byte {
	if d == nil {
		return append(dst, "null"...)
	}
	h, ok := d.At(c.Lon(), c.Lat())
	if !ok {
		return append(dst, "null"...)
	}
	return appendNumber(dst, h, 2)
}

// appendClimb writes a route's ElevationProfile: metres up and down along
// the geometry and the steepest grade as a ratio.
func appendClimb(dst []byte, c elevation.Climb) []byte {
	dst = append(dst, '{')
	dst = appendKey(dst, "ascent_m", false)
	dst = appendNumber(dst, c.AscentM, 1)
	dst = appendKey(dst, "descent_m", true)
	dst = appendNumber(dst, c.DescentM, 1)
	dst = appendKey(dst, "max_grade", true)
	dst = appendNumber(dst, c.MaxGrade, 4)
	return append(dst, '}')
}

// routeClimb is the terrain along rt for the route's profile, and false
// when the release has no DEM or the route lies outside its coverage.
func routeClimb(rc *runContext, router *route.Router, rt *route.Route) (elevation.Climb, bool) {
	if rc.rel.DEM == nil {
		return elevation.Climb{}, false
	}
	c := router.Elevation(rc.rel.DEM, rc.rel.Terrain, rt)
	return c, c.Covered
}
