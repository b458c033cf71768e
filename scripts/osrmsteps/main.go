// Command osrmsteps asks a local mapd and a local osrm-routed (car.lua, steps=true) the same car routes and
// compares where each engine speaks: the share of routes whose decision points agree (the same junctions,
// within -within metres, in the same direction, roundabouts by their exit number), every disagreement sorted by
// kind, and the share of our steps that read "Keep left/right to stay on". It is the tool behind the "Steps"
// section of docs/osrm-agreement.md (issue 33); it does not build or start either server.
//
//	osrmsteps -mapd http://127.0.0.1:9400 -osrm http://127.0.0.1:5000 -bbox 1.41,42.43,1.79,42.66 -n 250
//
// Both ends are drawn uniformly in -bbox and OSRM places them first; mapd is then asked between the points
// OSRM placed, so that both engines route between the same road points (docs/osrm-agreement.md: uniform points
// otherwise differ for where they meet the network, not for what is said). A pair OSRM does not route is drawn
// again. -mapd-only measures the "stay on" share alone (no OSRM needed). -v prints each disagreeing route.
//
// Routes of about the same length may still follow other roads (two valley roads of Liechtenstein): the share is
// also given among the routes whose lines lie within -within metres of each other everywhere, what guidance alone
// answers for.
//
// -cache FILE keeps OSRM's answers (they do not change while its data does not): a run reads the answers
// it finds there and adds the ones it had to ask, so a second run compares another mapd build with the
// same OSRM answers without osrm-routed. -where prints, after the kinds, the junctions where most
// disagreements happen (rounded to about a metre), with each engine's maneuver there: what to read first.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/polyline"
)

// point is one decision point: where, which way, and for a roundabout its exit.
type point struct {
	loc  [2]float64
	dir  string // L, R, S, U
	exit int
	kind string // the engine's maneuver type (and modifier)
}

var client = &http.Client{Timeout: 60 * time.Second}

