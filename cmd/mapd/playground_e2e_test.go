package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paulmach/orb/encoding/mvt"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/places"
	"github.com/mapsco/maps/pkg/roadops"
)

// TestPlaygroundInABrowser loads the playground from a live, metered mapd
// in Debian's Chromium (headless, through Playwright) and has
// web/playground/test/browser.mjs click a route, an isochrone and a matrix,
// checking what the page draws against the API's answers. scripts/setup
// installs Chromium and the page's npm packages; without them this fails.
// Set PLAYGROUND_SCREENSHOTS=DIR to keep the screenshots (docs/ holds two).
//
// With -short (the race pass) it is skipped: mapd runs as its own binary,
// built without the race detector, so a second run would check nothing new.
func TestPlaygroundInABrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs once, in the full pass")
	}
	web := filepath.Join(compiletest.Root(), "web", "playground")
	for _, need := range []string{"/usr/bin/chromium", filepath.Join(web, "node_modules", "playwright-core")} {
		if _, err := os.Stat(need); err != nil {
			t.Fatalf("%s is missing: run scripts/setup (it installs Chromium and the page's npm packages)", need)
		}
	}
	metered, key := meteringArgs(t)
	if len(metered) < 2 || metered[0] != "--ledger" {
		t.Fatal("the browser test needs a metered mapd (its ledger keeps the road operation it draws)")
	}
	s := startServe(t, mapdBin, key, append(metered, "--data", compiletest.Andorra(t), "--playground")...)
	// A closure of the Envalira tunnel, for the page's operations layer.
	var op roadops.Operation
	if err := json.Unmarshal(mustCLI(t, "operations", "add", "--kind", "closure", "--way", envaliraWay,
		"--reason", "accident in the tunnel", "--ledger", metered[1]), &op); err != nil {
		t.Fatal(err)
	}
	mustCLI(t, "operations", "review", op.ID, "--ledger", metered[1])
	awaitRoadops(t, s.base, func(l roadopsLayer) bool { return len(l.Features) == 1 })
	out := os.Getenv("PLAYGROUND_SCREENSHOTS")
	if out == "" {
		out = t.TempDir()
	}
	cmd := exec.Command("node", "test/browser.mjs", "--url", s.base+"/playground/", "--key", s.key, "--out", out, "--roadops", op.ID)
	cmd.Dir = web
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
		case <-time.After(3 * time.Minute):
			cmd.Process.Kill()
		}
	}()
	b, err := cmd.CombinedOutput()
	close(done)
	if err != nil {
		t.Fatalf("the playground failed in the browser: %v\n%s\nmapd's log:\n%s", err, b, s.logs)
	}
	t.Logf("checked in Chromium: %s", strings.TrimSpace(string(b)))
	for _, name := range []string{"playground-route.png", "playground-isochrone.png", "playground-phone.png", "playground-match.png"} {
		if st, err := os.Stat(filepath.Join(out, name)); err != nil || st.Size() < 10000 {
			t.Errorf("screenshot %s: %v", name, err)
		}
	}
}

// TestPlaygroundIsOffByDefault: without --playground, neither the page nor
// the tiles are served.
func TestPlaygroundIsOffByDefault(t *testing.T) {
	s := startMapd(t, "--data", compiletest.Andorra(t))
	for _, p := range []string{"/playground/", "/tiles/tiles.json", "/tiles/12/2065/1512.mvt", "/places/search?q=Encamp"} {
		if r := s.do(t, http.MethodGet, p, "", ""); r.status != http.StatusNotFound {
			t.Errorf("GET %s without --playground: %d, want 404", p, r.status)
		}
	}
}

