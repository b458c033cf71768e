package api

import (
	"errors"
	"fmt"
	"slices"

	"github.com/mapsco/maps/pkg/polyline"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// directions is POST /v1/directions.
var directions = endpoint[DirectionsRequest]{
	name:   "directions",
	decode: DecodeDirections,
	cost:   func(r DirectionsRequest) int64 { return startedUnits(len(r.Coordinates), 10) },
	run:    runDirections,
}

// startedUnits is the number of started blocks of size per in n: the
// credit rule of spec §4 ("1 credit for up to 10, plus 1 for each further 10").
func startedUnits(n, per int) int64 { return int64((n + per - 1) / per) }

func runDirections(rc *runContext, req DirectionsRequest, dst []byte) ([]byte, *failure) {
	router, fail := rc.router(req.Profile)
	if fail != nil {
		return dst, fail
	}
	ctx := rc.context()
	rt, err := router.Route(ctx, points(req.Coordinates), router.StateAt(departureOf(req.HasDepartureTime, req.DepartureTime)))
	if err != nil {
		return dst, routeFailure(req.Profile, err)
	}
	dst = appendKey(dst, "profile", true)
	dst = appendString(dst, req.Profile)
	dst = appendKey(dst, "routes", true)
	dst = append(dst, '[')
	dst = appendRoute(dst, rc, req, 0, rt)
	// Alternatives are for journeys of two waypoints; with more, each leg's
	// choices would multiply into routes no one asked for.
	for i, alt := range router.Alternatives(ctx, rt, req.Alternatives) {
		dst = append(dst, ',')
		dst = appendRoute(dst, rc, req, i+1, alt)
	}
	return append(dst, ']'), nil
}

// routeFailure explains why no route was found, naming the waypoint.
func routeFailure(profile string, err error) *failure {
	var we *route.WaypointError
	if !errors.As(err, &we) {
		return &failure{kind: KindServiceUnavailable, detail: "routing did not finish in time; retry"}
	}
	if errors.Is(err, route.ErrUnsnappable) {
		field := fmt.Sprintf("/coordinates/%d", we.Index)
		msg := fmt.Sprintf("no road usable by profile %s within %d m of this point", profile, snap.MaxDistance)
		return &failure{kind: KindUnroutable, detail: fmt.Sprintf("waypoint %d is not near a road the %s profile may use", we.Index, profile),
			errs: []FieldError{{Field: field, Message: msg}}}
	}
	return &failure{kind: KindUnroutable, detail: fmt.Sprintf("no %s route from waypoint %d to waypoint %d", profile, we.Index, we.Index+1)}
}

func appendRoute(dst []byte, rc *runContext, req DirectionsRequest, id int, rt *route.Route) []byte {
	dst = append(dst, '{')
	dst = appendKey(dst, "id", false)
	dst = appendNumber(dst, float64(id), 0)
	dst = appendKey(dst, "summary", true)
	dst = appendTotals(dst, rt.DistanceM, rt.DurationS)
	dst = appendKey(dst, "geometry", true)
	// A polyline6 point takes 2 to 8 bytes: grow once rather than by doubling.
	dst = slices.Grow(dst, 6*len(rt.Shape)+256)
	dst = appendGeometry(dst, req.GeometryFormat, rt.Shape)
	dst = appendKey(dst, "legs", true)
	dst = append(dst, '[')
	for i, leg := range rt.Legs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendTotals(dst, leg.DistanceM, leg.DurationS)
		if req.IncludeSteps {
			dst = dst[:len(dst)-1] // reopen the leg object
			dst = appendKey(dst, "steps", true)
			dst = appendSteps(dst, legSteps(rc.rel.Routers[req.Profile], req, rt, i))
			dst = append(dst, '}')
		}
	}
	dst = append(dst, ']')
	if c, ok := routeClimb(rc, rc.rel.Routers[req.Profile], rt); ok {
		dst = appendKey(dst, "elevation", true)
		dst = appendClimb(dst, c)
	}
	if p := rc.rel.Manifest.Profile(req.Profile); p != nil {
		dst = appendKey(dst, "speed_model_version", true)
		dst = appendString(dst, p.SpeedModelVersion)
		dst = appendKey(dst, "speed_model_status", true)
		dst = appendString(dst, p.SpeedModelStatus)
	}
	// No traffic feed and no published road operations exist yet: say so.
	dst = append(dst, `,"traffic_confidence":"none","operations_applied":false}`...)
	return dst
}

// appendTotals writes distance, duration and average speed as an object.
// Durations keep milliseconds, the unit the search is exact in.
func appendTotals(dst []byte, distanceM, durationS float64) []byte {
	dst = append(dst, '{')
	dst = appendKey(dst, "distance_m", false)
	dst = appendNumber(dst, distanceM, 1)
	dst = appendKey(dst, "duration_s", true)
	dst = appendNumber(dst, durationS, 3)
	dst = appendKey(dst, "average_speed_kph", true)
	dst = appendSpeed(dst, distanceM, durationS)
	return append(dst, '}')
}

// appendGeometry writes the shape as an encoded polyline6 string or as a
// serialised GeoJSON LineString (spec behaviour rule 3).
func appendGeometry(dst []byte, format string, pts []route.Point) []byte {
	if format == GeometryGeoJSON {
		return appendString(dst, string(appendLineString(nil, pts)))
	}
	dst = append(dst, '"')
	start := len(dst)
	dst = polyline.Append(dst, pts, 6)
	// Polyline characters are ASCII 63-126; of those only the backslash
	// needs escaping in JSON.
	for i := start; i < len(dst); i++ {
		if dst[i] == '\\' {
			dst = append(dst[:i+1], dst[i:]...)
			i++
		}
	}
	return append(dst, '"')
}

// appendLineString writes a GeoJSON LineString.
func appendLineString(dst []byte, pts []route.Point) []byte {
	dst = append(dst, `{"type":"LineString","coordinates":`...)
	dst = appendPositions(dst, pts)
	return append(dst, '}')
}
