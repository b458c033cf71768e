package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// directions is POST /v1/directions.
var directions = endpoint[DirectionsRequest]{
	name:   "directions",
	decode: DecodeDirections,
	cost:   func(r DirectionsRequest) int64 { return startedUnits(len(r.Coordinates), 10) },
	run:    runDirections,
	headers: func(req *DirectionsRequest, h *fasthttp.RequestHeader) {
		if req.Language == "" {
			req.Language = acceptLanguage(h.Peek("Accept-Language"))
		}
	},
}

func runDirections(rc *runContext, req DirectionsRequest, dst []byte) ([]byte, *failure) {
	router, fail := rc.router(req.Profile)
	if fail != nil {
		return dst, fail
	}
	if req.Language == "" {
		req.Language = guidance.DefaultLanguage // no header hook ran (a caller of the engine itself)
	}
	q := route.Request{
		Points:       points(req.Coordinates),
		Snapping:     snapOptions(len(req.Coordinates), req.Radiuses, req.Bearings),
		Departure:    departureOf(req.HasDepartureTime, req.DepartureTime),
		Alternatives: req.Alternatives,
		Steps:        req.IncludeSteps,
		Language:     req.Language,
		MaxSteps:     maxSteps,
		Terrain:      route.Terrain{DEM: rc.rel.DEM, Samples: rc.rel.Terrain},
		Exclude:      req.Exclude,
		Vehicle:      req.Vehicle,
		Avoid:        req.Avoid,
	}
	dirs, err := router.Directions(rc.context(), q)
	if err != nil {
		return dst, routeFailure(rc.context(), router, q, err)
	}
	dst = appendKey(dst, "profile", true)
	dst = appendString(dst, req.Profile)
	if req.IncludeSteps {
		dst = appendKey(dst, "language", true)
		dst = appendString(dst, q.Language)
	}
	dst = appendKey(dst, "routes", true)
	dst = append(dst, '[')
	for i, rt := range dirs.Routes {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendRoute(dst, rc, req.Profile, req.GeometryFormat, i, rt)
	}
	dst = append(dst, ']')
	if note := alternativesNote(req); note != "" {
		dst = appendKey(dst, "alternatives_note", true)
		dst = appendString(dst, note)
	}
	dst = appendKey(dst, "waypoints", true)
	dst = append(dst, '[')
	for i, s := range dirs.Routes[0].Snapped {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendPlace(dst, rc.rel.Network, s)
	}
	return append(dst, ']'), nil
}

// alternativesNote says why a request that asked for alternatives got none
// by rule, or "": they are computed for two waypoints only (route.Directions),
// and a client that asked for them with more is told rather than left to
// guess (issue 36).
func alternativesNote(req DirectionsRequest) string {
	if req.Alternatives == 0 || len(req.Coordinates) <= 2 {
		return ""
	}
	return fmt.Sprintf("alternatives are offered for two waypoints only; this request has %d, so only the best route is returned",
		len(req.Coordinates))
}

// maxSteps is the spec's limit per leg; a longer itinerary keeps its first
// steps and folds the rest into the last one (route.Request.MaxSteps).
const maxSteps = 1000

// routeFailure explains why no route was found, naming the waypoint.
func routeFailure(ctx context.Context, router *route.Router, q route.Request, err error) *failure {
	var ex *route.ExcludedError
	if errors.As(err, &ex) {
		return &failure{kind: KindUnroutable, detail: excludedDetail(router.Graph().Profile, ex)}
	}
	var we *route.WaypointError
	if !errors.As(err, &we) {
		return &failure{kind: KindServiceUnavailable, detail: "routing did not finish in time; retry"}
	}
	profile := router.Graph().Profile
	if errors.Is(err, route.ErrUnsnappable) {
		return placeFailures(router, q, we.Index, err)
	}
	detail := fmt.Sprintf("no %s route from waypoint %d to waypoint %d", profile, we.Index, we.Index+1)
	if blame := bearingsToBlame(ctx, router, q, we.Index); blame != "" {
		detail += " " + blame
	}
	return &failure{kind: KindUnroutable, detail: detail}
}