// TestPlaygroundServesTilesAndPage speaks HTTP to mapd --playground: the
// page and its files, the TileJSON, a tile of Andorra la Vella's streets
// (gzipped when asked, revalidated by ETag), and no key needed for any.
func TestPlaygroundServesTilesAndPage(t *testing.T) {
	s := startMapd(t, "--data", compiletest.Andorra(t), "--playground")
	get := func(path string, header ...string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, s.base+path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultTransport.RoundTrip(req) // no transparent gzip: see what was sent
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	resp, page := get("/playground/")
	if resp.StatusCode != 200 || !strings.Contains(string(page), "trusted network") || resp.Header.Get("Content-Security-Policy") == "" {
		t.Fatalf("GET /playground/: %d %s, CSP %q", resp.StatusCode, page, resp.Header.Get("Content-Security-Policy"))
	}
	if resp, _ := get("/playground/"+"playground.js", "If-None-Match", resp.Header.Get("ETag")); resp.StatusCode != 200 {
		t.Errorf("playground.js with the page's ETag: %d, want 200 (each file has its own)", resp.StatusCode)
	}
	if resp, _ := get("/playground"); resp.StatusCode != http.StatusPermanentRedirect || !strings.HasSuffix(resp.Header.Get("Location"), "/playground/") {
		t.Errorf("GET /playground: %d to %q, want a redirect to /playground/", resp.StatusCode, resp.Header.Get("Location"))
	}
	_, tj := get("/tiles/tiles.json")
	var doc struct {
		Tiles       []string   `json:"tiles"`
		Bounds      [4]float64 `json:"bounds"`
		DataVersion string     `json:"data_version"`
	}
	if err := json.Unmarshal(tj, &doc); err != nil || doc.DataVersion != "test1" || len(doc.Tiles) != 1 ||
		!(doc.Bounds[0] < 1.45 && doc.Bounds[2] > 1.75 && doc.Bounds[1] < 42.45 && doc.Bounds[3] > 42.6) {
		t.Fatalf("tiles.json: %v %s", err, tj)
	}
	tile := strings.NewReplacer("{z}", "14", "{x}", "8261", "{y}", "6050").Replace(doc.Tiles[0]) // Andorra la Vella
	resp, gz := get(tile, "Accept-Encoding", "gzip")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("Content-Type") != "application/vnd.mapbox-vector-tile" {
		t.Fatalf("GET %s: %d %v", tile, resp.StatusCode, resp.Header)
	}
	layers, err := mvt.UnmarshalGzipped(gz)
	if err != nil || len(layers) != 1 || len(layers[0].Features) < 100 {
		t.Fatalf("the tile of Andorra la Vella: %v, %d layers", err, len(layers))
	}
	if resp, _ := get(tile, "If-None-Match", resp.Header.Get("ETag")); resp.StatusCode != http.StatusNotModified {
		t.Errorf("revalidating the tile: %d, want 304", resp.StatusCode)
	}
	for _, bad := range []string{"/tiles/15/0/0.mvt", "/tiles/3/8/0.mvt", "/tiles/14/08261/6050.mvt", "/tiles/14/8261/6050.png", "/tiles/", "/playground/nope.js"} {
		if resp, body := get(bad); resp.StatusCode != 404 || resp.Header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("GET %s: %d %s, want a 404 problem", bad, resp.StatusCode, body)
		}
	}
	if r := s.do(t, http.MethodPost, "/tiles/1/0/0.mvt", "", ""); r.status != 405 {
		t.Errorf("POST to a tile: %d, want 405", r.status)
	}
}

