package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// A release compiled from a profiles directory holding only car.json and
// bicycle.json serves those two; the four others are the client's mistake
// (400, a field error at /profile naming what the release holds), on every
// endpoint that takes a profile.
func TestReleaseWithSomeProfiles(t *testing.T) {
	compiletest.RequireAndorra(t)
	profiles := t.TempDir()
	for _, name := range []string{"car", "bicycle"} {
		data, err := os.ReadFile(filepath.Join(compiletest.Root(), "profiles", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(profiles, name+".json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	build := exec.Command(compiletest.Mapc(t), "build", "--osm", compiletest.SharedData(t, "andorra.osm.pbf"),
		"--profiles", profiles, "--data-version", "two", "--out", out)
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("mapc build with car and bicycle: %v\n%s", err, b)
	}
	s := startMapd(t, "--data", filepath.Join(out, "two"))
	for _, p := range []string{"car", "bicycle"} {
		if r := s.post(t, "/v1/directions", `{"coordinates":`+laVellaToPas+`,"profile":"`+p+`"}`); r.status != 200 {
			t.Errorf("%s: status %d: %s", p, r.status, r.raw)
		}
	}
	cases := []struct{ path, body string }{
		{"/v1/directions", `{"coordinates":` + laVellaToPas + `,"profile":"truck"}`},
		{"/v1/directions", `{"coordinates":` + laVellaToPas + `,"profile":"pedestrian_loaded"}`},
		{"/v1/matrix", `{"sources":[[1.5218,42.5063]],"targets":[[1.7333,42.5425]],"profile":"moto"}`},
		{"/v1/isochrone", `{"origin":[1.5218,42.5063],"contours":[{"time_minutes":5}],"profile":"pedestrian"}`},
	}
	for _, c := range cases {
		r := s.post(t, c.path, c.body)
		if r.status != 400 {
			t.Errorf("%s %s: status %d, want 400: %s", c.path, c.body, r.status, r.raw)
			continue
		}
		checkProblem(t, r, "invalid-request", "/profile")
		if !strings.Contains(r.raw, "it holds car, bicycle") {
			t.Errorf("%s: the answer does not name the profiles the release holds: %s", c.path, r.raw)
		}
	}
}