// bearingsToBlame says which bearings of leg i's two waypoints no path
// meets, or "" when the leg finds no path without them either: a bearing
// lets the route leave or reach a waypoint one way only, and a client told
// which can drop or turn it (issue 36). It routes the leg again without
// each, which costs searches only on a failure.
func bearingsToBlame(ctx context.Context, router *route.Router, q route.Request, i int) string {
	from, to := at(q.Snapping, i), at(q.Snapping, i+1)
	if from.Bearing == nil && to.Bearing == nil {
		return ""
	}
	routes := func(from, to snap.Options) bool {
		_, err := router.Directions(ctx, route.Request{Points: q.Points[i : i+2], Snapping: []snap.Options{from, to}, Departure: q.Departure, Exclude: q.Exclude, Avoid: q.Avoid})
		return err == nil
	}
	leaving := fmt.Sprintf("leaving waypoint %d%s", i, bearingPhrase(from))
	reaching := fmt.Sprintf("reaching waypoint %d%s", i+1, bearingPhrase(to))
	free := func(o snap.Options) snap.Options { o.Bearing = nil; return o }
	switch {
	case from.Bearing != nil && routes(free(from), to):
		return leaving + ": there is one leaving it the other way"
	case to.Bearing != nil && routes(from, free(to)):
		return reaching + ": there is one reaching it the other way"
	case from.Bearing != nil && to.Bearing != nil && routes(free(from), free(to)):
		return leaving + " and " + reaching + ": there is one without both bearings"
	}
	return ""
}

// placeFailures names every waypoint that could not be placed, from first
// (which failed with err) on, each with its own reason, so that a client
// fixes them all at once (issue 36: the 422 named only the first).
func placeFailures(router *route.Router, q route.Request, first int, err error) *failure {
	st := router.StateAt(q.Departure)
	var errs []FieldError
	var failed, swapped []int
	for i := first; i < len(q.Points); i++ {
		e := err
		if i > first {
			if _, e = router.PlaceOne(q.Points[i], at(q.Snapping, i), st); e == nil {
				continue
			}
		}
		fe, sw := placeFailure(router, fmt.Sprintf("/coordinates/%d", i), q.Points[i], at(q.Snapping, i), st, e)
		errs = append(errs, fe)
		failed = append(failed, i)
		if sw {
			swapped = append(swapped, i)
		}
	}
	if len(swapped) > 0 {
		return &failure{kind: KindInvalidRequest, detail: fmt.Sprintf("%s %s like [latitude, longitude]",
			waypointList(swapped), plural(len(swapped), "looks", "look")), errs: errs}
	}
	return &failure{kind: KindUnroutable, detail: fmt.Sprintf("%s %s not near a road the %s profile may use",
		waypointList(failed), plural(len(failed), "is", "are"), router.Graph().Profile), errs: errs}
}

