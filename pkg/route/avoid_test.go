package route_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
)

// avoidCase is one request option under test, on the profiles it applies
// to, and a check that a segment the route travels obeys it.
type avoidCase struct {
	name     string
	profiles []string
	avoid    func(rng *rand.Rand) route.Avoid
	allowed  func(net *graph.Network, a route.Avoid, s uint32) bool
}

// TestAvoidMatchesDijkstra is the exactness property of a request's avoid
// options (issue 35 items 2 and 4): for every option and every profile it
// applies to, legs between random points under it cost exactly what a
// plain Dijkstra finds on the graph with those roads closed, travel no
// road the option forbids, and some answers did change. Avoid areas are
// random: a square of 0.5 to 3 km or a star polygon of up to 300 vertices
// around a random point, a new one every 10 pairs.
func TestAvoidMatchesDijkstra(t *testing.T) {
	t.Parallel() // changes no shared release
	rel := openAndorra(t)
	pairs := 400
	if testing.Short() {
		pairs = 80
	}
	cases := []avoidCase{
		{"avoid_areas", []string{"car", "truck", "bicycle", "pedestrian"},
			func(rng *rand.Rand) route.Avoid { return route.Avoid{Areas: randomArea(rng)} },
			func(net *graph.Network, a route.Avoid, s uint32) bool { return !segmentTouches(net, a.Areas, s) }},
		{"max_hiking_difficulty T1", []string{"pedestrian", "pedestrian_loaded"},
			func(*rand.Rand) route.Avoid { return route.Avoid{MaxHiking: 1} },
			func(net *graph.Network, a route.Avoid, s uint32) bool { return net.SegHiking[s] <= a.MaxHiking }},
		{"max_hiking_difficulty T2", []string{"pedestrian", "pedestrian_loaded"},
			func(*rand.Rand) route.Avoid { return route.Avoid{MaxHiking: 2} },
			func(net *graph.Network, a route.Avoid, s uint32) bool { return net.SegHiking[s] <= a.MaxHiking }},
		{"avoid_steps", []string{"bicycle"},
			func(*rand.Rand) route.Avoid { return route.Avoid{Steps: true} },
			func(net *graph.Network, _ route.Avoid, s uint32) bool { return net.Class(s) != "steps" }},
	}
	for ci, c := range cases {
		for _, name := range c.profiles {
			r := rel.Routers[name]
			rng := rand.New(rand.NewPCG(uint64(ci), uint64(len(name))))
			changed := avoidPairs(t, r, c, rng, pairs)
			t.Logf("%s %s: %d pairs equal Dijkstra, %d changed by the option", name, c.name, pairs, changed)
			if changed == 0 {
				t.Errorf("%s %s: no answer changed: the test proves nothing", name, c.name)
			}
		}
	}
}

// avoidPairs checks pairs legs of r under c's option (see
// TestAvoidMatchesDijkstra) and returns how many the option changed.
func avoidPairs(t *testing.T, r *route.Router, c avoidCase, rng *rand.Rand, pairs int) int {
	g := r.Graph()
	q := ch.NewQuery(r.Hierarchy())
	changed := 0
	var a route.Avoid
	var st *graph.State
	for i := range pairs {
		if i%10 == 0 {
			a = c.avoid(rng)
			st = r.StateAvoiding(time.Time{}, 0, a)
			if a.Areas != nil {
				checkAreaClosures(t, g, st, a.Areas)
			}
		}
		from, to := placedUnder(t, rng, r, st), placedUnder(t, rng, r, st)
		leg, diff := optionLeg(t, r, q, st, nil, from, to, g.Profile+" "+c.name)
		for _, arc := range leg.Arcs {
			if s, _ := g.ArcSegment(arc); !c.allowed(g.Net, a, s) {
				t.Fatalf("%s %s: the leg travels segment %d (%s)", g.Profile, c.name, s, g.Net.Class(s))
			}
		}
		if diff {
			changed++
		}
	}
	return changed
}

// checkAreaClosures: the arcs an area closes are exactly those of the
// segments a scan of every segment's pieces finds touching it (the
// R-tree's boxes miss none and add none).
func checkAreaClosures(t *testing.T, g *graph.Graph, st *graph.State, area *geo.Area) {
	t.Helper()
	ov := st.Overlay()
	for s := range uint32(g.Net.NumSegments()) {
		want := segmentTouches(g.Net, area, s)
		for _, rev := range [2]bool{false, true} {
			a := g.ArcOf[graph.SegRef(s, rev)]
			if a == graph.NoArc {
				continue
			}
			if closed := ov.Extra(a) == graph.NoWay; closed != want {
				t.Fatalf("%s: segment %d closed %v, touches the area %v", g.Profile, s, closed, want)
			}
		}
	}
}

