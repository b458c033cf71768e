package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/polyline"
)

// The end-to-end tests build the real mapd binary, start it on a release
// compiled from Andorra, and speak HTTP to it.

var mapdBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mapd-e2e-")
	if err != nil {
		panic(err)
	}
	mapdBin = filepath.Join(dir, "mapd")
	build := exec.Command("go", "build", "-o", mapdBin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // as operators get it: one static file (deps_test.go)
	out, err := build.CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build mapd: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	compiletest.Cleanup()
	os.RemoveAll(dir)
	os.Exit(code)
}

// server is a running mapd.
type server struct {
	base string
	cmd  *exec.Cmd
	logs *bytes.Buffer
	key  string // the bearer key of the funded test account
}

// startMapd runs `mapd serve` on a free port and waits for its "serving" line.
func startMapd(t *testing.T, args ...string) *server {
	t.Helper()
	metered, key := meteringArgs(t)
	return startServe(t, mapdBin, key, append(metered, args...)...)
}

// startServe runs `bin serve` with args on a free port and waits for its
// "serving" line; key is the bearer key its requests need, if any.
func startServe(t *testing.T, bin, key string, args ...string) *server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, append([]string{"serve", "--listen", addr}, args...)...)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{base: "http://" + addr, cmd: cmd, logs: &bytes.Buffer{}, key: key}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	ready := make(chan map[string]any, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			s.logs.Write(append(sc.Bytes(), '\n'))
			var line map[string]any
			if json.Unmarshal(sc.Bytes(), &line) == nil && line["msg"] == "serving" {
				ready <- line
			}
		}
		close(ready)
	}()
	select {
	case line, ok := <-ready:
		if !ok {
			t.Fatalf("mapd exited before serving")
		}
		t.Logf("mapd ready: start-up %v ms, resident %v MiB", line["startup_ms"], line["rss_mib"])
	case <-time.After(30 * time.Second):
		t.Fatal("mapd did not start within 30 s")
	}
	return s
}

type reply struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

func (s *server) do(t *testing.T, method, path, contentType, body string) reply {
	t.Helper()
	return s.doWith(t, method, path, contentType, body, nil)
}

// doWith is do with extra request headers.
func (s *server) doWith(t *testing.T, method, path, contentType, body string, headers map[string]string) reply {
	t.Helper()
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if s.key != "" {
		req.Header.Set("Authorization", "Bearer "+s.key)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	validateResponse(t, method, path, resp.StatusCode, resp.Header, raw)
	r := reply{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	if err := json.Unmarshal(raw, &r.body); err != nil {
		t.Fatalf("%s %s: body is not JSON: %v\n%s", method, path, err, raw)
	}
	return r
}

func (s *server) post(t *testing.T, path, body string) reply {
	return s.do(t, http.MethodPost, path, "application/json", body)
}

const (
	laVellaToPas = `[[1.5218,42.5063],[1.7333,42.5425]]`
)

func TestDirectionsEndToEnd(t *testing.T) {
	s := startMapd(t, "--data", compiletest.Andorra(t))
	r := s.post(t, "/v1/directions", `{"coordinates":`+laVellaToPas+`,"profile":"car"}`)
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d %s: %s", r.status, r.header.Get("Content-Type"), r.raw)
	}
	if r.body["data_version"] != "test1" || r.body["profile"] != "car" || !strings.HasPrefix(r.body["request_id"].(string), "req_") {
		t.Fatalf("envelope: %s", r.raw)
	}
	routes := r.body["routes"].([]any)
	rt := routes[0].(map[string]any)
	sum := rt["summary"].(map[string]any)
	dist, dur := sum["distance_m"].(float64), sum["duration_s"].(float64)
	if dist < 27000 || dist > 40000 || dur <= 0 {
		t.Fatalf("summary %v", sum)
	}
	if got, want := sum["average_speed_kph"].(float64), dist/dur*3.6; abs(got-want) > 0.06 {
		t.Errorf("average_speed_kph %v, want %.1f", got, want)
	}
	legs := rt["legs"].([]any)
	if len(legs) != 1 || legs[0].(map[string]any)["distance_m"].(float64) != dist {
		t.Errorf("legs %v", legs)
	}
	if rt["id"].(float64) != 0 || rt["speed_model_status"] != "provisional" || rt["speed_model_version"] == "" {
		t.Errorf("route fields: id %v, speed model %v %v", rt["id"], rt["speed_model_version"], rt["speed_model_status"])
	}
	pts, err := polyline.Decode([]byte(rt["geometry"].(string)), 6)
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) < 10 || abs(pts[0][0]-1.5218) > 0.01 || abs(pts[len(pts)-1][1]-42.5425) > 0.01 {
		t.Errorf("geometry of %d points from %v to %v", len(pts), pts[0], pts[len(pts)-1])
	}

	// GeoJSON geometry is a serialised LineString with the same points.
	g := s.post(t, "/v1/directions", `{"coordinates":`+laVellaToPas+`,"geometry_format":"geojson"}`)
	var line struct {
		Type        string       `json:"type"`
		Coordinates [][2]float64 `json:"coordinates"`
	}
	gr := g.body["routes"].([]any)[0].(map[string]any)
	if err := json.Unmarshal([]byte(gr["geometry"].(string)), &line); err != nil || line.Type != "LineString" || len(line.Coordinates) != len(pts) {
		t.Errorf("geojson geometry: %v, %d points, type %q", err, len(line.Coordinates), line.Type)
	}

	// Three waypoints give two legs whose totals add up.
	m := s.post(t, "/v1/directions", `{"coordinates":[[1.5218,42.5063],[1.5970,42.5340],[1.7333,42.5425]],"profile":"moto"}`)
	mr := m.body["routes"].([]any)[0].(map[string]any)
	var sumLegs float64
	for _, l := range mr["legs"].([]any) {
		sumLegs += l.(map[string]any)["duration_s"].(float64)
	}
	if len(mr["legs"].([]any)) != 2 || abs(sumLegs-mr["summary"].(map[string]any)["duration_s"].(float64)) > 0.002 {
		t.Errorf("two legs: %s", m.raw)
	}
}