// waypointList names waypoints: "waypoint 2", "waypoints 0, 2 and 3".
func waypointList(idx []int) string {
	if len(idx) == 1 {
		return fmt.Sprintf("waypoint %d", idx[0])
	}
	s := "waypoints "
	for k, i := range idx {
		switch {
		case k == len(idx)-1:
			s += fmt.Sprintf(" and %d", i)
		case k > 0:
			s += fmt.Sprintf(", %d", i)
		default:
			s += fmt.Sprint(i)
		}
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// appendRoute writes one route of profile, its geometry in format: the
// engine has computed everything, steps and climb included.
func appendRoute(dst []byte, rc *runContext, profile, format string, id int, rt *route.Route) []byte {
	dst = append(dst, '{')
	dst = appendKey(dst, "id", false)
	dst = appendNumber(dst, float64(id), 0)
	dst = appendKey(dst, "summary", true)
	dst = appendTotals(dst, rt.DistanceM, rt.DurationS)
	dst = appendKey(dst, "geometry", true)
	dst = appendGeometry(dst, format, rt)
	dst = appendKey(dst, "legs", true)
	dst = append(dst, '[')
	for i, leg := range rt.Legs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendTotals(dst, leg.DistanceM, leg.DurationS)
		if rt.Steps != nil {
			dst = dst[:len(dst)-1] // reopen the leg object
			dst = appendKey(dst, "steps", true)
			dst = appendSteps(dst, rt.Steps[i])
			dst = append(dst, '}')
		}
	}
	dst = append(dst, ']')
	if rt.Climb.Covered {
		dst = appendKey(dst, "elevation", true)
		dst = appendClimb(dst, rt.Climb)
	}
	if p := rc.rel.Manifest.Profile(profile); p != nil {
		dst = appendKey(dst, "speed_model_version", true)
		dst = appendString(dst, p.SpeedModelVersion)
		dst = appendKey(dst, "speed_model_status", true)
		dst = appendString(dst, p.SpeedModelStatus)
	}
	// No traffic feed exists yet: say so. operations_applied follows the
	// rule of route.Route.OperationsApplied (docs/road-operations.md).
	if rt.OperationsApplied() {
		return append(dst, `,"traffic_confidence":"none","operations_applied":true}`...)
	}
	return append(dst, `,"traffic_confidence":"none","operations_applied":false}`...)
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

// appendGeometry writes the route's shape as an encoded polyline6 string
// or as a serialised GeoJSON LineString (spec behaviour rule 3). The
// polyline is encoded as the route is walked, with no slice of points.
func appendGeometry(dst []byte, format string, rt *route.Route) []byte {
	if format == GeometryGeoJSON {
		return appendString(dst, string(appendLineString(nil, rt.Shape())))
	}
	// A polyline6 point takes 2 to 8 bytes: grow once rather than by doubling.
	dst = slices.Grow(dst, 6*rt.MaxPoints()+256)
	dst = append(dst, '"')
	start := len(dst)
	dst = rt.AppendPolyline(dst, 6)
	dst = escapeBackslashes(dst, start)
	return append(dst, '"')
}

// escapeBackslashes doubles every backslash in dst[start:]: polyline
// characters are ASCII 63-126, and of those only the backslash needs
// escaping in JSON. It moves each run between backslashes once, from the
// end (escaping in place, one backslash at a time, moved the rest of the
// string each time).
func escapeBackslashes(dst []byte, start int) []byte {
	n := bytes.Count(dst[start:], []byte{'\\'})
	if n == 0 {
		return dst
	}
	end := len(dst)
	dst = slices.Grow(dst, n)[:end+n]
	// dst[start:r] is still to be moved, to end at w: w−r is n, the
	// backslashes left in it.
	for r, w := end, end+n; n > 0; n-- {
		i := start + bytes.LastIndexByte(dst[start:r], '\\')
		w -= copy(dst[w-(r-i-1):w], dst[i+1:r])
		dst[w-1], dst[w-2] = '\\', '\\'
		w, r = w-2, i
	}
	return dst
}

// appendLineString writes a GeoJSON LineString.
func appendLineString(dst []byte, pts []route.Point) []byte {
	dst = append(dst, `{"type":"LineString","coordinates":`...)
	dst = appendPositions(dst, pts)
	return append(dst, '}')
}

// excludedDetail explains a leg that only the request's exclusions, avoid options or vehicle left
// without a route.
func excludedDetail(profile string, ex *route.ExcludedError) string {
	if ex.Vehicle.IsZero() {
		return fmt.Sprintf("no %s route from waypoint %d to waypoint %d %s: the exclusion leaves none (there is one with them)",
			profile, ex.Index, ex.Index+1, ex.Reason())
	}
	cause := "its limits leave none (there is one for the profile's own vehicle)"
	if ex.Exclude != 0 || !ex.Avoid.None() {
		cause = "the exclusion and the vehicle's limits leave none (there is one without them)"
	}
	return fmt.Sprintf("no %s route from waypoint %d to waypoint %d %s: %s", profile, ex.Index, ex.Index+1, ex.Reason(), cause)
}
