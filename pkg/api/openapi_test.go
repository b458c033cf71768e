package api

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// loadOpenAPI parses and validates the embedded document as kin-openapi
// (the library the end-to-end tests validate responses with) reads it.
func loadOpenAPI(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(OpenAPIDocument())
	if err != nil {
		t.Fatalf("load openapi.json: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.json is not a valid OpenAPI document: %v", err)
	}
	if !doc.IsOpenAPI31OrLater() {
		t.Fatalf("openapi.json is OpenAPI %s, want 3.1", doc.OpenAPI)
	}
	return doc
}

// specComputePaths are the four operations of spec §4 and /match (an
// endpoint added as §9 allows); the document describes them all, whether
// or not this build serves them yet.
var specComputePaths = []string{"/v1/directions", "/v1/matrix", "/v1/isochrone", "/v1/elevation", "/v1/match"}

func TestOpenAPIDocumentsEveryEndpoint(t *testing.T) {
	doc := loadOpenAPI(t)
	s := &Server{paths: map[string]path{}}
	for p := range computePaths(s) {
		s.paths[p] = path{method: "POST"}
	}
	for p, e := range servicePaths(s) {
		s.paths[p] = e
	}
	for p, method := range s.Paths() {
		item := doc.Paths.Value(strings.TrimPrefix(p, "/v1"))
		if item == nil || item.GetOperation(method) == nil {
			t.Errorf("%s %s is served but not documented", method, p)
		}
	}
	for p, item := range doc.Paths.Map() {
		full := "/v1" + p
		if _, served := s.paths[full]; !served && !contains(specComputePaths, full) {
			t.Errorf("%s is documented but neither served nor in the specification", full)
		}
		for method, op := range item.Operations() {
			compute := op.Security == nil || len(*op.Security) > 0
			if compute != contains(specComputePaths, full) {
				t.Errorf("%s %s: security %v; want a bearer key exactly on compute operations", method, full, op.Security)
			}
			for status, r := range op.Responses.Map() {
				if r.Value.Headers[AttributionHeader] == nil || !r.Value.Headers[AttributionHeader].Value.Required {
					t.Errorf("%s %s %s: no required %s header", method, full, status, AttributionHeader)
				}
			}
		}
	}
}

func TestOpenAPIProblemTypes(t *testing.T) {
	doc := loadOpenAPI(t)
	typ := doc.Components.Schemas["Problem"].Value.Properties["type"].Value
	re := regexp.MustCompile(typ.Pattern)
	for k := KindInvalidRequest; k <= KindIdempotencyKeyInUse; k++ { // the last Kind
		if !re.MatchString(k.Type()) || !strings.Contains(typ.Description, strings.TrimPrefix(k.Type(), ErrorsBase)) {
			t.Errorf("problem type %s is not documented", k.Type())
		}
	}
}

