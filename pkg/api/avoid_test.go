package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/serving"
)

// avoidServer serves Andorra over HTTP on a loopback port; post sends a
// body to a /v1 path and returns the status and the decoded answer.
type avoidServer struct {
	rel  *serving.Release
	base string
}

func newAvoidServer(t *testing.T) *avoidServer {
	t.Helper()
	rel := compiletest.OpenAndorra(t)
	s, err := New(Config{Releases: serving.NewHolder(rel)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := s.HTTPServer()
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Shutdown() })
	return &avoidServer{rel: rel, base: "http://" + ln.Addr().String() + "/v1/"}
}

func (a *avoidServer) post(t *testing.T, path, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(a.base+path, "application/json", bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v: %s", path, err, b)
	}
	return resp.StatusCode, out
}

// tunnelSquare is a GeoJSON Polygon of about 200 m around the middle of the
// Envalira tunnel (OSM way 6176755).
func (a *avoidServer) tunnelSquare(t *testing.T) string {
	t.Helper()
	net := a.rel.Network
	var mids [][2]float64
	for s := range uint32(net.NumSegments()) {
		if net.SegWay[s] == 6176755 {
			begin, end := net.Points(s)
			lon, lat := net.Point((begin + end) / 2)
			mids = append(mids, [2]float64{lon, lat})
		}
	}
	if len(mids) == 0 {
		t.Fatal("no segment of the Envalira tunnel")
	}
	m := mids[len(mids)/2]
	return fmt.Sprintf(`{"type":"Polygon","coordinates":[[[%f,%f],[%f,%f],[%f,%f],[%f,%f],[%f,%f]]]}`,
		m[0]-0.001, m[1]-0.001, m[0]+0.001, m[1]-0.001, m[0]+0.001, m[1]+0.001, m[0]-0.001, m[1]+0.001, m[0]-0.001, m[1]-0.001)
}

// routeSeconds is the first route's duration in a directions answer.
func routeSeconds(t *testing.T, out map[string]any) float64 {
	t.Helper()
	routes, _ := out["routes"].([]any)
	if len(routes) == 0 {
		t.Fatalf("no route: %v", out)
	}
	return routes[0].(map[string]any)["summary"].(map[string]any)["duration_s"].(float64)
}

// firstError is the pointer and message of a 400's first field error.
func firstError(out map[string]any) (field, message string) {
	errs, _ := out["errors"].([]any)
	if len(errs) == 0 {
		return "", ""
	}
	e := errs[0].(map[string]any)
	return e["field"].(string), e["message"].(string)
}