func TestErrorsEndToEnd(t *testing.T) {
	s := startMapd(t, "--data", compiletest.Andorra(t))
	cases := []struct {
		name, method, path, ctype, body string
		status                          int
		suffix                          string
		field                           string
	}{
		// Andorra's swapped pairs stay in range (lon 42.5, lat 1.5), far outside coverage; swapped back
		// they would snap, so the request is malformed (spec §7's example of a 400).
		{"swapped pair in range", "POST", "/v1/directions", "application/json", `{"coordinates":[[1.5218,42.5063],[42.5425,1.7333]]}`, 400, "invalid-request", "/coordinates/1"},
		{"latitude out of range", "POST", "/v1/directions", "application/json", `{"coordinates":[[1.5218,42.5063],[1.7333,142.5]]}`, 400, "invalid-request", "/coordinates/1/1"},
		{"one waypoint", "POST", "/v1/directions", "application/json", `{"coordinates":[[1.5218,42.5063]]}`, 400, "invalid-request", "/coordinates"},
		{"unknown profile", "POST", "/v1/directions", "application/json", `{"coordinates":` + laVellaToPas + `,"profile":"tank"}`, 400, "invalid-request", "/profile"},
		{"wrong type", "POST", "/v1/directions", "application/json", `{"coordinates":"Andorra"}`, 400, "invalid-request", "/coordinates"},
		{"malformed JSON", "POST", "/v1/directions", "application/json", `{"coordinates":[[1.5`, 400, "invalid-request", ""},
		{"wrong content type", "POST", "/v1/directions", "text/plain", `{"coordinates":` + laVellaToPas + `}`, 400, "invalid-request", ""},
		{"unknown path", "POST", "/v1/teleport", "application/json", `{}`, 404, "not-found", ""},
		{"wrong method", "GET", "/v1/directions", "", ``, 405, "method-not-allowed", ""},
		{"point at sea", "POST", "/v1/directions", "application/json", `{"coordinates":[[1.5218,42.5063],[3.5,42.0]]}`, 422, "unroutable", "/coordinates/1"},
		{"truck road beyond the radius asked for", "POST", "/v1/directions", "application/json", `{"coordinates":[[1.5218,42.5063],[1.6500,42.6300]],"profile":"truck","radiuses":[null,1000]}`, 422, "unroutable", "/coordinates/1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.do(t, c.method, c.path, c.ctype, c.body)
			if r.status != c.status {
				t.Fatalf("status %d, want %d: %s", r.status, c.status, r.raw)
			}
			checkProblem(t, r, c.suffix, c.field)
		})
	}
}

// TestBodyTooLarge announces a 2 MiB body and sends only its start: mapd
// must refuse from the Content-Length alone, with a problem document,
// rather than read (or wait for) the rest. A raw connection is used because
// an HTTP client still uploading when the server answers and closes sees a
// reset instead of the answer.
func TestBodyTooLarge(t *testing.T) {
	s := startMapd(t, "--data", compiletest.Andorra(t))
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/directions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"coordinates\":", s.key, 2<<20)
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	validateResponse(t, "POST", "/v1/directions", resp.StatusCode, resp.Header, raw)
	r := reply{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	if err := json.Unmarshal(raw, &r.body); err != nil || r.status != 400 {
		t.Fatalf("status %d: %s", r.status, raw)
	}
	checkProblem(t, r, "invalid-request", "")
}

// checkProblem checks an RFC 9457 body as spec §7 shapes it.
func checkProblem(t *testing.T, r reply, suffix, field string) {
	t.Helper()
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("Content-Type %q", ct)
	}
	b := r.body
	if !strings.HasSuffix(b["type"].(string), "/"+suffix) || b["title"] == "" || int(b["status"].(float64)) != r.status ||
		b["detail"] == "" || !strings.HasPrefix(b["instance"].(string), "req_") {
		t.Errorf("problem body: %s", r.raw)
	}
	errs, ok := b["errors"].([]any)
	if !ok {
		t.Fatalf("errors is not an array: %s", r.raw)
	}
	if field == "" {
		return
	}
	for _, e := range errs {
		if e.(map[string]any)["field"] == field {
			return
		}
	}
	t.Errorf("no field error for %s: %s", field, r.raw)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
