package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/polyline"
)

// The snapping tests send waypoints as users send them (a click on a
// mountainside, a geocoded hut, a pair typed the wrong way round, a typo in a
// member's name) and check what comes back, over HTTP, against the OpenAPI
// document (every reply is validated by s.post).

const (
	laVella    = `[1.5218,42.5063]`
	mountain   = `[1.6578,42.4873]` // 860 m from the nearest car track, 5 km from the main network
	gallinaIn  = `[1.44615,42.46290]`
	gallinaOut = `[1.44737,42.45597]` // on a one-way road no car can reach
)

// waypoint is one entry of waypoints, sources, targets or origin.
type waypoint struct {
	Location  [2]float64 `json:"location"`
	DistanceM float64    `json:"distance_m"`
	RoadName  string     `json:"road_name"`
}

func waypointsOf(t *testing.T, r reply, member string) []*waypoint {
	t.Helper()
	var body map[string]json.RawMessage
	if err := json.Unmarshal([]byte(r.raw), &body); err != nil {
		t.Fatal(err)
	}
	var out []*waypoint
	if err := json.Unmarshal(body[member], &out); err != nil {
		t.Fatalf("%s: %v in %.300s", member, err, r.raw)
	}
	return out
}

func routeOf(r reply) map[string]any { return r.body["routes"].([]any)[0].(map[string]any) }