// TestAvoidOverHTTP: the new members end to end, on Andorra: a car
// avoiding a square over the Envalira tunnel takes the pass instead (as
// with exclude tunnel), a waypoint inside the square is a 400 at its
// pointer, a matrix under the square agrees with directions under it, an
// isochrone under it changes, and the walking and cycling options are
// answered on their profiles and refused at their pointer on others.
func TestAvoidOverHTTP(t *testing.T) {
	a := newAvoidServer(t)
	sq := a.tunnelSquare(t)
	grauRoig, pasDeLaCasa := "[1.686162,42.552528]", "[1.733594,42.543642]"
	trip := `"coordinates":[` + grauRoig + `,` + pasDeLaCasa + `],"alternatives":0`
	status, plain := a.post(t, "directions", `{`+trip+`}`)
	if status != 200 {
		t.Fatalf("plain: %d %v", status, plain)
	}
	status, avoided := a.post(t, "directions", `{`+trip+`,"avoid_areas":`+sq+`}`)
	if status != 200 {
		t.Fatalf("avoiding the tunnel: %d %v", status, avoided)
	}
	status, excluded := a.post(t, "directions", `{`+trip+`,"exclude":["tunnel"]}`)
	if status != 200 {
		t.Fatalf("excluding tunnels: %d %v", status, excluded)
	}
	p, v, x := routeSeconds(t, plain), routeSeconds(t, avoided), routeSeconds(t, excluded)
	t.Logf("Grau Roig to Pas de la Casa: %.0f s, %.0f s avoiding the square, %.0f s without tunnels", p, v, x)
	if v <= p || math.Abs(v-x) > 1 {
		t.Errorf("avoiding the square over the tunnel: %.0f s; plain %.0f s, without tunnels %.0f s", v, p, x)
	}

	var mid [2]float64
	fmt.Sscanf(sq, `{"type":"Polygon","coordinates":[[[%f,%f]`, &mid[0], &mid[1])
	inside := fmt.Sprintf("[%f,%f]", mid[0]+0.001, mid[1]+0.001)
	status, out := a.post(t, "directions", `{"coordinates":[`+grauRoig+`,`+inside+`],"avoid_areas":`+sq+`}`)
	if f, m := firstError(out); status != 400 || f != "/coordinates/1" {
		t.Errorf("a waypoint inside: %d %s %s", status, f, m)
	}

	// The matrix under the square agrees with directions under it, cell
	// by cell (its table repairs the cells the square's closures touch).
	pts := []string{grauRoig, pasDeLaCasa, "[1.5218,42.5063]"}
	list := "[" + pts[0] + "," + pts[1] + "," + pts[2] + "]"
	status, m := a.post(t, "matrix", `{"sources":`+list+`,"targets":`+list+`,"avoid_areas":`+sq+`}`)
	if status != 200 {
		t.Fatalf("matrix: %d %v", status, m)
	}
	rows := m["durations"].([]any)
	for i := range pts {
		for j := range pts {
			if i == j {
				continue
			}
			_, d := a.post(t, "directions", `{"coordinates":[`+pts[i]+`,`+pts[j]+`],"alternatives":0,"avoid_areas":`+sq+`}`)
			cell := rows[i].([]any)[j].(float64)
			if got := routeSeconds(t, d); math.Abs(got-cell) > 0.01 {
				t.Errorf("matrix cell %d,%d %.3f s, directions %.3f s", i, j, cell, got)
			}
		}
	}

	iso := `"origin":` + grauRoig + `,"contours":[{"time_minutes":20}]` // the far side of the tunnel
	_, isoPlain := a.post(t, "isochrone", `{`+iso+`}`)
	status, isoAvoid := a.post(t, "isochrone", `{`+iso+`,"avoid_areas":`+sq+`}`)
	if status != 200 || fmt.Sprint(isoAvoid["features"]) == fmt.Sprint(isoPlain["features"]) {
		t.Errorf("isochrone avoiding the tunnel: %d, the same contour as without: %v", status, status == 200)
	}

	walk := `"coordinates":[[1.5218,42.5063],[1.5340,42.5110]],"profile":"pedestrian","max_hiking_difficulty":"T1"`
	if status, out := a.post(t, "directions", `{`+walk+`}`); status != 200 {
		t.Errorf("pedestrian T1: %d %v", status, out)
	}
	status, out = a.post(t, "directions", `{"coordinates":[[1.5218,42.5063],[1.5340,42.5110]],"max_hiking_difficulty":"T1"}`)
	if f, _ := firstError(out); status != 400 || f != "/max_hiking_difficulty" {
		t.Errorf("hiking on a car: %d %v", status, out)
	}
	if status, out := a.post(t, "matrix", `{"sources":[[1.5218,42.5063]],"targets":[[1.5340,42.5110]],"profile":"bicycle","avoid_steps":true}`); status != 200 {
		t.Errorf("bicycle avoiding steps: %d %v", status, out)
	}
	status, out = a.post(t, "isochrone", `{`+iso+`,"profile":"truck","avoid_steps":true}`)
	if f, _ := firstError(out); status != 400 || f != "/avoid_steps" {
		t.Errorf("steps on a truck: %d %v", status, out)
	}
}
