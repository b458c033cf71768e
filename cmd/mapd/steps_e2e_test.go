package main

import (
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// TestStepsEndToEnd asks a running mapd for steps over HTTP: in the
// language the body names, in the one Accept-Language prefers when the
// body names none, with a 400 at /language for one it does not write, and
// with the structured members a navigation app needs (location, bearings,
// the step's range in the GeoJSON geometry, exit numbers), every answer
// checked against the OpenAPI document.
func TestStepsEndToEnd(t *testing.T) {
	s := startMapd(t, "--data", compiletest.Andorra(t))
	body := `{"coordinates":[[1.5218,42.5063],[1.5340,42.5100],[1.7333,42.5425]],"include_steps":true,` +
		`"alternatives":0,"geometry_format":"geojson"%s}`
	ca := s.post(t, "/v1/directions", strings.Replace(body, "%s", `,"language":"ca"`, 1))
	if ca.status != 200 || ca.body["language"] != "ca" {
		t.Fatalf("language ca: %d %s", ca.status, ca.raw)
	}
	legs := routeLegs(t, ca)
	first, stop, last := legs[0][0], legs[0][len(legs[0])-1], legs[1][len(legs[1])-1]
	if !strings.HasPrefix(str(first, "instruction"), "Ves cap") || !strings.HasPrefix(str(stop, "instruction"), "Has arribat al punt de pas 1") ||
		!strings.HasPrefix(str(last, "instruction"), "Has arribat a la destinació") {
		t.Errorf("Catalan itinerary: %q ... %q ... %q", str(first, "instruction"), str(stop, "instruction"), str(last, "instruction"))
	}
	checkStructured(t, ca, legs)

	fr := s.doWith(t, http.MethodPost, "/v1/directions", "application/json", strings.Replace(body, "%s", "", 1), map[string]string{"Accept-Language": "de-DE,de;q=0.9,fr;q=0.8,en;q=0.5"})
	if fr.status != 200 || fr.body["language"] != "fr" || !strings.HasPrefix(str(routeLegs(t, fr)[0][0], "instruction"), "Dirigez-vous") {
		t.Fatalf("Accept-Language fr: %d %s", fr.status, fr.raw[:min(len(fr.raw), 600)])
	}
	both := s.doWith(t, http.MethodPost, "/v1/directions", "application/json", strings.Replace(body, "%s", `,"language":"es"`, 1), map[string]string{"Accept-Language": "fr"})
	if both.body["language"] != "es" {
		t.Errorf("the body's language gave way to the header: %v", both.body["language"])
	}
	bad := s.post(t, "/v1/directions", strings.Replace(body, "%s", `,"language":"de"`, 1))
	errs, _ := bad.body["errors"].([]any)
	if bad.status != 400 || len(errs) != 1 || errs[0].(map[string]any)["field"] != "/language" {
		t.Fatalf("language de: %d %s", bad.status, bad.raw)
	}
}

// checkStructured checks every step's structured members against the
// route's GeoJSON geometry.
func checkStructured(t *testing.T, r reply, legs [][]map[string]any) {
	t.Helper()
	rt := r.body["routes"].([]any)[0].(map[string]any)
	var line struct{ Coordinates [][2]float64 }
	if err := json.Unmarshal([]byte(rt["geometry"].(string)), &line); err != nil {
		t.Fatal(err)
	}
	next, roundabouts := 0, 0
	for i, leg := range legs {
		for j, st := range leg {
			rg := st["geometry_range"].([]any)
			b, e := int(rg[0].(float64)), int(rg[1].(float64))
			loc := st["location"].([]any)
			if b != next || e < b || e >= len(line.Coordinates) {
				t.Fatalf("leg %d step %d: range [%d, %d] after %d of %d points", i, j, b, e, next, len(line.Coordinates))
			}
			p := line.Coordinates[b]
			if m := str(st, "maneuver"); m != "depart" && m != "arrive" &&
				(math.Abs(p[0]-loc[0].(float64)) > 1e-6 || math.Abs(p[1]-loc[1].(float64)) > 1e-6) {
				t.Errorf("leg %d step %d %q at %v, its geometry starts at %v", i, j, str(st, "instruction"), loc, p)
			}
			if str(st, "maneuver") == "roundabout" {
				roundabouts++
				if x, ok := st["exit"].(float64); !ok || x < 1 || !strings.Contains(str(st, "instruction"), "sortida") {
					t.Errorf("roundabout without an exit: %v", st)
				}
			}
			if _, ok := st["bearing_after"].(float64); !ok {
				t.Errorf("no bearing_after: %v", st)
			}
			next = e
		}
	}
	if next != len(line.Coordinates)-1 || roundabouts == 0 {
		t.Errorf("steps end at point %d of %d, %d roundabouts", next, len(line.Coordinates), roundabouts)
	}
}

func routeLegs(t *testing.T, r reply) [][]map[string]any {
	t.Helper()
	var out [][]map[string]any
	for _, leg := range r.body["routes"].([]any)[0].(map[string]any)["legs"].([]any) {
		var steps []map[string]any
		for _, st := range leg.(map[string]any)["steps"].([]any) {
			steps = append(steps, st.(map[string]any))
		}
		out = append(out, steps)
	}
	return out
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }
