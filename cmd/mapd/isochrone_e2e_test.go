package main

import (
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

func TestIsochroneEndToEnd(t *testing.T) {
	s := startMapd(t, "--data", compiletest.Andorra(t))
	// Contours out of order and of both units: features come back in the
	// order the request listed them.
	r := s.post(t, "/v1/isochrone", `{"origin":[1.5218,42.5063],"contours":[{"time_minutes":20},{"distance_km":3},{"time_minutes":10}],"departure_time":"2026-11-22T08:00:00+01:00"}`)
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d: %s", r.status, r.raw)
	}
	if r.body["profile"] != "car" || r.body["data_version"] != "test1" || !strings.HasPrefix(r.body["request_id"].(string), "req_") {
		t.Fatalf("envelope: %.300s", r.raw)
	}
	fc := r.body["features"].(map[string]any)
	if fc["type"] != "FeatureCollection" {
		t.Fatalf("features.type %v", fc["type"])
	}
	feats := fc["features"].([]any)
	want := []struct {
		contour float64
		unit    string
	}{{20, "minutes"}, {3, "kilometers"}, {10, "minutes"}}
	if len(feats) != len(want) {
		t.Fatalf("%d features, want %d", len(feats), len(want))
	}
	var areas []float64
	for i, f := range feats {
		f := f.(map[string]any)
		props := f["properties"].(map[string]any)
		if f["type"] != "Feature" || props["contour"] != want[i].contour || props["unit"] != want[i].unit {
			t.Errorf("feature %d: type %v, properties %v, want %v", i, f["type"], props, want[i])
		}
		areas = append(areas, exteriorArea(t, f["geometry"].(map[string]any)))
	}
	if !(areas[2] > 0 && areas[2] < areas[0]) {
		t.Errorf("10-minute area %g is not smaller than the 20-minute one %g", areas[2], areas[0])
	}

	cases := []struct{ name, body, field string }{
		{"origin at sea", `{"origin":[3.5,42.0],"contours":[{"time_minutes":10}]}`, "/origin"},
		{"five contours", `{"origin":[1.5218,42.5063],"contours":[{"time_minutes":1},{"time_minutes":2},{"time_minutes":3},{"time_minutes":4},{"time_minutes":5}]}`, "/contours"},
		{"budget too large", `{"origin":[1.5218,42.5063],"contours":[{"time_minutes":121}]}`, "/contours/0/time_minutes"},
		{"both budgets", `{"origin":[1.5218,42.5063],"contours":[{"time_minutes":10,"distance_km":2}]}`, "/contours/0"},
		{"no origin", `{"contours":[{"time_minutes":10}]}`, "/origin"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.post(t, "/v1/isochrone", c.body)
			if r.status != 400 {
				t.Fatalf("status %d: %.300s", r.status, r.raw)
			}
			checkProblem(t, r, "invalid-request", c.field)
		})
	}
}

// exteriorArea checks a Polygon or MultiPolygon's rings are closed and
// returns the summed area of its exteriors in square degrees, which must
// be counter-clockwise (positive).
func exteriorArea(t *testing.T, g map[string]any) float64 {
	t.Helper()
	var polys []any
	switch g["type"] {
	case "Polygon":
		polys = []any{g["coordinates"]}
	case "MultiPolygon":
		polys = g["coordinates"].([]any)
	default:
		t.Fatalf("geometry type %v", g["type"])
	}
	total := 0.0
	for _, p := range polys {
		for k, r := range p.([]any) {
			pts := r.([]any)
			first, last := pts[0].([]any), pts[len(pts)-1].([]any)
			if len(pts) < 4 || first[0] != last[0] || first[1] != last[1] {
				t.Fatalf("ring of %d points not closed", len(pts))
			}
			a := 0.0
			for i := 1; i < len(pts); i++ {
				p, q := pts[i-1].([]any), pts[i].([]any)
				a += p[0].(float64)*q[1].(float64) - q[0].(float64)*p[1].(float64)
			}
			if (k == 0) != (a > 0) {
				t.Errorf("ring %d has signed area %g", k, a/2)
			}
			if k == 0 {
				total += a / 2
			}
		}
	}
	return total
}