// segmentTouches reports whether a piece of segment s enters the area.
func segmentTouches(net *graph.Network, area *geo.Area, s uint32) bool {
	begin, end := net.Points(s)
	for p := begin; p+1 < end; p++ {
		aLon, aLat := net.Point(p)
		bLon, bLat := net.Point(p + 1)
		for i := range area.Polygons() {
			if area.Touches(i, aLon, aLat, bLon, bLat) {
				return true
			}
		}
	}
	return false
}

// randomArea is a square of 0.5 to 3 km, or a star-shaped polygon of up
// to 300 vertices, around a random point of Andorra's valleys.
func randomArea(rng *rand.Rand) *geo.Area {
	lon, lat := 1.45+rng.Float64()*0.3, 42.45+rng.Float64()*0.15
	r := (0.25 + rng.Float64()*1.25) / 111.0 // degrees of latitude
	k := 1 / math.Cos(lat*math.Pi/180)
	var ring [][2]float64
	if rng.IntN(2) == 0 {
		ring = [][2]float64{{lon - r*k, lat - r}, {lon + r*k, lat - r}, {lon + r*k, lat + r}, {lon - r*k, lat + r}}
	} else {
		n := 3 + rng.IntN(298)
		for i := range n {
			ang, rad := 2*math.Pi*float64(i)/float64(n), r*(0.4+0.6*rng.Float64())
			ring = append(ring, [2]float64{lon + rad*k*math.Cos(ang), lat + rad*math.Sin(ang)})
		}
	}
	return geo.NewArea([][][][2]float64{{append(ring, ring[0])}})
}

// TestAvoidAreaTunnel: a car from Grau Roig to Pas de la Casa goes through
// the Envalira tunnel (CG-2a); with a 200 m square around the tunnel's
// middle avoided, it goes over the Port d'Envalira, as with tunnels
// excluded, and never enters the square.
func TestAvoidAreaTunnel(t *testing.T) {
	t.Parallel() // changes no shared release
	const tunnel = 6176755
	rel := openAndorra(t)
	r := rel.Routers["car"]
	net := r.Graph().Net
	var mids [][2]float64
	for s := range uint32(net.NumSegments()) {
		if net.SegWay[s] == tunnel {
			begin, end := net.Points(s)
			lon, lat := net.Point((begin + end) / 2)
			mids = append(mids, [2]float64{lon, lat})
		}
	}
	if len(mids) == 0 {
		t.Fatal("no segment of the tunnel's way")
	}
	mid := mids[len(mids)/2]
	const d = 0.001 // about 110 m of latitude, 80 m of longitude
	area := geo.NewArea([][][][2]float64{{{{mid[0] - d, mid[1] - d}, {mid[0] + d, mid[1] - d}, {mid[0] + d, mid[1] + d},
		{mid[0] - d, mid[1] + d}, {mid[0] - d, mid[1] - d}}}})
	pts := []route.Point{{1.686162, 42.552528}, {1.733594, 42.543642}}
	through := func(rt *route.Route) bool {
		for _, a := range rt.Legs[0].Arcs {
			if s, _ := r.Graph().ArcSegment(a); net.SegWay[s] == tunnel {
				return true
			}
		}
		return false
	}
	var secs []float64
	for _, req := range []route.Request{{Points: pts}, {Points: pts, Avoid: route.Avoid{Areas: area}}, {Points: pts, Exclude: route.ExcludeTunnel}} {
		d, err := r.Directions(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		rt := d.Routes[0]
		secs = append(secs, rt.DurationS)
		t.Logf("areas %v, exclude %q: %.0f s, %.0f m, through the tunnel %v", req.Avoid.Areas != nil, req.Exclude, rt.DurationS, rt.DistanceM, through(rt))
		if want := req.Avoid.Areas == nil && req.Exclude == 0; through(rt) != want {
			t.Errorf("areas %v, exclude %q: through the tunnel %v", req.Avoid.Areas != nil, req.Exclude, !want)
		}
		if req.Avoid.Areas != nil {
			for _, p := range rt.Shape() {
				if _, in := area.Contains(p[0], p[1]); in {
					t.Errorf("the route's shape enters the avoided square at %v", p)
				}
			}
		}
	}
	if secs[1] <= secs[0] || math.Abs(secs[1]-secs[2]) > 1 {
		t.Errorf("durations %v: avoiding the square should cost what excluding tunnels does, more than the tunnel", secs)
	}
}
