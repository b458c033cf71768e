package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/release"
	"github.com/mapsco/maps/pkg/serving"
)

// srtmTile is the source raster of the test releases' DEM, as GDAL opens it.
func srtmTile(t *testing.T) string {
	return "/vsizip/" + compiletest.SharedData(t, "dem/N42E001.hgt.zip") + "/N42E001.hgt"
}

// elevations posts coordinates to /v1/elevation and returns elevations_m.
func elevations(t *testing.T, s *server, pts [][2]float64) []any {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"coordinates": pts})
	r := s.post(t, "/v1/elevation", string(b))
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.raw)
	}
	hs, ok := r.body["elevations_m"].([]any)
	if !ok || len(hs) != len(pts) {
		t.Fatalf("elevations_m of %d values for %d points: %.300s", len(hs), len(pts), r.raw)
	}
	return hs
}

// TestElevationMatchesGDAL: 20 points of Andorra answer what GDAL reads
// from the source tile, blended bilinearly between the four posts around
// each point (gdallocationinfo -r bilinear needs GDAL 3.10; Debian 12 has
// 3.6, so the posts are read one by one), within 1 m.
func TestElevationMatchesGDAL(t *testing.T) {
	s := startMapd(t, "--data", compiletest.Andorra(t))
	rng := rand.New(rand.NewPCG(20, 20))
	var pts [][2]float64
	var want []float64
	for len(pts) < 20 {
		p := [2]float64{1.41 + 0.38*rng.Float64(), 42.43 + 0.23*rng.Float64()}
		if h, ok := gdalBilinear(t, p); ok { // a void post is filled by mapc, not by GDAL: skip it
			pts, want = append(pts, p), append(want, h)
		}
	}
	got := elevations(t, s, pts)
	worst := 0.0
	for i, g := range got {
		h, ok := g.(float64)
		if !ok || math.Abs(h-want[i]) > 1 {
			t.Errorf("point %v: mapd %v, GDAL %.2f", pts[i], g, want[i])
			continue
		}
		worst = math.Max(worst, math.Abs(h-want[i]))
	}
	t.Logf("largest difference from GDAL over 20 points: %.3f m", worst)
}

// gdalBilinear reads the four SRTM posts around p with gdallocationinfo
// (pixel coordinates) and blends them. Post (i, j) of N42E001 lies at
// (1 + i/1200, 43 - j/1200).
func gdalBilinear(t *testing.T, p [2]float64) (float64, bool) {
	t.Helper()
	x, y := (p[0]-1)*1200, (43-p[1])*1200
	c, r := math.Floor(x), math.Floor(y)
	var in bytes.Buffer
	for _, d := range [4][2]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
		fmt.Fprintf(&in, "%.1f %.1f\n", c+d[0]+0.5, r+d[1]+0.5)
	}
	cmd := exec.Command("gdallocationinfo", "-valonly", srtmTile(t))
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gdallocationinfo: %v", err)
	}
	var v [4]float64
	for i, f := range strings.Fields(string(out)) {
		if v[i], err = strconv.ParseFloat(f, 64); err != nil || v[i] < -500 {
			return 0, false
		}
	}
	wx, wy := x-c, y-r
	return (v[0]*(1-wx)+v[1]*wx)*(1-wy) + (v[2]*(1-wx)+v[3]*wx)*wy, true
}

// TestElevationOrderAndCoverage: 1000 points come back in request order,
// equal to the release's DEM read in process; points at sea or beyond the
// tiles are null; a request of 0 or 1001 points is refused.
func TestElevationOrderAndCoverage(t *testing.T) {
	dir := compiletest.Andorra(t)
	s := startMapd(t, "--data", dir)
	rel, err := serving.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer rel.Close()
	rng := rand.New(rand.NewPCG(1000, 1))
	pts := make([][2]float64, 1000)
	for i := range pts {
		pts[i] = [2]float64{1.0 + rng.Float64(), 42.0 + rng.Float64()}
	}
	pts[17], pts[500], pts[999] = [2]float64{2.2, 41.3}, [2]float64{3.5, 42.5}, [2]float64{-60, 10} // sea, sea, ocean
	got := elevations(t, s, pts)
	for i, g := range got {
		want, ok := rel.DEM.At(pts[i][0], pts[i][1])
		h, isNum := g.(float64)
		if ok != isNum || (ok && math.Abs(h-want) > 0.005) {
			t.Fatalf("point %d %v: got %v, DEM reads %v (covered %v)", i, pts[i], g, want, ok)
		}
	}
	for _, i := range []int{17, 500, 999} {
		if got[i] != nil {
			t.Errorf("point %d at sea %v: %v, want null", i, pts[i], got[i])
		}
	}
	none := s.post(t, "/v1/elevation", `{"coordinates":[]}`)
	if none.status != 400 {
		t.Fatalf("0 points: status %d", none.status)
	}
	checkProblem(t, none, "invalid-request", "/coordinates")
	b, _ := json.Marshal(map[string]any{"coordinates": append(pts, pts[0])})
	if r := s.post(t, "/v1/elevation", string(b)); r.status != 400 {
		t.Fatalf("1001 points: status %d", r.status)
	}
}

// TestNoDEM: a release built without --dem answers null everywhere and
// gives routes no elevation, and a release with one gives every route one.
func TestNoDEM(t *testing.T) {
	with := startMapd(t, "--data", compiletest.Andorra(t))
	r := with.post(t, "/v1/directions", `{"coordinates":`+laVellaToPas+`,"profile":"pedestrian"}`)
	rt := r.body["routes"].([]any)[0].(map[string]any)
	el, ok := rt["elevation"].(map[string]any)
	if !ok || el["ascent_m"].(float64) < 900 || el["descent_m"].(float64) < 0 || el["max_grade"].(float64) <= 0 {
		t.Fatalf("route elevation %v", rt["elevation"])
	}
	if v := rt["speed_model_version"].(string); !strings.HasSuffix(v, "-grade-2") || rt["speed_model_status"] != "provisional" {
		t.Errorf("speed model %v %v", v, rt["speed_model_status"])
	}

	without := startMapd(t, "--data", withoutDEM(t, compiletest.Andorra(t)))
	for _, h := range elevations(t, without, [][2]float64{{1.5218, 42.5063}, {1.7333, 42.5425}}) {
		if h != nil {
			t.Errorf("a release without DEM answered %v", h)
		}
	}
	r = without.post(t, "/v1/directions", `{"coordinates":`+laVellaToPas+`,"profile":"car"}`)
	if _, ok := r.body["routes"].([]any)[0].(map[string]any)["elevation"]; ok {
		t.Errorf("a release without DEM gave a route elevation: %.300s", r.raw)
	}
}

// withoutDEM copies a release's graph.map (a hard link) and manifest into a
// new release directory, leaving elevation.map out: a release as mapc
// builds it without --dem, for this test's purpose.
func withoutDEM(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "nodem")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(dir, release.GraphFile), filepath.Join(out, release.GraphFile)); err != nil {
		t.Fatal(err)
	}
	m, err := release.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	m.DEM = nil
	var files []release.FileInfo
	for _, f := range m.Files {
		if f.Name != release.ElevationFile {
			files = append(files, f)
		}
	}
	m.Files = files
	b, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(out, release.ManifestFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}
