package api

import (
	"fmt"
	"strings"
	"testing"
)

// square is a closed ring of 5 positions around (lon, lat), half-width r
// degrees, as GeoJSON text.
func square(lon, lat, r float64) string {
	return fmt.Sprintf("[[%g,%g],[%g,%g],[%g,%g],[%g,%g],[%g,%g]]", lon-r, lat-r, lon+r, lat-r, lon+r, lat+r, lon-r, lat+r, lon-r, lat-r)
}

// farSquare is a polygon away from twoPoints' points.
var farSquare = `{"type":"Polygon","coordinates":[` + square(1.6, 42.45, 0.01) + `]}`

// TestDecodeAvoidValid: each new member decodes into the request's Avoid,
// type and coordinates in either order, holes and MultiPolygons included.
func TestDecodeAvoidValid(t *testing.T) {
	req, inv := DecodeDirections([]byte(`{"coordinates":` + twoPoints + `,"avoid_areas":` + farSquare + `}`))
	if inv != nil || req.Avoid.Areas == nil || req.Avoid.Areas.Polygons() != 1 {
		t.Fatalf("a polygon: %+v %+v", req.Avoid, inv)
	}
	if _, in := req.Avoid.Areas.Contains(1.6, 42.45); !in {
		t.Error("the polygon's centre is not inside it")
	}
	multi := `{"coordinates":[[` + square(1.6, 42.45, 0.02) + `,` + square(1.6, 42.45, 0.005) + `],[` + square(1.65, 42.45, 0.01) + `]],"type":"MultiPolygon"}`
	req, inv = DecodeDirections([]byte(`{"coordinates":` + twoPoints + `,"avoid_areas":` + multi + `}`))
	if inv != nil || req.Avoid.Areas.Polygons() != 2 {
		t.Fatalf("a MultiPolygon with a hole: %+v %+v", req.Avoid, inv)
	}
	if _, in := req.Avoid.Areas.Contains(1.6, 42.45); in {
		t.Error("the hole's centre is inside the area")
	}
	req, inv = DecodeDirections([]byte(`{"coordinates":` + twoPoints + `,"profile":"pedestrian_loaded","max_hiking_difficulty":"T2"}`))
	if inv != nil || req.Avoid.MaxHiking != 2 {
		t.Fatalf("max_hiking_difficulty: %+v %+v", req.Avoid, inv)
	}
	mreq, inv := DecodeMatrix([]byte(`{"avoid_steps":true,"sources":[[1.5,42.5]],"targets":[[1.6,42.5]],"profile":"bicycle"}`))
	if inv != nil || !mreq.Avoid.Steps {
		t.Fatalf("avoid_steps on a matrix: %+v %+v", mreq.Avoid, inv)
	}
	ireq, inv := DecodeIsochrone([]byte(`{"origin":[1.5,42.5],"contours":[{"time_minutes":5}],"avoid_areas":` + farSquare + `}`))
	if inv != nil || ireq.Avoid.Areas == nil {
		t.Fatalf("avoid_areas on an isochrone: %+v %+v", ireq.Avoid, inv)
	}
}