func TestSnappingEndToEnd(t *testing.T) {
	s := startMapd(t, "--data", compiletest.Andorra(t))
	directions := func(t *testing.T, body string, status int) reply {
		t.Helper()
		r := s.post(t, "/v1/directions", body)
		if r.status != status {
			t.Fatalf("status %d, want %d: %.600s", r.status, status, r.raw)
		}
		return r
	}
	t.Run("a point on a mountainside is routed and says how far it was", func(t *testing.T) {
		r := directions(t, `{"coordinates":[`+laVella+`,`+mountain+`],"alternatives":0}`, 200)
		w := waypointsOf(t, r, "waypoints")
		if len(w) != 2 || w[0].DistanceM > 10 || w[1].DistanceM < 800 || w[1].DistanceM > 6000 {
			t.Fatalf("waypoints %+v", w)
		}
		// The route ends where the report says.
		if got := lastPoint(t, routeOf(r)); abs(got[0]-w[1].Location[0]) > 2e-6 || abs(got[1]-w[1].Location[1]) > 2e-6 {
			t.Errorf("route ends at %v, the waypoint is reported at %v", got, w[1].Location)
		}
	})
	t.Run("the issue's pair ends on the one-way road the point lies on, as OSRM's does", func(t *testing.T) {
		// The road is entered over a tracktype=grade3 bridge, which cars
		// drive slowly (profiles/README.md), so by car as on foot.
		for _, profile := range []string{"car", "pedestrian"} {
			w := waypointsOf(t, directions(t, `{"coordinates":[`+gallinaIn+`,`+gallinaOut+`],"profile":"`+profile+`"}`, 200), "waypoints")
			if w[1].DistanceM > 2 || w[1].RoadName != "Carretera del Coll de la Gallina" {
				t.Fatalf("%s ends %.1f m from the point on %q", profile, w[1].DistanceM, w[1].RoadName)
			}
		}
	})
	t.Run("outside coverage", func(t *testing.T) {
		r := directions(t, `{"coordinates":[`+laVella+`,[2.17,41.38]]}`, 422)
		checkProblem(t, r, "unroutable", "/coordinates/1")
		if !strings.Contains(messages(r), "outside the area this data release covers") {
			t.Errorf("%s", r.raw)
		}
	})
	t.Run("radiuses", func(t *testing.T) {
		r := directions(t, `{"coordinates":[`+laVella+`,`+mountain+`],"radiuses":[null,100]}`, 422)
		checkProblem(t, r, "unroutable", "/coordinates/1")
		if !strings.Contains(messages(r), "within 100 m of this point (the nearest is 8") {
			t.Errorf("%s", r.raw)
		}
		directions(t, `{"coordinates":[`+laVella+`,`+mountain+`],"radiuses":[10,null]}`, 200)
		r = directions(t, `{"coordinates":[`+laVella+`,`+mountain+`],"radiuses":[10]}`, 400)
		checkProblem(t, r, "invalid-request", "/radiuses")
	})
	t.Run("bearings pick the way the vehicle faces", func(t *testing.T) {
		duration := func(bearings string) float64 {
			r := directions(t, `{"coordinates":[`+laVella+`,[1.7333,42.5425]],"alternatives":0`+bearings+`}`, 200)
			return routeOf(r)["summary"].(map[string]any)["duration_s"].(float64)
		}
		free, north, south := duration(""), duration(`,"bearings":[[0,90],null]`), duration(`,"bearings":[[180,90],null]`)
		if north == south || min(north, south) != free {
			t.Errorf("unconstrained %.3f s, heading north %.3f s, south %.3f s", free, north, south)
		}
		r := directions(t, `{"coordinates":[`+laVella+`,[1.7333,42.5425]],"bearings":[[400,10],null]}`, 400)
		checkProblem(t, r, "invalid-request", "/bearings/0/0")
	})
	t.Run("two identical waypoints as GeoJSON", func(t *testing.T) {
		r := directions(t, `{"coordinates":[`+laVella+`,`+laVella+`],"geometry_format":"geojson"}`, 200)
		var g struct {
			Type        string       `json:"type"`
			Coordinates [][2]float64 `json:"coordinates"`
		}
		if err := json.Unmarshal([]byte(routeOf(r)["geometry"].(string)), &g); err != nil || g.Type != "LineString" || len(g.Coordinates) < 2 {
			t.Fatalf("geometry %v: %v", routeOf(r)["geometry"], err)
		}
	})
	t.Run("mistakes", func(t *testing.T) {
		for _, c := range []struct{ path, body, field, says string }{
			{"/v1/directions", `{"coordinates":[` + laVella + `,` + mountain + `],"profil":"pedestrian"}`, "/profil", `did you mean "profile"?`},
			{"/v1/directions", `{"coordinates":[` + laVella + `,` + mountain + `],"mode":"pedestrian"}`, "/mode", `did you mean "profile"?`},
			{"/v1/directions", `{"coordinates":[` + laVella + `,` + mountain + `],"alternative":2}`, "/alternative", `did you mean "alternatives"?`},
			{"/v1/directions", `{"coordinates":[` + laVella + `,` + mountain + `],"profile":null}`, "/profile", "must not be null"},
			{"/v1/directions", `{"coordinates":[` + laVella + `,[42.5425,1.7333]]}`, "/coordinates/1", "looks swapped"},
			{"/v1/matrix", `{"sources":[` + laVella + `,[42.5063,1.5218]],"targets":[` + laVella + `]}`, "/sources/1", "looks swapped"},
			{"/v1/isochrone", `{"origin":[42.5063,1.5218],"contours":[{"time_minutes":5}]}`, "/origin", "looks swapped"},
			{"/v1/isochrone", `{"origin":` + laVella + `,"contours":[{"time_minutes":5},{"time_minutes":null}]}`, "/contours/1/time_minutes", "got null"},
			{"/v1/isochrone", `{"origin":` + laVella + `,"contours":[{"time_minute":5}]}`, "/contours/0/time_minute", `did you mean "time_minutes"?`},
		} {
			r := s.post(t, c.path, c.body)
			if r.status != 400 {
				t.Fatalf("%s %s: status %d: %.300s", c.path, c.body, r.status, r.raw)
			}
			checkProblem(t, r, "invalid-request", c.field)
			if !strings.Contains(messages(r), c.says) {
				t.Errorf("%s: %s does not say %q", c.body, r.raw, c.says)
			}
		}
	})
	t.Run("matrix reports sources and targets, null where nothing is near", func(t *testing.T) {
		r := s.post(t, "/v1/matrix", `{"sources":[`+laVella+`,[3.5,42.0]],"targets":[`+mountain+`],"target_radiuses":[2000]}`)
		if r.status != 200 {
			t.Fatalf("%d %s", r.status, r.raw)
		}
		src, dst := waypointsOf(t, r, "sources"), waypointsOf(t, r, "targets")
		if len(src) != 2 || src[0] == nil || src[1] != nil || len(dst) != 1 || dst[0] == nil || dst[0].DistanceM < 800 {
			t.Fatalf("sources %+v, targets %+v", src, dst)
		}
		if row := r.body["durations"].([]any)[1].([]any); row[0] != nil {
			t.Errorf("the point at sea has a duration: %v", row)
		}
	})
	t.Run("isochrone reports its origin", func(t *testing.T) {
		r := s.post(t, "/v1/isochrone", `{"origin":`+mountain+`,"contours":[{"time_minutes":5}],"profile":"pedestrian"}`)
		if r.status != 200 {
			t.Fatalf("%d %.300s", r.status, r.raw)
		}
		var o struct {
			Origin waypoint `json:"origin"`
		}
		if err := json.Unmarshal([]byte(r.raw), &o); err != nil || o.Origin.DistanceM <= 0 || o.Origin.DistanceM > 1000 {
			t.Fatalf("origin %+v: %v", o.Origin, err)
		}
	})
}

