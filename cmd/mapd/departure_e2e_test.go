package main

import (
	"fmt"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// TestDepartureTimeEndToEnd serves the demonstration timed town and asks
// directions, a matrix and an isochrone across Carrer Major's block that is
// closed to motor vehicles Mo-Fr 07:00-09:00, at 08:00 and 10:00 on a
// Tuesday (Andorra is UTC+1 in November) and at 08:00 on a Saturday, each
// time with departure_time in the request.
func TestDepartureTimeEndToEnd(t *testing.T) {
	town := compiletest.TimedTown{W: 7, H: 4}
	rel := town.Open(t)
	s := startMapd(t, "--data", rel.Dir)
	a, b := town.Corner(0, 0), town.Corner(0, 6)
	at := map[string]string{
		"tue08": "2026-11-24T08:00:00+01:00",
		"tue10": "2026-11-24T10:00:00+01:00",
		"sat08": "2026-11-28T07:00:00Z", // the same instant as 08:00 local
	}
	seconds := map[string]float64{}
	cell := map[string]float64{}
	for name, when := range at {
		r := s.post(t, "/v1/directions", fmt.Sprintf(`{"coordinates":[[%f,%f],[%f,%f]],"alternatives":0,"departure_time":%q}`, a[0], a[1], b[0], b[1], when))
		if r.status != 200 {
			t.Fatalf("directions at %s: %d %s", when, r.status, r.raw)
		}
		seconds[name] = r.body["routes"].([]any)[0].(map[string]any)["summary"].(map[string]any)["duration_s"].(float64)
		m := s.post(t, "/v1/matrix", fmt.Sprintf(`{"sources":[[%f,%f]],"targets":[[%f,%f]],"departure_time":%q}`, a[0], a[1], b[0], b[1], when))
		if m.status != 200 {
			t.Fatalf("matrix at %s: %d %s", when, m.status, m.raw)
		}
		cell[name] = m.body["durations"].([]any)[0].([]any)[0].(float64)
	}
	t.Logf("directions: %v; matrix: %v", seconds, cell)
	if !(seconds["tue08"] > seconds["tue10"]) || seconds["tue10"] != seconds["sat08"] {
		t.Errorf("directions: want only Tuesday 08:00 slower, got %v", seconds)
	}
	for name := range at {
		if d := cell[name] - seconds[name]; d > 0.001 || d < -0.001 {
			t.Errorf("%s: matrix %.3f s, directions %.3f s", name, cell[name], seconds[name])
		}
	}
	// The isochrone covers less of the town while the street is closed.
	rings := map[string]int{}
	for _, name := range []string{"tue08", "tue10"} {
		r := s.post(t, "/v1/isochrone", fmt.Sprintf(`{"origin":[%f,%f],"contours":[{"time_minutes":1}],"departure_time":%q}`, a[0], a[1], at[name]))
		if r.status != 200 {
			t.Fatalf("isochrone at %s: %d %s", at[name], r.status, r.raw)
		}
		rings[name] = len(r.raw)
	}
	if rings["tue08"] == rings["tue10"] {
		t.Errorf("isochrone identical at 08:00 and 10:00 (%d bytes)", rings["tue08"])
	}
	// An offset-less time is refused with a field error (spec: RFC 3339 with offset).
	r := s.post(t, "/v1/directions", fmt.Sprintf(`{"coordinates":[[%f,%f],[%f,%f]],"departure_time":"2026-11-24T08:00:00"}`, a[0], a[1], b[0], b[1]))
	checkProblem(t, r, "invalid-request", "/departure_time")
}