func TestOpenAPILimitsMatchTheDecoders(t *testing.T) {
	doc := loadOpenAPI(t)
	prop := func(schema, field string) *openapi3.Schema {
		return doc.Components.Schemas[schema].Value.Properties[field].Value
	}
	cases := []struct {
		name     string
		min, max float64
		wantMin  float64
		wantMax  float64
	}{
		{"directions coordinates", float64(prop("DirectionsRequest", "coordinates").MinItems), float64(*prop("DirectionsRequest", "coordinates").MaxItems),
			MinDirectionsCoordinates, MaxDirectionsCoordinates},
		{"alternatives", *prop("DirectionsRequest", "alternatives").Min, *prop("DirectionsRequest", "alternatives").Max, MinAlternatives, MaxAlternatives},
		{"matrix sources", float64(prop("MatrixRequest", "sources").MinItems), float64(*prop("MatrixRequest", "sources").MaxItems), MinMatrixLocations, MaxMatrixLocations},
		{"matrix targets", float64(prop("MatrixRequest", "targets").MinItems), float64(*prop("MatrixRequest", "targets").MaxItems), MinMatrixLocations, MaxMatrixLocations},
		{"contours", float64(prop("IsochroneRequest", "contours").MinItems), float64(*prop("IsochroneRequest", "contours").MaxItems), MinContours, MaxContours},
		{"time budget", *prop("Contour", "time_minutes").Min, *prop("Contour", "time_minutes").Max, MinContourMinutes, MaxContourMinutes},
		{"distance budget", *prop("Contour", "distance_km").Min, *prop("Contour", "distance_km").Max, MinContourKilometers, MaxContourKilometers},
		{"elevation points", float64(prop("ElevationRequest", "coordinates").MinItems), float64(*prop("ElevationRequest", "coordinates").MaxItems), MinElevationCoordinates, MaxElevationCoordinates},
		{"field errors", 0, float64(*prop("Problem", "errors").MaxItems), 0, MaxFieldErrors},
		{"instance", 0, float64(*prop("Problem", "instance").MaxLength), 0, MaxInstanceLength},
		{"detail", 0, float64(*prop("Problem", "detail").MaxLength), 0, MaxDetailLength},
		{"radius", 0, *doc.Components.Schemas["Radius"].Value.Max, 0, MaxRadius},
		{"bearing", *bearingPart(doc, 0).Min, *bearingPart(doc, 0).Max, 0, MaxBearing},
		{"bearing tolerance", *bearingPart(doc, 1).Min, *bearingPart(doc, 1).Max, 0, MaxBearingTolerance},
		{"radiuses", float64(prop("DirectionsRequest", "radiuses").MinItems), float64(*prop("DirectionsRequest", "radiuses").MaxItems),
			MinDirectionsCoordinates, MaxDirectionsCoordinates},
		{"source bearings", float64(prop("MatrixRequest", "source_bearings").MinItems), float64(*prop("MatrixRequest", "source_bearings").MaxItems),
			MinMatrixLocations, MaxMatrixLocations},
		{"match points", float64(prop("MatchRequest", "coordinates").MinItems), float64(*prop("MatchRequest", "coordinates").MaxItems),
			MinMatchCoordinates, MaxMatchCoordinates},
		{"match timestamps", float64(prop("MatchRequest", "timestamps").MinItems), float64(*prop("MatchRequest", "timestamps").MaxItems),
			MinMatchCoordinates, MaxMatchCoordinates},
	}
	if r := doc.Components.Schemas["Radius"].Value; r.ExclusiveMin.Value == nil || *r.ExclusiveMin.Value != 0 {
		t.Errorf("a radius must be documented as greater than 0, as the decoder enforces")
	}
	// The decoders refuse members they do not know: every request schema says so.
	for _, name := range []string{"DirectionsRequest", "MatrixRequest", "IsochroneRequest", "ElevationRequest", "MatchRequest", "Contour"} {
		if ap := doc.Components.Schemas[name].Value.AdditionalProperties; ap.Has == nil || *ap.Has {
			t.Errorf("%s does not forbid other members, which the server refuses", name)
		}
	}
	members := map[string][]member{"DirectionsRequest": directionsMembers, "MatrixRequest": matrixMembers,
		"IsochroneRequest": isochroneMembers, "ElevationRequest": elevationMembers, "MatchRequest": matchMembers,
		"Contour": contourMembers}
	for name, ms := range members {
		props := doc.Components.Schemas[name].Value.Properties
		for _, m := range ms {
			if props[m.String()] == nil {
				t.Errorf("%s: member %s is decoded but not documented", name, m)
			}
		}
		if len(props) != len(ms) {
			t.Errorf("%s documents %d members, the decoder knows %d", name, len(props), len(ms))
		}
	}
	for _, c := range cases {
		if c.min != c.wantMin || c.max != c.wantMax {
			t.Errorf("%s: documented %v..%v, decoders enforce %v..%v", c.name, c.min, c.max, c.wantMin, c.wantMax)
		}
	}
	enum := doc.Components.Schemas["Profile"].Value.Enum
	if len(enum) != len(Profiles()) {
		t.Fatalf("profiles documented %v, want %v", enum, Profiles())
	}
	for i, p := range Profiles() {
		if enum[i] != p {
			t.Errorf("profile %d documented %v, want %s", i, enum[i], p)
		}
	}
}

func bearingPart(doc *openapi3.T, i int) *openapi3.Schema {
	return doc.Components.Schemas["Bearing"].Value.PrefixItems[i].Value
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