// messages joins the messages of a problem's field errors.
func messages(r reply) string {
	var out []string
	for _, e := range r.body["errors"].([]any) {
		out = append(out, e.(map[string]any)["message"].(string))
	}
	return strings.Join(out, "\n")
}

// lastPoint decodes the last point of a route's polyline6 geometry.
func lastPoint(t *testing.T, rt map[string]any) [2]float64 {
	t.Helper()
	pts, err := polyline.Decode([]byte(rt["geometry"].(string)), 6)
	if err != nil || len(pts) == 0 {
		t.Fatalf("geometry: %v", err)
	}
	return pts[len(pts)-1]
}

// TestRefusedMistakesCostNothing: a request with a misspelt member is
// refused before anything is charged, where it used to be answered (by
// car) and billed.
func TestRefusedMistakesCostNothing(t *testing.T) {
	dsn := ledgerFile(t)
	a := createAccount(t, dsn, 100)
	s := serveMetered(t, dsn)
	r := s.call(t, "/v1/directions", bearer(a.Secret), `{"coordinates":[`+laVella+`,[1.7333,42.5425]],"profil":"pedestrian"}`)
	if r.status != 400 {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	r = s.call(t, "/v1/directions", bearer(a.Secret), `{"coordinates":[`+laVella+`,[1.7333,42.5425]],"profile":"pedestrian"}`)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	s.stop(t)
	if got := showAccount(t, dsn, a.ID); got.Balance != 99 || got.Usage.Requests != 1 {
		t.Errorf("balance %d after %d charged requests, want 99 after 1", got.Balance, got.Usage.Requests)
	}
}

// TestClosedStreetEndToEnd: a point at the end of Carrer Major's block that
// is closed to cars Mo-Fr 07:00-09:00 snaps, at 08:00 on a Tuesday, to the
// open streets that meet it there (it used to snap to the block and answer
// 422); so does a matrix cell and an isochrone origin.
func TestClosedStreetEndToEnd(t *testing.T) {
	town := compiletest.TimedTown{W: 7, H: 4}
	rel := town.Open(t)
	s := startMapd(t, "--data", rel.Dir)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("mapd's log:\n%s", s.logs)
		}
	})
	// 5 m from corner (0, 3) along the closed block, and 2 m off it.
	corner, block, from := town.Corner(0, 3), town.Corner(0, 2), town.Corner(2, 0)
	p := fmt.Sprintf("[%f,%f]", corner[0]+0.05*(block[0]-corner[0]), corner[1]-0.00002)
	q := fmt.Sprintf("[%f,%f]", from[0], from[1])
	const tue8 = `"departure_time":"2026-11-24T08:00:00+01:00"`
	for _, c := range []struct{ path, body string }{
		// No alternatives: the question is where the point snaps (and at
		// main 5320c98 the via search of alternatives panics on this town).
		{"/v1/directions", `{"coordinates":[` + q + `,` + p + `],"alternatives":0,` + tue8 + `}`},
		{"/v1/directions", `{"coordinates":[` + p + `,` + q + `],"alternatives":0,` + tue8 + `}`},
		{"/v1/matrix", `{"sources":[` + p + `,` + q + `],"targets":[` + q + `,` + p + `],` + tue8 + `}`},
		{"/v1/isochrone", `{"origin":` + p + `,"contours":[{"time_minutes":2}],` + tue8 + `}`},
	} {
		r := s.post(t, c.path, c.body)
		if r.status != 200 {
			t.Fatalf("%s %s: %d %s", c.path, c.body, r.status, r.raw)
		}
		if c.path == "/v1/matrix" && (strings.Contains(r.raw, "null") || r.body["durations"].([]any)[0].([]any)[0] == nil) {
			t.Errorf("matrix at 08:00 has unroutable cells: %s", r.raw)
		}
	}
}
