package api

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/mapsco/maps/pkg/isochrone"
	"github.com/mapsco/maps/pkg/route"
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
	departure := departureOf(req.HasDepartureTime, req.DepartureTime)
	st := router.StateWith(departure, req.Exclude, req.Vehicle, req.Avoid)
	o := snapOption(req.Radius, req.Bearing)
	origin, err := router.PlaceOne(route.Point(req.Origin), o, st)
	if err != nil {
		// The spec allows no 422 here: a point off the network is an invalid origin.
		fe, _ := placeFailure(router, "/origin", route.Point(req.Origin), o, st, err)
		return dst, &failure{kind: KindInvalidRequest, detail: fmt.Sprintf("the origin is not near a road the %s profile may use", req.Profile),
			errs: []FieldError{fe}}
	}
	contours, err := engine.Compute(rc.context(), router.Graph(), origin.Result, isochrone.Request{Budgets: budgets(req.Contours), Departure: departure, State: st})
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return dst, &failure{kind: KindServiceUnavailable, detail: "the isochrone did not finish in time; retry"}
	case err != nil:
		return dst, &failure{kind: KindServiceUnavailable, detail: err.Error()}
	}
	dst = appendKey(dst, "profile", true)
	dst = appendString(dst, req.Profile)
	dst = appendKey(dst, "features", true)
	dst = appendFeatures(dst, inRequestOrder(budgets(req.Contours), contours))
	dst = appendKey(dst, "operations_applied", true)
	dst = strconv.AppendBool(dst, operationsApplied(contours))
	dst = appendKey(dst, "origin", true)
	return appendPlace(dst, rc.rel.Network, origin.Result), nil
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

// inRequestOrder puts the engine's contours (ordered by unit, then value)
// back in the order the request listed their budgets.
func inRequestOrder(asked []isochrone.Budget, contours []isochrone.Contour) []isochrone.Contour {
	out := make([]isochrone.Contour, 0, len(asked))
	for _, b := range asked {
		for _, c := range contours {
			if c.Budget == b {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// appendFeatures writes the FeatureCollection: one feature per contour, in
// the order the request listed them, with properties contour (the budget as
// asked) and unit.
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

// operationsApplied reports whether a road operation in force changed any
// contour (isochrone.Contour.OperationsApplied).
func operationsApplied(cs []isochrone.Contour) bool {
	for _, c := range cs {
		if c.OperationsApplied {
			return true
		}
	}
	return false
}