// TestDecodeAvoidInvalid: every bad value is refused at its own pointer.
func TestDecodeAvoidInvalid(t *testing.T) {
	ok := `"coordinates":` + twoPoints
	area := func(geom string) string { return `{` + ok + `,"avoid_areas":` + geom + `}` }
	many := make([]string, 11)
	for i := range many {
		many[i] = "[" + square(1.6+float64(i)*0.03, 42.45, 0.01) + "]"
	}
	var big strings.Builder
	big.WriteString("[[1.6,42.4]")
	for i := range 1000 {
		fmt.Fprintf(&big, ",[%g,42.41]", 1.6+float64(i)*1e-5)
	}
	big.WriteString(",[1.6,42.4]]")
	checkInvalid(t, []invalidCase{
		{name: "unclosed ring", body: area(`{"type":"Polygon","coordinates":[[[1.6,42.4],[1.7,42.4],[1.7,42.45],[1.6,42.45]]]}`),
			errs: []wantError{{"/avoid_areas/coordinates/0", "is not closed"}}},
		{name: "three positions", body: area(`{"type":"Polygon","coordinates":[[[1.6,42.4],[1.7,42.4],[1.6,42.4]]]}`),
			errs: []wantError{{"/avoid_areas/coordinates/0", "at least 4 positions"}}},
		{name: "non-numeric", body: area(`{"type":"Polygon","coordinates":[[[1.6,42.4],[1.7,"42.4"],[1.7,42.45],[1.6,42.4]]]}`),
			errs: []wantError{{"/avoid_areas/coordinates/0/1/1", "must be a number (latitude), got string"}}},
		{name: "out of range", body: area(`{"type":"Polygon","coordinates":[[[1.6,42.4],[181,42.4],[1.7,42.45],[1.6,42.4]]]}`),
			errs: []wantError{{"/avoid_areas/coordinates/0/1/0", "longitude must be between -180 and 180"}}},
		{name: "hole out of range", body: area(`{"type":"MultiPolygon","coordinates":[[` + square(1.6, 42.45, 0.01) + `,[[1.6,42.4],[1.7,95],[1.7,42.45],[1.6,42.4]]]]}`),
			errs: []wantError{{"/avoid_areas/coordinates/0/1/1/1", "latitude must be between -90 and 90"}}},
		{name: "eleven polygons", body: area(`{"type":"MultiPolygon","coordinates":[` + strings.Join(many, ",") + `]}`),
			errs: []wantError{{"/avoid_areas/coordinates", "at most 10 polygons, got 11"}}},
		{name: "1,002 positions", body: area(`{"type":"Polygon","coordinates":[` + big.String() + `]}`),
			errs: []wantError{{"/avoid_areas/coordinates", "at most 1000 positions in all its rings, got 1002"}}},
		{name: "no polygon", body: area(`{"type":"MultiPolygon","coordinates":[]}`),
			errs: []wantError{{"/avoid_areas/coordinates", "at least one polygon"}}},
		{name: "no ring", body: area(`{"type":"Polygon","coordinates":[]}`),
			errs: []wantError{{"/avoid_areas/coordinates", "at least one linear ring"}}},
		{name: "a Point", body: area(`{"type":"Point","coordinates":[1.6,42.4]}`),
			errs: []wantError{{"/avoid_areas/type", `must be "Polygon" or "MultiPolygon", got "Point"`}}},
		{name: "no type", body: area(`{"coordinates":[` + square(1.6, 42.45, 0.01) + `]}`),
			errs: []wantError{{"/avoid_areas/type", "is required"}}},
		{name: "no coordinates", body: area(`{"type":"Polygon"}`),
			errs: []wantError{{"/avoid_areas/coordinates", "is required"}}},
		{name: "a Feature", body: area(`{"type":"Polygon","coordinates":[` + square(1.6, 42.45, 0.01) + `],"properties":{}}`),
			errs: []wantError{{"/avoid_areas/properties", "is not a member of avoid_areas"}}},
		{name: "null", body: area(`null`), errs: []wantError{{"/avoid_areas", "must not be null"}}},
		{name: "an array", body: area(`[]`), errs: []wantError{{"/avoid_areas", "must be a GeoJSON geometry object"}}},
		{name: "a waypoint inside", body: area(`{"type":"Polygon","coordinates":[` + square(1.7333, 42.5425, 0.01) + `]}`),
			errs: []wantError{{"/coordinates/1", "lies inside polygon 0 of avoid_areas"}}},
		{name: "hiking on a car", body: `{` + ok + `,"max_hiking_difficulty":"T3"}`,
			errs: []wantError{{"/max_hiking_difficulty", "pedestrian and pedestrian_loaded profiles only, not car"}}},
		{name: "hiking unknown", body: `{` + ok + `,"profile":"pedestrian","max_hiking_difficulty":"T7"}`,
			errs: []wantError{{"/max_hiking_difficulty", `unknown hiking difficulty "T7"`}}},
		{name: "hiking a number", body: `{` + ok + `,"profile":"pedestrian","max_hiking_difficulty":3}`,
			errs: []wantError{{"/max_hiking_difficulty", "got number"}}},
		{name: "steps on a pedestrian", body: `{` + ok + `,"avoid_steps":true,"profile":"pedestrian"}`,
			errs: []wantError{{"/avoid_steps", "bicycle profile only, not pedestrian"}}},
		{name: "steps a string", body: `{` + ok + `,"profile":"bicycle","avoid_steps":"yes"}`,
			errs: []wantError{{"/avoid_steps", "must be a boolean"}}},
		{name: "bad profile only", body: `{` + ok + `,"profile":"walker","avoid_steps":true}`,
			errs: []wantError{{"/profile", "unknown profile"}}},
		{name: "avoid_polygons", body: `{` + ok + `,"avoid_polygons":` + farSquare + `}`,
			errs: []wantError{{"/avoid_polygons", `did you mean "avoid_areas"?`}}},
	}, directionsErr)
	inside := `{"type":"Polygon","coordinates":[` + square(1.5, 42.5, 0.01) + `]}`
	checkInvalid(t, []invalidCase{
		{name: "a target inside", body: `{"sources":[[1.7,42.5]],"targets":[[1.7,42.6],[1.5,42.5]],"avoid_areas":` + inside + `}`,
			errs: []wantError{{"/targets/1", "lies inside polygon 0"}}},
	}, matrixErr)
	checkInvalid(t, []invalidCase{
		{name: "the origin inside", body: `{"origin":[1.5,42.5],"contours":[{"time_minutes":5}],"avoid_areas":` + inside + `}`,
			errs: []wantError{{"/origin", "lies inside polygon 0"}}},
	}, isochroneErr)
}
