package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDumpBodies checks that -dump writes exactly the bodies loadgen sends,
// one JSON document per line, which scripts/wrk-bodies.lua relies on.
func TestDumpBodies(t *testing.T) {
	pts := [][2]float64{{1.5232153, 42.5308469}, {1.5977479, 42.5704876}, {1.5898863, 42.5372645}}
	for _, c := range []config{
		{profile: "car", alts: 0, bodies: 5},
		{profile: "foot", alts: -1, bodies: 3},
		{profile: "car", size: 2, bodies: 2},
	} {
		bodies := makeBodies(pts, c)
		path := filepath.Join(t.TempDir(), "bodies")
		if err := dumpBodies(path, bodies); err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimSuffix(raw, []byte("\n")), []byte("\n"))
		if len(lines) != len(bodies) {
			t.Fatalf("%+v: %d lines, want %d", c, len(lines), len(bodies))
		}
		for i, line := range lines {
			if !bytes.Equal(line, bodies[i]) {
				t.Fatalf("%+v: line %d = %s, want %s", c, i, line, bodies[i])
			}
			var body struct {
				Profile      string       `json:"profile"`
				Alternatives *int         `json:"alternatives"`
				Coordinates  [][2]float64 `json:"coordinates"`
				Sources      [][2]float64 `json:"sources"`
			}
			if err := json.Unmarshal(line, &body); err != nil {
				t.Fatalf("%+v: line %d is not JSON: %v", c, i, err)
			}
			if body.Profile != c.profile || (body.Alternatives != nil) != (c.size == 0 && c.alts >= 0) ||
				(c.size == 0 && len(body.Coordinates) != 2) || (c.size > 0 && len(body.Sources) != c.size) {
				t.Fatalf("%+v: line %d = %s", c, i, line)
			}
		}
	}
	if err := dumpBodies(filepath.Join(t.TempDir(), "missing", "bodies"), nil); err == nil {
		t.Fatal("dumping into a missing directory succeeded")
	}
}

// TestOverloadBodies: the overload scenario's expensive directions (50
// waypoints with steps) and cheap elevations (one point, no profile).
func TestOverloadBodies(t *testing.T) {
	pts := [][2]float64{{1.5232153, 42.5308469}, {1.5977479, 42.5704876}, {1.5898863, 42.5372645}}
	var dir struct {
		Coordinates  [][2]float64 `json:"coordinates"`
		IncludeSteps bool         `json:"include_steps"`
	}
	if err := json.Unmarshal(makeBodies(pts, config{profile: "car", alts: -1, bodies: 1, waypoints: 50, steps: true})[0], &dir); err != nil ||
		len(dir.Coordinates) != 50 || !dir.IncludeSteps {
		t.Fatalf("directions body: %+v %v", dir, err)
	}
	elev := makeBodies(pts, config{profile: "car", bodies: 1, elevation: true})[0]
	if string(elev) != `{"coordinates":[[1.5232153,42.5308469]]}` {
		t.Fatalf("elevation body %s", elev)
	}
}

// TestIsochroneBodies: an isochrone body is one origin and one contour of
// the asked minutes, the next body the next point.
func TestIsochroneBodies(t *testing.T) {
	pts := [][2]float64{{1.5232153, 42.5308469}, {1.5977479, 42.5704876}}
	got := makeBodies(pts, config{profile: "car", bodies: 2, isochrone: true, minutes: 30})
	want := []string{`{"profile":"car","origin":[1.5232153,42.5308469],"contours":[{"time_minutes":30}]}`,
		`{"profile":"car","origin":[1.5977479,42.5704876],"contours":[{"time_minutes":30}]}`}
	for i := range want {
		if string(got[i]) != want[i] {
			t.Errorf("body %d: %s, want %s", i, got[i], want[i])
		}
	}
}

// TestOSRMBodies: -osrm asks osrm-routed about the very points of the mapd
// bodies, in the same order, with OSRM's URI syntax.
func TestOSRMBodies(t *testing.T) {
	pts := [][2]float64{{1.5232153, 42.5308469}, {1.5977479, 42.5704876}, {1.5898863, 42.5372645}}
	for _, tc := range []struct {
		c    config
		want string
	}{
		{config{alts: 0, bodies: 2}, "/route/v1/driving/1.5898863,42.5372645;1.5232153,42.5308469?overview=full&geometries=polyline6&steps=false&alternatives=false"},
		{config{alts: -1, steps: true, bodies: 1}, "/route/v1/driving/1.5232153,42.5308469;1.5977479,42.5704876?overview=full&geometries=polyline6&steps=true&alternatives=1"},
		{config{size: 2, bodies: 1, osrmAnnotations: "duration,distance"}, "/table/v1/driving/1.5232153,42.5308469;1.5977479,42.5704876;1.5898863,42.5372645;1.5232153,42.5308469" +
			"?annotations=duration,distance&sources=0;1&destinations=2;3"},
		{config{size: 3, same: true, bodies: 1, osrmAnnotations: "duration"}, "/table/v1/driving/1.5232153,42.5308469;1.5977479,42.5704876;1.5898863,42.5372645" +
			"?annotations=duration"},
	} {
		mapd := makeBodies(pts, tc.c)
		tc.c.osrm = true
		osrm := makeBodies(pts, tc.c)
		got := string(osrm[len(osrm)-1])
		if got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.c, got, tc.want)
		}
		var body struct {
			Coordinates, Sources, Targets [][2]float64
		}
		if err := json.Unmarshal(mapd[len(mapd)-1], &body); err != nil {
			t.Fatal(err)
		}
		coords := append(body.Coordinates, append(body.Sources, body.Targets...)...)
		if tc.c.same {
			if !slices.Equal(body.Sources, body.Targets) {
				t.Fatalf("%+v: targets %v are not the sources %v", tc.c, body.Targets, body.Sources)
			}
			coords = body.Sources
		}
		var b []byte
		for i, p := range coords {
			if i > 0 {
				b = append(b, ';')
			}
			b = fmt.Appendf(b, "%.7f,%.7f", p[0], p[1])
		}
		if !bytes.Contains(osrm[len(osrm)-1], b) {
			t.Errorf("%+v: OSRM's points %s are not mapd's %s", tc.c, got, b)
		}
	}
}
