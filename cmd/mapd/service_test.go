package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// wantAttribution is the X-Attribution value as its bytes travel: ISO-8859-1,
// so © is the one byte 0xA9 (what curl prints raw).
const wantAttribution = "\xa9 OpenStreetMap contributors, ODbL"

func TestServiceEndpoints(t *testing.T) {
	s := launchMapd(t, "--data", compiletest.Andorra(t), "--deprecate", "/v1/status=2027-06-01")

	if r := s.do(t, "GET", "/v1/health/live", "", ""); r.status != 200 || r.body["status"] != "live" {
		t.Errorf("live: %d %s", r.status, r.raw)
	}
	if r := s.do(t, "GET", "/v1/health/ready", "", ""); r.status != 200 || r.body["data_version"] != "test1" {
		t.Errorf("ready: %d %s", r.status, r.raw)
	}
	st := s.do(t, "GET", "/v1/status", "", "")
	if st.status != 200 || st.body["data_version"] != "test1" || st.body["format_version"] != 1.0 {
		t.Fatalf("status: %d %s", st.status, st.raw)
	}
	if n := len(st.body["profiles"].([]any)); n != 6 {
		t.Errorf("status lists %d profiles, want 6", n)
	}
	if b := st.body["build"].(map[string]any); !strings.HasPrefix(b["go_version"].(string), "go1.") {
		t.Errorf("build info %v", b)
	}
	if !strings.Contains(st.raw, `"attribution":"© OpenStreetMap contributors"`) || !strings.Contains(st.raw, "SRTM data courtesy of NASA/USGS") {
		t.Errorf("status does not name the data sources: %s", st.raw)
	}
	if got := st.header.Get("Sunset"); got != "Tue, 01 Jun 2027 00:00:00 GMT" {
		t.Errorf("Sunset %q", got)
	}
	if got := st.header.Get("Deprecation"); got != "@1780272000" { // 2026-06-01, twelve months ahead
		t.Errorf("Deprecation %q", got)
	}
	doc := s.do(t, "GET", "/v1/openapi.json", "", "")
	if doc.body["openapi"] != "3.1.0" {
		t.Errorf("openapi.json: %.200s", doc.raw)
	}

	// Every answer carries the attribution; only the deprecated path the
	// deprecation headers.
	for _, r := range []reply{
		s.do(t, "GET", "/v1/health/live", "", ""),
		s.do(t, "GET", "/v1/teleport", "", ""),
		s.do(t, "GET", "/v1/directions", "", ""),
		s.post(t, "/v1/directions", `{"coordinates":`+laVellaToPas+`}`),
		s.post(t, "/v1/directions", `{"coordinates":[[1.5218,42.5063],[1.5970,42.5340],[1.7333,42.5425]],"include_steps":true,`+
			`"alternatives":3,"profile":"bicycle","departure_time":"2026-11-22T08:00:00+01:00","geometry_format":"geojson"}`),
		s.post(t, "/v1/directions", `{"coordinates":"Andorra"}`),
	} {
		if got := r.header.Get("X-Attribution"); got != wantAttribution {
			t.Errorf("%d answer: X-Attribution %q", r.status, got)
		}
		if r.header.Get("Sunset") != "" || r.header.Get("Deprecation") != "" {
			t.Errorf("%d answer on an undeprecated path has deprecation headers", r.status)
		}
	}
	if got := rawHeaderLine(t, s.base, "X-Attribution"); got != "X-Attribution: "+wantAttribution {
		t.Errorf("on the wire: %q", got)
	}
}

// rawHeaderLine reads one response header line as bytes from the wire, as
// curl -i shows it.
func rawHeaderLine(t *testing.T, base, name string) string {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET /v1/health/live HTTP/1.1\r\nHost: mapd\r\nConnection: close\r\n\r\n")
	br := bufio.NewReader(conn)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("no %s header: %v", name, err)
		}
		if strings.HasPrefix(line, name+":") {
			return strings.TrimRight(line, "\r\n")
		}
	}
}

// TestAccessLog checks the one JSON line per request: it names the request
// as the response does, and never holds the key.
func TestAccessLog(t *testing.T) {
	s := launchMapd(t, "--data", compiletest.Andorra(t))
	const secret = "sk_live_E2eSecretThatMustNeverBeLogged"
	req, _ := http.NewRequest("POST", s.base+"/v1/directions", strings.NewReader(`{"coordinates":`+laVellaToPas+`}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	validateResponse(t, "POST", "/v1/directions", resp.StatusCode, resp.Header, raw)
	var body map[string]any
	json.Unmarshal(raw, &body)
	id, _ := body["request_id"].(string)
	if id == "" {
		id, _ = body["instance"].(string) // a problem, if mapd meters and refused the key
	}
	line := s.waitLog(t, 5*time.Second, func(l map[string]any) bool { return l["msg"] == "request" && l["request_id"] == id })
	if line["operation"] != "directions" || line["status"] != float64(resp.StatusCode) || line["method"] != "POST" {
		t.Errorf("log line %v for a %d answer", line, resp.StatusCode)
	}
	if ms, ok := line["latency_ms"].(float64); !ok || ms <= 0 {
		t.Errorf("latency_ms %v", line["latency_ms"])
	}
	if strings.Contains(s.logText(), secret) || strings.Contains(s.logText(), "Bearer") {
		t.Errorf("the log holds the key:\n%s", s.logText())
	}
}

// TestBadDeprecationRefused: a --deprecate naming no endpoint is a typo, and
// mapd refuses to start rather than announce nothing.
func TestBadDeprecationRefused(t *testing.T) {
	ledgerPath := filepath.Join(t.TempDir(), "ledger.db")
	if out, err := exec.Command(mapdBin, "ledger", "init", "--ledger", ledgerPath).CombinedOutput(); err != nil {
		t.Fatalf("mapd ledger init: %v\n%s", err, out)
	}
	for _, flag := range []string{"/v1/teleport=2027-06-01", "/v1/status=June 2027", "/v1/status=2027-06-01/2026-01-01"} {
		out, err := exec.Command(mapdBin, "serve", "--data", compiletest.Andorra(t), "--listen", freeAddr(t), "--ledger", ledgerPath,
			"--deprecate", flag).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "deprecat") {
			t.Errorf("--deprecate %s: %v %s", flag, err, out)
		}
	}
}
