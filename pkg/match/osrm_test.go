package match_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
)

// TestSideBySideWithOSRM asks a running mapd (MAPS_MAPD_URL, unmetered,
// serving Andorra; MAPS_MAPD_PID for its CPU) and a running osrm-routed
// (MAPS_OSRM_URL, v6.0.0 on the same extract, --max-matching-size 5000;
// MAPS_OSRM_PID) to match the same generated traces, setting by setting,
// and reports for each the share of the true route's length matched (a
// segment of the true route counts when its midpoint lies within 7 m of
// the matched geometry: the same geometric test for both, as OSRM's roads
// are not our segments) and each server's CPU per 100 points, read from
// /proc. It is a measurement, not a check of this package: without a
// mapd there is nothing to measure and it skips; without OSRM it measures
// mapd alone. MAPS_MATCH_CHUNK=100 sends each drive a hundred fixes per
// request (the figure per 100-point trace). With MAPS_SYNTH_RELEASE set, the traces are drawn on that
// synthetic country (TestSynthGeneratedTraces' drives), which both servers
// must then serve. OSRM is given each fix's radius when MAPS_OSRM_RADIUS
// says so: a number of metres, or "sigma" for the setting's noise (which
// mapd is not told).
func TestSideBySideWithOSRM(t *testing.T) {
	mapdURL, osrmURL := os.Getenv("MAPS_MAPD_URL"), os.Getenv("MAPS_OSRM_URL")
	if mapdURL == "" {
		t.Skip("set MAPS_MAPD_URL and MAPS_OSRM_URL (and their _PID) to compare with OSRM")
	}
	var r *route.Router
	drive := func(rng *rand.Rand) truth { return randomRoute(t, rng, r, 1000) }
	if os.Getenv("MAPS_SYNTH_RELEASE") != "" {
		r = compiletest.OpenSynth(t).Routers["car"]
		drive = func(rng *rand.Rand) truth { return nearbyRoute(t, rng, r, 1000, 25000) }
	} else {
		r = compiletest.OpenAndorra(t).Routers["car"]
	}
	g := r.Graph()
	routes, _ := strconv.Atoi(os.Getenv("MAPS_MATCH_ROUTES"))
	if routes == 0 {
		routes = 100
	}
	chunk, _ := strconv.Atoi(os.Getenv("MAPS_MATCH_CHUNK"))
	servers := []matcher{
		{name: "mapd", pid: os.Getenv("MAPS_MAPD_PID"), ask: func(fixes []fix, _ setting) ([][]route.Point, error) { return askMapd(mapdURL, fixes) }},
	}
	if osrmURL != "" { // without it, mapd's figures alone
		servers = append(servers, matcher{name: "osrm", pid: os.Getenv("MAPS_OSRM_PID"),
			ask: func(fixes []fix, s setting) ([][]route.Point, error) { return askOSRM(osrmURL, fixes, s) }})
	}
	for _, s := range settings {
		rng := rand.New(rand.NewPCG(38, uint64(s.Every*100+s.Sigma)))
		var traces [][]fix
		var truths []truth
		points := 0
		for len(traces) < routes {
			tr := drive(rng)
			f := sample(rng, tr, s.Every, s.Sigma, 0.02)
			if len(f) > 2000 { // the endpoint's limit: a longer drive is two requests
				continue
			}
			traces, truths, points = append(traces, f), append(truths, tr), points+len(f)
		}
		line := fmt.Sprintf("%gs/%gm, %d routes, %d points (%d requests):", s.Every, s.Sigma, routes, points, requests(traces, chunk))
		for _, m := range servers {
			var good, total float64
			failed := 0
			cpu0 := procCPU(m.pid)
			for i, f := range traces {
				var lines [][]route.Point
				for _, part := range chunks(f, chunk) {
					l, err := m.ask(part, s)
					if err != nil {
						failed++
					}
					lines = append(lines, l...)
				}
				gd, tot := geometricScore(g, truths[i], lines)
				good, total = good+gd, total+tot
			}
			cpu := procCPU(m.pid) - cpu0
			line += fmt.Sprintf("  %s %.2f %% (%d failed), %.2f ms CPU per 100 points;", m.name, 100*good/total, failed,
				float64(cpu.Microseconds())/1000/float64(points)*100)
		}
		t.Log(line)
	}
}

// chunks cuts a trace into requests of at most n points (n 0: one), as a
// client sending a drive a hundred fixes at a time does.
func chunks(f []fix, n int) [][]fix {
	if n <= 0 {
		return [][]fix{f}
	}
	var out [][]fix
	for len(f) > n {
		out, f = append(out, f[:n]), f[n:]
	}
	return append(out, f)
}

func requests(traces [][]fix, n int) int {
	total := 0
	for _, f := range traces {
		total += len(chunks(f, n))
	}
	return total
}