// TestPlaygroundSearchesPlaces asks mapd --playground's place paths, with
// no key: the search box's answers on Andorra (the capital, a town, a
// street, typos, accents), its bounds, and the names a map at a zoom shows.
func TestPlaygroundSearchesPlaces(t *testing.T) {
	s := startMapd(t, "--data", compiletest.Andorra(t), "--playground")
	get := func(path string) (status int, body string) { // no key: the paths take none
		t.Helper()
		resp, err := http.Get(s.base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	type place struct {
		Name, Kind, Near string
		Lon, Lat         float64
	}
	search := func(q string, limit int) []place {
		t.Helper()
		path := "/places/search?q=" + url.QueryEscape(q)
		if limit > 0 {
			path += "&limit=" + strconv.Itoa(limit)
		}
		status, body := get(path)
		var doc struct {
			DataVersion string  `json:"data_version"`
			Results     []place `json:"results"`
		}
		if err := json.Unmarshal([]byte(body), &doc); status != 200 || err != nil || doc.DataVersion != "test1" {
			t.Fatalf("GET %s: %d %v %s", path, status, err, body)
		}
		return doc.Results
	}
	for _, c := range []struct{ q, name string }{
		{"Andorra la Vella", "Andorra la Vella"}, {"andora la vela", "Andorra la Vella"},
		{"Encamp", "Encamp"}, {"Encmp", "Encamp"}, {"sant julia", "Sant Julià de Lòria"},
	} {
		got := search(c.q, 0)
		if len(got) == 0 || got[0].Name != c.name || got[0].Kind == "street" {
			t.Errorf("%q: %+v, want the place %s first", c.q, got, c.name)
		}
	}
	street := search("Avinguda Meritxell", 3)
	if len(street) == 0 || street[0].Name != "Avinguda Meritxell" || street[0].Kind != "street" || street[0].Near == "" || len(street) > 3 {
		t.Errorf("Avinguda Meritxell, limit 3: %+v", street)
	}
	if got := search("sant", 0); len(got) != 8 {
		t.Errorf("sant: %d results, want the default limit 8", len(got))
	}
	for _, bad := range []string{"/places/search?q=" + strings.Repeat("a", places.MaxQuery+1), "/places/search?q=a&limit=0",
		"/places/search?q=a&limit=21", "/places/labels?bbox=1,2,3&zoom=9", "/places/labels?bbox=1.8,42.4,1.4,42.7&zoom=9",
		"/places/labels?bbox=1.4,42.4,1.8,42.7&zoom=x"} {
		if status, body := get(bad); status != 400 || !strings.Contains(body, `"status":400`) {
			t.Errorf("GET %s: %d %s, want a 400 problem", bad, status, body)
		}
	}
	status, body := get("/places/labels?bbox=1.40,42.42,1.80,42.66&zoom=9")
	var labels struct{ Places []place }
	if err := json.Unmarshal([]byte(body), &labels); status != 200 || err != nil {
		t.Fatalf("labels: %d %v %s", status, err, body)
	}
	names := map[string]string{}
	for _, p := range labels.Places {
		names[p.Name] = p.Kind
	}
	if names["Andorra la Vella"] == "" || names["Encamp"] == "" || len(names) > 20 {
		t.Errorf("labels of Andorra at zoom 9: %v, want its towns only", names)
	}
}

// roadopsLayer is /roadops/active.geojson as the page reads it.
type roadopsLayer struct {
	DataVersion string `json:"data_version"`
	Served      bool   `json:"served"`
	Features    []struct {
		ID       string `json:"id"`
		Geometry struct {
			Type        string         `json:"type"`
			Coordinates [][][2]float64 `json:"coordinates"`
		} `json:"geometry"`
		Properties struct {
			Kind     string  `json:"kind"`
			Reason   string  `json:"reason"`
			Factor   float64 `json:"factor"`
			Segments int     `json:"segments"`
		} `json:"properties"`
	} `json:"features"`
}

// awaitRoadops asks the layer every 50 ms until want holds of it, failing
// after 10 s.
func awaitRoadops(t *testing.T, base string, want func(roadopsLayer) bool) roadopsLayer {
	t.Helper()
	var l roadopsLayer
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(base + "/roadops/active.geojson") // no key
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		l = roadopsLayer{}
		if err := json.Unmarshal(b, &l); resp.StatusCode != 200 || err != nil || resp.Header.Get("Content-Type") != "application/geo+json" {
			t.Fatalf("GET /roadops/active.geojson: %d %v %s", resp.StatusCode, err, b)
		}
		if want(l) {
			return l
		}
	}
	t.Fatalf("the road operations layer did not change within 10 s: %+v", l)
	return l
}

// TestPlaygroundDrawsRoadOperations: the page's operations layer holds the
// reviewed operations in force, each drawn on the segments it was placed
// on: nothing for a draft, the Envalira tunnel once its closure is
// reviewed, nothing again once it is withdrawn.
func TestPlaygroundDrawsRoadOperations(t *testing.T) {
	dsn := ledgerFile(t)
	createAccount(t, dsn, 1000) // makes the ledger, beside which operations are kept
	s := serveMetered(t, dsn, "--playground")
	if l := awaitRoadops(t, s.base, func(roadopsLayer) bool { return true }); !l.Served || len(l.Features) != 0 || l.DataVersion != "test1" {
		t.Fatalf("before any operation: %+v", l)
	}
	var op roadops.Operation
	if err := json.Unmarshal(mustCLI(t, "operations", "add", "--kind", "closure", "--way", envaliraWay,
		"--reason", "accident in the tunnel", "--ledger", dsn), &op); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond) // past the second within which a change applies
	if l := awaitRoadops(t, s.base, func(roadopsLayer) bool { return true }); len(l.Features) != 0 {
		t.Fatalf("a draft is drawn: %+v", l)
	}
	mustCLI(t, "operations", "review", op.ID, "--ledger", dsn)
	l := awaitRoadops(t, s.base, func(l roadopsLayer) bool { return len(l.Features) > 0 })
	f := l.Features[0]
	if len(l.Features) != 1 || f.ID != op.ID || f.Properties.Kind != "closure" || f.Properties.Reason != "accident in the tunnel" ||
		f.Geometry.Type != "MultiLineString" || len(f.Geometry.Coordinates) != f.Properties.Segments || f.Properties.Segments == 0 {
		t.Fatalf("the closed tunnel: %+v", l)
	}
	for _, line := range f.Geometry.Coordinates { // the tunnel runs from Soldeu's side to Pas de la Casa's
		for _, p := range line {
			if p[0] < 1.68 || p[0] > 1.74 || p[1] < 42.53 || p[1] > 42.56 {
				t.Fatalf("the tunnel's closure is drawn at %v, away from the tunnel", p)
			}
		}
	}
	mustCLI(t, "operations", "withdraw", op.ID, "--ledger", dsn)
	awaitRoadops(t, s.base, func(l roadopsLayer) bool { return len(l.Features) == 0 })
}