func main() {
	mapdURL := flag.String("mapd", "http://127.0.0.1:9400", "mapd base URL (unmetered, or with -key)")
	key := flag.String("key", "", "bearer key for a metered mapd")
	osrmURL := flag.String("osrm", "http://127.0.0.1:5000", "osrm-routed base URL")
	bbox := flag.String("bbox", "1.41,42.43,1.79,42.66", "minlon,minlat,maxlon,maxlat to draw the points in")
	n := flag.Int("n", 250, "routes")
	seed := flag.Uint64("seed", 33, "random seed")
	within := flag.Float64("within", 30, "metres within which two decision points are one")
	mapdOnly := flag.Bool("mapd-only", false, "measure only mapd's share of 'stay on' forks (draws uniform points, mapd snaps)")
	verbose := flag.Bool("v", false, "print each disagreeing route")
	cacheFile := flag.String("cache", "", "file of OSRM's answers, read and extended (JSON)")
	where := flag.Int("where", 0, "print the N junctions with the most disagreements")
	flag.Parse()
	osrm := &osrmClient{base: *osrmURL}
	if *cacheFile != "" {
		if err := osrm.load(*cacheFile); err != nil {
			log.Fatal(err)
		}
		defer func() {
			if err := osrm.save(*cacheFile); err != nil {
				log.Print(err)
			}
		}()
	}
	var b [4]float64
	if _, err := fmt.Sscanf(*bbox, "%f,%f,%f,%f", &b[0], &b[1], &b[2], &b[3]); err != nil {
		log.Fatalf("-bbox: %v", err)
	}
	rng := rand.New(rand.NewPCG(*seed, 33))
	draw := func() [2]float64 {
		return [2]float64{b[0] + rng.Float64()*(b[2]-b[0]), b[1] + rng.Float64()*(b[3]-b[1])}
	}
	var routes, agree, steps, stays, misses, sameWay, sameRoadsN, agreeSameRoads int
	kinds := map[string]int{}
	spots := map[string]int{}
	for routes < *n {
		if misses > 20**n {
			log.Fatalf("%d draws without a route from mapd: is it serving, unmetered or with -key?", misses)
		}
		from, to := draw(), draw()
		if !*mapdOnly {
			var ok bool
			if from, to, ok = osrm.places(from, to); !ok {
				continue
			}
		}
		ours, instr, dist, ourShape, err := mapdSteps(*mapdURL, *key, from, to)
		if err != nil || ours == nil {
			misses++
			continue
		}
		routes++
		for _, s := range instr {
			steps++
			if strings.HasPrefix(s, "Keep ") && strings.Contains(s, " to stay on ") {
				stays++
			}
		}
		if *mapdOnly {
			continue
		}
		theirs, theirDist, theirShape, err := osrm.steps(from, to)
		if err != nil {
			log.Fatal(err)
		}
		why, at := compare(ours, theirs, *within, dist, theirDist)
		if len(why) != 1 || !strings.HasPrefix(why[0], anotherRoute) {
			sameWay++
		}
		same := sameRoads(ourShape, theirShape, *within)
		if same {
			sameRoadsN++
		}
		if len(why) == 0 {
			agree++
			if same {
				agreeSameRoads++
			}
			continue
		}
		for i, w := range why {
			kinds[w]++
			if at[i] != "" {
				spots[at[i]+" "+w]++
			}
		}
		if *verbose {
			var detail []string
			for i, w := range why {
				detail = append(detail, w+" "+at[i])
			}
			fmt.Printf("%.5f,%.5f -> %.5f,%.5f: %s\n", from[0], from[1], to[0], to[1], strings.Join(detail, "; "))
		}
	}
	fmt.Printf("routes %d, steps %d, 'Keep ... to stay on' %d (%.1f %%)\n", routes, steps, stays, 100*float64(stays)/float64(max(steps, 1)))
	if *mapdOnly {
		return
	}
	fmt.Printf("decision points agree on %d of %d routes (%.1f %%)\n", agree, routes, 100*float64(agree)/float64(routes))
	// The same share among the routes both engines drive the same way: what guidance alone can reach.
	fmt.Printf("  of the %d routes of about the same length, %d (%.1f %%)\n", sameWay, agree, 100*float64(agree)/float64(max(sameWay, 1)))
	// Lengths alike are not roads alike (two valley roads of Liechtenstein): among the routes that follow the
	// same roads, what is said is guidance's alone.
	fmt.Printf("  of the %d routes on the same roads (every point of each within %.0f m of the other), %d (%.1f %%)\n",
		sameRoadsN, *within, agreeSameRoads, 100*float64(agreeSameRoads)/float64(max(sameRoadsN, 1)))
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		return kinds[ks[i]] > kinds[ks[j]] || kinds[ks[i]] == kinds[ks[j]] && ks[i] < ks[j]
	})
	for _, k := range ks {
		fmt.Printf("%6d  %s\n", kinds[k], k)
	}
	if *where > 0 {
		fmt.Println("junctions with the most disagreements:")
		for i, k := range sortedByCount(spots) {
			if i == *where {
				break
			}
			fmt.Printf("%6d  %s\n", spots[k], k)
		}
	}
}

// sortedByCount lists the keys of m, the largest count first.
func sortedByCount(m map[string]int) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return m[ks[i]] > m[ks[j]] || m[ks[i]] == m[ks[j]] && ks[i] < ks[j] })
	return ks
}

// anotherRoute is the one disagreement of routes whose lengths differ: the engines chose different ways.
const anotherRoute = "another route (lengths differ by more than 2 %)"

// compare matches each engine's decision points to the other's within the distance; what is left over, or
// matched in a different direction or exit, is a disagreement, named by kind. Routes whose lengths differ by
// more than 2 % are one disagreement: "another route". at holds, for each disagreement, where it is ("" for
// another route).
func compare(ours, theirs []point, within, dist, theirDist float64) (why, at []string) {
	if math.Abs(dist-theirDist) > 0.02*theirDist+20 {
		return []string{anotherRoute}, []string{""}
	}
	used := make([]bool, len(theirs))
	for _, o := range ours {
		j := nearest(o, theirs, used, within)
		if j < 0 {
			why, at = append(why, "ours only: "+o.kind), append(at, spot(o.loc))
			continue
		}
		used[j] = true
		t := theirs[j]
		switch {
		case o.exit != t.exit:
			why = append(why, "roundabout exit differs")
			at = append(at, fmt.Sprintf("%s (ours %d, OSRM %d)", spot(o.loc), o.exit, t.exit))
		case o.dir != t.dir:
			why = append(why, fmt.Sprintf("direction differs: ours %s, OSRM %s", o.kind, t.kind))
			at = append(at, spot(o.loc))
		}
	}
	for j, t := range theirs {
		if !used[j] {
			why, at = append(why, "OSRM only: "+t.kind), append(at, spot(t.loc))
		}
	}
	return why, at
}

