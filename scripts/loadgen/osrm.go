package main

import "strconv"

// osrmPoints is how many points one request to osrm-routed takes: as many
// as the mapd body it stands for, so that with the same -seed, -size and
// -waypoints both servers are asked about the same points in the same
// order (elevation has no OSRM counterpart).
func osrmPoints(c config) int {
	if c.size > 0 && !c.same {
		return 2 * c.size
	}
	if c.size > 0 {
		return c.size
	}
	return c.waypoints
}

// osrmURI is the GET request URI of OSRM's HTTP API (docs/http.md of
// Project-OSRM/osrm-backend) that answers what mapd's body would:
// directions as /route with the full geometry in polyline6, as mapd always
// returns it, steps only with -steps, and as many alternatives (false for
// 0; mapd's default of one when -alternatives is left at -1);
// a size×size matrix as /table over the first size points as sources and
// the others as destinations (with -same, size points from all to all,
// OSRM's default), with c.osrmAnnotations: durations and
// distances by default, as mapd answers both (OSRM's own default is
// durations only, and its CH computes a cell's distance by unpacking the
// cell's path). The profile is OSRM's only one, "driving": run
// osrm-routed on the car profile's data.
func osrmURI(pts [][2]float64, c config) []byte {
	b := []byte("/route/v1/driving/")
	if c.size > 0 {
		b = []byte("/table/v1/driving/")
	}
	for i, p := range pts {
		if i > 0 {
			b = append(b, ';')
		}
		b = appendLonLat(b, p)
	}
	if c.size == 0 {
		b = append(b, "?overview=full&geometries=polyline6&steps="...)
		b = strconv.AppendBool(b, c.steps)
		b = append(b, "&alternatives="...)
		if c.alts == 0 {
			return append(b, "false"...)
		}
		return strconv.AppendInt(b, int64(max(c.alts, 1)), 10) // -1: mapd's default of one
	}
	b = append(b, "?annotations="...)
	b = append(b, c.osrmAnnotations...)
	if c.same {
		return b // every coordinate to every one: OSRM's default table
	}
	b = append(b, "&sources="...)
	b = appendRange(b, 0, c.size)
	b = append(b, "&destinations="...)
	return appendRange(b, c.size, 2*c.size)
}

// appendRange writes the indices lo to hi−1 separated by semicolons.
func appendRange(b []byte, lo, hi int) []byte {
	for i := lo; i < hi; i++ {
		if i > lo {
			b = append(b, ';')
		}
		b = strconv.AppendInt(b, int64(i), 10)
	}
	return b
}