type matcher struct {
	name, pid string
	ask       func([]fix, setting) ([][]route.Point, error)
}

// procCPU is a process's user and system time, from /proc (0 without a pid).
func procCPU(pid string) time.Duration {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if pid == "" || err != nil {
		return 0
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond // USER_HZ = 100
}

var httpClient = &http.Client{Timeout: 60 * time.Second}

// askMapd posts the trace to /v1/match and returns each matching's line.
func askMapd(base string, fixes []fix) ([][]route.Point, error) {
	body := map[string]any{"coordinates": pointsOf(fixes), "timestamps": timesOf(fixes), "geometry_format": "geojson"}
	b, _ := json.Marshal(body)
	resp, err := httpClient.Post(base+"/v1/match", "application/json", bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("mapd %d: %.200s", resp.StatusCode, raw)
	}
	var out struct {
		Matchings []struct{ Geometry string }
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	var lines [][]route.Point
	for _, m := range out.Matchings {
		var l struct{ Coordinates []route.Point }
		if err := json.Unmarshal([]byte(m.Geometry), &l); err != nil {
			return nil, err
		}
		lines = append(lines, l.Coordinates)
	}
	return lines, nil
}

// askOSRM asks /match/v1/driving with the same fixes and timestamps, the
// full GeoJSON geometry, and OSRM's default radiuses (5 m precision: its
// own default when none are given) unless MAPS_OSRM_RADIUS sets one (a
// number of metres, or "sigma" for setting s's noise).
func askOSRM(base string, fixes []fix, s setting) ([][]route.Point, error) {
	var coords, stamps, radiuses []string
	t0 := 1795852800.0
	radius := os.Getenv("MAPS_OSRM_RADIUS")
	if radius == "sigma" {
		radius = strconv.FormatFloat(s.Sigma, 'f', -1, 64)
	}
	for _, f := range fixes {
		coords = append(coords, fmt.Sprintf("%.6f,%.6f", f.p[0], f.p[1]))
		stamps = append(stamps, strconv.FormatInt(int64(math.Round(t0+f.t)), 10))
		if radius != "" {
			radiuses = append(radiuses, radius)
		}
	}
	u := base + "/match/v1/driving/" + strings.Join(coords, ";") + "?overview=full&geometries=geojson&timestamps=" + strings.Join(stamps, ";")
	if len(radiuses) > 0 {
		u += "&radiuses=" + strings.Join(radiuses, ";")
	}
	resp, err := httpClient.Get(u)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out struct {
		Code      string
		Matchings []struct {
			Geometry struct{ Coordinates []route.Point }
		}
	}
	if err := json.Unmarshal(raw, &out); err != nil || out.Code != "Ok" {
		return nil, fmt.Errorf("osrm %d %s: %.200s", resp.StatusCode, out.Code, raw)
	}
	var lines [][]route.Point
	for _, m := range out.Matchings {
		lines = append(lines, m.Geometry.Coordinates)
	}
	return lines, nil
}

func pointsOf(fixes []fix) []route.Point {
	out := make([]route.Point, len(fixes))
	for i, f := range fixes {
		out[i] = f.p
	}
	return out
}

func timesOf(fixes []fix) []float64 {
	out := make([]float64, len(fixes))
	for i, f := range fixes {
		out[i] = 1795852800 + f.t
	}
	return out
}

// geometricScore is the length of the true route's whole segments whose
// midpoint lies within 7 m of one of the matched lines, and the length of
// all of them.
func geometricScore(g *graph.Graph, tr truth, lines [][]route.Point) (good, total float64) {
	for ref, l := range travelled(g, tr.rt) {
		s, _ := graph.SplitSegRef(ref)
		total += l
		mid := midpoint(g, s)
		if nearLine(mid, lines, 7) {
			good += l
		}
	}
	return good, total
}

// midpoint is the shape point of segment s halfway along it.
func midpoint(g *graph.Graph, s uint32) route.Point {
	begin, end := g.Net.Points(s)
	half := float64(g.Net.SegLength[s]) / 2
	for i := begin; i+1 < end; i++ {
		aLon, aLat := g.Net.Point(i)
		bLon, bLat := g.Net.Point(i + 1)
		d := geo.Distance(aLon, aLat, bLon, bLat)
		if d >= half && d > 0 {
			f := half / d
			return route.Point{aLon + f*(bLon-aLon), aLat + f*(bLat-aLat)}
		}
		half -= d
	}
	lon, lat := g.Net.Point(begin)
	return route.Point{lon, lat}
}

func nearLine(p route.Point, lines [][]route.Point, within float64) bool {
	k := geo.LonScale(p[1])
	for _, l := range lines {
		for i := 0; i+1 < len(l); i++ {
			if geo.Project(p[0], p[1], k, l[i][0], l[i][1], l[i+1][0], l[i+1][1]).Dist <= within {
				return true
			}
		}
	}
	return false
}