// sameRoads reports whether two routes follow the same roads: every point
// of each lies within the distance of the other's line.
func sameRoads(a, b [][2]float64, within float64) bool {
	return len(a) > 1 && len(b) > 1 && covered(a, b, within) && covered(b, a, within)
}

// covered reports whether every point of a lies within the distance of
// line b (on planar metres about the point: routes of a country).
func covered(a, b [][2]float64, within float64) bool {
	for _, p := range a {
		k := math.Cos(p[1] * math.Pi / 180)
		near := false
		for i := 1; i < len(b) && !near; i++ {
			ax, ay := (b[i-1][0]-p[0])*k*111195, (b[i-1][1]-p[1])*111195
			bx, by := (b[i][0]-p[0])*k*111195, (b[i][1]-p[1])*111195
			dx, dy := bx-ax, by-ay
			t := 0.0
			if l2 := dx*dx + dy*dy; l2 > 0 {
				t = math.Max(0, math.Min(1, -(ax*dx+ay*dy)/l2))
			}
			near = math.Hypot(ax+t*dx, ay+t*dy) <= within
		}
		if !near {
			return false
		}
	}
	return true
}

// spot names a place to about a metre, as a map search reads it.
func spot(p [2]float64) string { return fmt.Sprintf("%.5f,%.5f", p[0], p[1]) }

// nearest is the unused point of pts within the distance of p, preferring one of p's kind (a roundabout for a
// roundabout, a turn for a turn): at a roundabout drawn small, an entry and the turn before it lie metres apart,
// and each should meet its like.
func nearest(p point, pts []point, used []bool, within float64) int {
	best, bestD, bestLike := -1, within, false
	for j, q := range pts {
		d := geo.Distance(p.loc[0], p.loc[1], q.loc[0], q.loc[1])
		like := (p.dir == "roundabout") == (q.dir == "roundabout")
		if used[j] || d > within || bestLike && !like || bestLike == like && d > bestD {
			continue
		}
		best, bestD, bestLike = j, d, like
	}
	return best
}

// direction reduces a modifier to L, R, S or U.
func direction(modifier string) string {
	switch {
	case strings.Contains(modifier, "uturn"):
		return "U"
	case strings.HasSuffix(modifier, "left"):
		return "L"
	case strings.HasSuffix(modifier, "right"):
		return "R"
	}
	return "S"
}

// mapdSteps asks mapd for the car route's steps: its decision points (every step but the depart and the
// arrive), its instructions and its length; nil points when mapd finds no route.
func mapdSteps(base, key string, a, b [2]float64) ([]point, []string, float64, [][2]float64, error) {
	body, _ := json.Marshal(map[string]any{"coordinates": [][2]float64{a, b}, "profile": "car", "alternatives": 0,
		"include_steps": true}) // English by default; no language member, so a mapd from before issue 33 answers too
	req, _ := http.NewRequest(http.MethodPost, base+"/v1/directions", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil, nil, 0, nil, nil
	}
	var d struct {
		Routes []struct {
			Geometry string `json:"geometry"`
			Summary  struct {
				Distance float64 `json:"distance_m"`
			} `json:"summary"`
			Legs []struct {
				Steps []struct {
					Instruction string     `json:"instruction"`
					Maneuver    string     `json:"maneuver"`
					Modifier    string     `json:"modifier"`
					Exit        int        `json:"exit"`
					Location    [2]float64 `json:"location"`
				} `json:"steps"`
			} `json:"legs"`
		} `json:"routes"`
	}
	if err := json.Unmarshal(data, &d); err != nil || len(d.Routes) == 0 {
		return nil, nil, 0, nil, fmt.Errorf("mapd: %v", err)
	}
	pts := []point{} // not nil: a route with no decision is still a route
	var instr []string
	for _, s := range d.Routes[0].Legs[0].Steps {
		instr = append(instr, s.Instruction)
		if s.Maneuver == "depart" || s.Maneuver == "arrive" {
			continue
		}
		dir := direction(s.Modifier)
		if s.Maneuver == "roundabout" {
			dir = "roundabout"
		}
		pts = append(pts, point{loc: s.Location, dir: dir, exit: s.Exit, kind: strings.TrimSpace(s.Maneuver + " " + s.Modifier)})
	}
	shape, err := polyline.Decode([]byte(d.Routes[0].Geometry), 6)
	if err != nil {
		return nil, nil, 0, nil, fmt.Errorf("mapd's geometry: %w", err)
	}
	return pts, instr, d.Routes[0].Summary.Distance, shape, nil
}

