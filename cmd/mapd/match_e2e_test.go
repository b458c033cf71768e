package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMatchEndToEnd drives a car from Andorra la Vella to Pas de la Casa
// (mapd's own directions), records it as a phone would (a fix every 5 s
// with 8 m of noise, one far outlier) and asks a metered mapd to match the
// trace over HTTP: the answer matches the drive, costs 1 credit per 100
// started points, and each refusal (decreasing timestamps, too many points,
// a point outside coverage, a trace far from every road) costs nothing; the
// balance after is the one before minus what the answers say they charged.
func TestMatchEndToEnd(t *testing.T) {
	dsn := ledgerFile(t)
	const credits = 100
	a := createAccount(t, dsn, credits)
	s := serveMetered(t, dsn, "--rate-limit", "1000000")
	authz := bearer(a.Secret)

	dir := s.call(t, "/v1/directions", authz, `{"coordinates":[[1.5218,42.5063],[1.7333,42.5425]],"alternatives":0,"geometry_format":"geojson"}`)
	if dir.status != 200 {
		t.Fatalf("directions: %d %s", dir.status, dir.raw)
	}
	spent := int64(dir.body["credits_charged"].(float64))
	rt := dir.body["routes"].([]any)[0].(map[string]any)
	want := rt["summary"].(map[string]any)["distance_m"].(float64)
	var line struct{ Coordinates [][2]float64 }
	if err := json.Unmarshal([]byte(rt["geometry"].(string)), &line); err != nil {
		t.Fatal(err)
	}
	pts, stamps := recordDrive(line.Coordinates, 150, 8)
	pts[70] = [2]float64{pts[70][0] + 0.004, pts[70][1] + 0.003} // ~400 m off: an outlier

	body, _ := json.Marshal(map[string]any{"coordinates": pts, "timestamps": stamps, "include_steps": true})
	r := s.call(t, "/v1/match", authz, string(body))
	if r.status != 200 {
		t.Fatalf("match: %d %.500s", r.status, r.raw)
	}
	if got := r.body["credits_charged"]; got != 2.0 {
		t.Errorf("150 points charged %v credits, want 2", got)
	}
	spent += 2
	matched := 0.0
	for i, m := range r.body["matchings"].([]any) {
		mm := m.(map[string]any)
		c := mm["confidence"].(float64)
		if c < 0 || c > 1 {
			t.Errorf("matching %d: confidence %v", i, c)
		}
		matched += mm["summary"].(map[string]any)["distance_m"].(float64)
	}
	if math.Abs(matched-want) > 0.05*want {
		t.Errorf("matched %.0f m of a %.0f m drive", matched, want)
	}
	tps := r.body["tracepoints"].([]any)
	if len(tps) != len(pts) {
		t.Fatalf("%d tracepoints for %d points", len(tps), len(pts))
	}
	placed := 0
	for _, tp := range tps {
		if tp != nil {
			placed++
		}
	}
	if tps[70] != nil || placed < len(pts)-5 {
		t.Errorf("outlier placed %v; %d of %d points placed", tps[70], placed, len(pts))
	}
	t.Logf("%.0f m driven, %.0f m matched in %d matchings, %d of %d points placed, GPS error %.1f m",
		want, matched, len(r.body["matchings"].([]any)), placed, len(pts), r.body["gps_error_m"])

	// Refusals cost nothing.
	back := append([]float64{}, stamps...)
	back[3] = back[2] - 1
	tooMany := make([][2]float64, 2001)
	for i := range tooMany {
		tooMany[i] = pts[i%len(pts)]
	}
	// The largest request: the drive 13 times over and a bit (each time
	// back to the start in one jump), 2,000 points, 20 credits.
	r = s.call(t, "/v1/match", authz, marshal(map[string]any{"coordinates": tooMany[:MaxMatchPoints]}))
	if r.status != 200 || r.body["credits_charged"] != 20.0 || len(r.body["tracepoints"].([]any)) != MaxMatchPoints {
		t.Fatalf("2000 points: %d, %.300s", r.status, r.raw)
	}
	spent += 20
	t.Logf("2000 points: %d matchings", len(r.body["matchings"].([]any)))

	for _, f := range []struct {
		name, body   string
		status       int
		suffix, what string
	}{
		{"decreasing timestamps", marshal(map[string]any{"coordinates": pts, "timestamps": back}), 400, "invalid-request", "/timestamps/3"},
		{"2001 points", marshal(map[string]any{"coordinates": tooMany}), 400, "invalid-request", "/coordinates"},
		{"outside coverage", marshal(map[string]any{"coordinates": [][2]float64{pts[0], {2.35, 48.85}}}), 400, "invalid-request", "/coordinates/1"},
		{"lengths differ", marshal(map[string]any{"coordinates": pts[:3], "radiuses": []float64{5, 5}}), 400, "invalid-request", "/radiuses"},
		// The summit of Comapedrosa: no car road within 15 m (3 × the radius).
		{"no road near", `{"coordinates":[[1.4446,42.5917],[1.4449,42.5919]],"radiuses":[5,5]}`, 422, "unroutable", ""},
	} {
		r := s.call(t, "/v1/match", authz, f.body)
		if r.status != f.status {
			t.Fatalf("%s: %d %.300s", f.name, r.status, r.raw)
		}
		checkProblem(t, r, f.suffix, f.what)
	}
	if got := showAccount(t, dsn, a.ID).Balance; got != credits-spent {
		t.Errorf("balance %d after spending %d of %d", got, spent, credits)
	}
	verifyLedger(t, dsn)
}

// MaxMatchPoints is the endpoint's limit (api.MaxMatchCoordinates).
const MaxMatchPoints = 2000

// recordDrive samples n fixes evenly along a line, each moved by Gaussian
// noise of sigma metres, with timestamps 5 s apart (seconds since 1970).
func recordDrive(line [][2]float64, n int, sigma float64) ([][2]float64, []float64) {
	rng := rand.New(rand.NewPCG(38, 38))
	length := make([]float64, len(line))
	for i := 1; i < len(line); i++ {
		length[i] = length[i-1] + metres(line[i-1], line[i])
	}
	total := length[len(line)-1]
	pts, stamps := make([][2]float64, n), make([]float64, n)
	j := 1
	for i := range n {
		at := total * float64(i) / float64(n-1)
		for j < len(line)-1 && length[j] < at {
			j++
		}
		f := 0.0
		if d := length[j] - length[j-1]; d > 0 {
			f = (at - length[j-1]) / d
		}
		p := [2]float64{line[j-1][0] + f*(line[j][0]-line[j-1][0]), line[j-1][1] + f*(line[j][1]-line[j-1][1])}
		k := math.Cos(p[1] * math.Pi / 180)
		p[0] += rng.NormFloat64() * sigma / 111195 / k
		p[1] += rng.NormFloat64() * sigma / 111195
		pts[i], stamps[i] = p, 1764316800+5*float64(i)
	}
	return pts, stamps
}

// metres is the planar distance between two nearby points.
func metres(a, b [2]float64) float64 {
	k := math.Cos(a[1] * math.Pi / 180)
	return math.Hypot((b[0]-a[0])*k, b[1]-a[1]) * 111195
}

func marshal(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprint(v, err))
	}
	return strings.TrimSpace(string(b))
}
