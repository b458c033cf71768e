package api

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mapsco/maps/pkg/isochrone"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// isochroneOp is POST /v1/isochrone: 5 credits whatever the contours
// (spec §4). engine (the Server's) keeps the scratch space requests reuse.
func isochroneOp(engine *isochrone.Engine) endpoint[IsochroneRequest] {
	return endpoint[IsochroneRequest]{
		name:   "isochrone",
		decode: DecodeIsochrone,
		cost:   func(IsochroneRequest) int64 { return 5 },
		run: func(rc *runContext, req IsochroneRequest, dst []byte) ([]byte, *failure) {
			return runIsochrone(engine, rc, req, dst)
		},
	}
}

func runIsochrone(engine *isochrone.Engine, rc *runContext, req IsochroneRequest, dst []byte) ([]byte, *failure) {
	router, fail := rc.router(req.Profile)
	if fail != nil {
		return dst, fail
	}
	snapped, err := router.Snap([]route.Point{route.Point(req.Origin)})
	if err != nil {
		// The spec allows no 422 here: a point off the network is an invalid origin.
		msg := fmt.Sprintf("no road usable by profile %s within %d m of this point", req.Profile, snap.MaxDistance)
		return dst, &failure{kind: KindInvalidRequest, detail: fmt.Sprintf("the origin is not near a road the %s profile may use", req.Profile),
			errs: []FieldError{{Field: "/origin", Message: msg}}}
	}
	contours, err := engine.Compute(rc.context(), router.Graph(), snapped[0], isochrone.Request{Budgets: budgets(req.Contours), Departure: departureOf(req.HasDepartureTime, req.DepartureTime)})
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return dst, &failure{kind: KindServiceUnavailable, detail: "the isochrone did not finish in time; retry"}
	case err != nil:
		return dst, &failure{kind: KindServiceUnavailable, detail: err.Error()}
	}
	dst = appendKey(dst, "profile", true)
	dst = appendString(dst, req.Profile)
	dst = appendKey(dst, "features", true)
	return appendFeatures(dst, contours), nil
}

func budgets(cs []Contour) []isochrone.Budget {
	out := make([]isochrone.Budget, len(cs))
	for i, c := range cs {
		if c.Kilometers > 0 {
			out[i] = isochrone.Budget{Value: c.Kilometers, Unit: isochrone.Kilometers}
		} else {
			out[i] = isochrone.Budget{Value: c.Minutes, Unit: isochrone.Minutes}
		}
	}
	return out
}

// departureOf is the time a request is for: departure_time when given,
// else the zero time, which routing reads as now (spec behaviour rule 2).
func departureOf(has bool, t time.Time) time.Time {
	if has {
		return t
	}
	return time.Time{}
}

// appendFeatures writes the FeatureCollection: one feature per contour, in
// the engine's order (minutes, then kilometres, each ascending), with
// properties contour (the budget as asked) and unit.
func appendFeatures(dst []byte, contours []isochrone.Contour) []byte {
	dst = append(dst, `{"type":"FeatureCollection","features":[`...)
	for i, c := range contours {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"type":"Feature","properties":{"contour":`...)
		dst = appendNumber(dst, c.Budget.Value, 6)
		dst = append(dst, `,"unit":`...)
		dst = appendString(dst, c.Budget.Unit.String())
		dst = append(dst, `},"geometry":`...)
		dst = appendPolygons(dst, c.Polygons)
		dst = append(dst, '}')
	}
	return append(dst, "]}"...)
}

// appendPolygons writes a Polygon, or a MultiPolygon when there are several.
func appendPolygons(dst []byte, polys []isochrone.Polygon) []byte {
	if len(polys) == 1 {
		dst = append(dst, `{"type":"Polygon","coordinates":`...)
		return append(appendRings(dst, polys[0]), '}')
	}
	dst = append(dst, `{"type":"MultiPolygon","coordinates":[`...)
	for i, p := range polys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendRings(dst, p)
	}
	return append(dst, "]}"...)
}

func appendRings(dst []byte, p isochrone.Polygon) []byte {
	dst = append(dst, '[')
	for i, r := range p {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendPositions(dst, r)
	}
	return append(dst, ']')
}
