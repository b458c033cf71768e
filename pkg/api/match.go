package api

import (
	"errors"
	"fmt"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/match"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// matchOp is POST /v1/match: the roads a GPS trace drove (package match).
// It costs what elevation does, 1 credit per 100 started points: the work
// grows with the points, and a trace is sent once.
var matchOp = endpoint[MatchRequest]{
	name:   "match",
	decode: DecodeMatch,
	cost:   func(r MatchRequest) int64 { return startedUnits(len(r.Coordinates), 100) },
	run:    runMatch,
}

func runMatch(rc *runContext, req MatchRequest, dst []byte) ([]byte, *failure) {
	router, fail := rc.router(req.Profile)
	if fail != nil {
		return dst, fail
	}
	if fail := outsideCoverage(router, req.Coordinates); fail != nil {
		return dst, fail
	}
	trace := match.Trace{Points: points(req.Coordinates), Radiuses: req.Radiuses, Steps: req.IncludeSteps, MaxSteps: maxSteps}
	if len(req.Timestamps) > 0 {
		trace.Departure = req.Timestamps[0]
		trace.Times = make([]float64, len(req.Timestamps))
		for i, t := range req.Timestamps {
			trace.Times[i] = t.Sub(req.Timestamps[0]).Seconds()
		}
	}
	res, err := match.New(router, match.Options{}).Match(rc.context(), trace)
	switch {
	case errors.Is(err, match.ErrNoMatch):
		return dst, &failure{kind: KindUnroutable, detail: fmt.Sprintf("no two points of the trace could be matched to roads "+
			"the %s profile may use, joined by a path: the points may be far from roads (a radius widens the search)", req.Profile)}
	case err != nil:
		return dst, &failure{kind: KindServiceUnavailable, detail: "matching did not finish in time; retry"}
	}
	dst = appendKey(dst, "profile", true)
	dst = appendString(dst, req.Profile)
	dst = appendKey(dst, "gps_error_m", true)
	dst = appendNumber(dst, res.Sigma, 1)
	dst = appendKey(dst, "matchings", true)
	dst = append(dst, '[')
	for i, m := range res.Matchings {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendRoute(dst, rc, req.Profile, req.GeometryFormat, i, m.Route)
		dst = dst[:len(dst)-1] // reopen the route object
		dst = appendKey(dst, "confidence", true)
		dst = appendNumber(dst, m.Confidence, 3)
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	dst = appendKey(dst, "tracepoints", true)
	dst = append(dst, '[')
	for i, tp := range res.Tracepoints {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendTracepoint(dst, rc, req.Coordinates[i], tp)
	}
	return append(dst, ']'), nil
}

// appendTracepoint writes where a trace point was placed, or null when it
// was dropped: its place on the road (as a waypoint's), the matching it
// belongs to and its waypoint there (null for a point folded into a leg:
// one too near the point before it to add anything, or where the vehicle
// stood still).
func appendTracepoint(dst []byte, rc *runContext, c Coordinate, tp match.Tracepoint) []byte {
	if !tp.Matched {
		return append(dst, "null"...)
	}
	place := tp.Place
	place.Dist = geo.Distance(c.Lon(), c.Lat(), place.Lon, place.Lat)
	dst = appendPlace(dst, rc.rel.Network, place)
	dst = dst[:len(dst)-1]
	dst = appendKey(dst, "matchings_index", true)
	dst = appendNumber(dst, float64(tp.Matching), 0)
	dst = appendKey(dst, "waypoint_index", true)
	if tp.Waypoint < 0 {
		dst = append(dst, "null"...)
	} else {
		dst = appendNumber(dst, float64(tp.Waypoint), 0)
	}
	dst = appendKey(dst, "alternatives_count", true)
	dst = appendNumber(dst, float64(tp.Alternate), 0)
	return append(dst, '}')
}

// outsideCoverage refuses a trace with points outside the release's
// coverage (400, one field error each, up to the limit): such a point is
// no GPS error but a trace from elsewhere, or a pair swapped.
func outsideCoverage(router *route.Router, cs []Coordinate) *failure {
	ix := router.Finder().Index()
	var errs []FieldError
	outside := 0
	for i, c := range cs {
		if ix.Covers(c.Lon(), c.Lat()) {
			continue
		}
		if outside++; len(errs) == MaxFieldErrors {
			continue
		}
		fe, _ := placeFailure(router, fmt.Sprintf("/coordinates/%d", i), route.Point(c), snap.Options{}, nil, snap.ErrOutside)
		errs = append(errs, fe)
	}
	if len(errs) == 0 {
		return nil
	}
	return &failure{kind: KindInvalidRequest, detail: fmt.Sprintf("%d of the trace's points lie outside the area this data release covers", outside), errs: errs}
}