// osrmRoute is the part of OSRM's /route answer read here.
type osrmRoute struct {
	Code   string `json:"code"`
	Routes []struct {
		Distance float64 `json:"distance"`
		Geometry string  `json:"geometry"`
		Legs     []struct {
			Steps []struct {
				Maneuver struct {
					Type     string     `json:"type"`
					Modifier string     `json:"modifier"`
					Exit     int        `json:"exit"`
					Location [2]float64 `json:"location"`
				} `json:"maneuver"`
			} `json:"steps"`
		} `json:"legs"`
	} `json:"routes"`
	Waypoints []struct {
		Location [2]float64 `json:"location"`
	} `json:"waypoints"`
}

// osrmClient asks osrm-routed, through a cache of its answers keyed by the query (see -cache).
type osrmClient struct {
	base  string
	cache map[string]json.RawMessage
}

func (c *osrmClient) load(file string) error {
	c.cache = map[string]json.RawMessage{}
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading OSRM's answers: %w", err)
	}
	if err := json.Unmarshal(data, &c.cache); err != nil {
		return fmt.Errorf("reading OSRM's answers in %s: %w", file, err)
	}
	return nil
}

func (c *osrmClient) save(file string) error {
	data, err := json.Marshal(c.cache)
	if err != nil {
		return err
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return fmt.Errorf("keeping OSRM's answers: %w", err)
	}
	return nil
}

func (c *osrmClient) get(a, b [2]float64) (*osrmRoute, error) {
	query := fmt.Sprintf("/route/v1/driving/%.7f,%.7f;%.7f,%.7f?steps=true&overview=full&geometries=polyline6&alternatives=false",
		a[0], a[1], b[0], b[1])
	data, ok := c.cache[query]
	if !ok {
		resp, err := client.Get(c.base + query)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if data, err = io.ReadAll(resp.Body); err != nil {
			return nil, fmt.Errorf("osrm %s: %w", query, err)
		}
		if c.cache != nil {
			c.cache[query] = data
		}
	}
	var d osrmRoute
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("osrm %s: %w", query, err)
	}
	return &d, nil
}

// places returns where OSRM places a and b, false when it finds no route between them.
func (c *osrmClient) places(a, b [2]float64) ([2]float64, [2]float64, bool) {
	d, err := c.get(a, b)
	if err != nil {
		log.Fatal(err)
	}
	if d.Code != "Ok" || len(d.Waypoints) != 2 || len(d.Routes) == 0 || d.Routes[0].Distance < 50 {
		return a, b, false
	}
	return d.Waypoints[0].Location, d.Waypoints[1].Location, true
}

// steps returns OSRM's decision points between a and b (every step but depart, arrive and the
// roundabout exits it reports apart) and the route's length.
func (c *osrmClient) steps(a, b [2]float64) ([]point, float64, [][2]float64, error) {
	d, err := c.get(a, b)
	if err != nil || d.Code != "Ok" || len(d.Routes) == 0 {
		return nil, 0, nil, fmt.Errorf("osrm %v -> %v: %v %v", a, b, err, d)
	}
	shape, err := polyline.Decode([]byte(d.Routes[0].Geometry), 6)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("osrm's geometry %v -> %v: %w", a, b, err)
	}
	var pts []point
	for _, s := range d.Routes[0].Legs[0].Steps {
		m := s.Maneuver
		switch m.Type {
		case "depart", "arrive", "exit roundabout", "exit rotary", "notification":
			continue
		}
		dir := direction(m.Modifier)
		if strings.Contains(m.Type, "roundabout") || strings.Contains(m.Type, "rotary") {
			dir = "roundabout"
		}
		pts = append(pts, point{loc: m.Location, dir: dir, exit: m.Exit, kind: strings.TrimSpace(m.Type + " " + m.Modifier)})
	}
	return pts, d.Routes[0].Distance, shape, nil
}
