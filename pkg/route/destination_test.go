package route_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// Liechtenstein's anti-rat-run signs: 15 of its 17 conditional ways are
// access:conditional=destination @ (06:30-08:30); destination @ (16:30-18:30),
// and some streets (Tonagass) are access=destination or delivery outright.
// A route may enter such a way only to reach a waypoint on it or beyond it
// (issue 36, items 5 and 7).

var (
	rushHour = time.Date(2026, 12, 1, 7, 30, 0, 0, time.FixedZone("CET", 3600))  // a Tuesday
	midMorn  = time.Date(2026, 12, 1, 10, 30, 0, 0, time.FixedZone("CET", 3600)) // the same day, no rule in force
)

// TestRushHourKeepsThroughTrafficOut is the trip: at 07:30 on a
// Tuesday the car no longer cuts through the destination-only streets it
// took, with neither end on them; at 10:30 it may.
func TestRushHourKeepsThroughTrafficOut(t *testing.T) {
	t.Parallel() // changes no shared release (operations tests do, sequentially, before parallel tests start)
	rel := compiletest.Extract(t, "liechtenstein.osm.pbf")
	r := rel.Routers["car"]
	g := r.Graph()
	pts := []route.Point{{9.5012, 47.16077}, {9.49197, 47.17015}}
	rush := r.StateAt(rushHour)
	if rush == nil {
		t.Fatal("Liechtenstein's car graph has no time conditions")
	}
	at, err := r.Route(context.Background(), pts, rush)
	if err != nil {
		t.Fatal(err)
	}
	free, err := r.Route(context.Background(), pts, r.StateAt(midMorn))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("07:30: %.0f m %.0f s, entering %d destination-only ways; 10:30: %.0f m %.0f s, which at 07:30 would enter %d",
		at.DistanceM, at.DurationS, entries(g, rush, at), free.DistanceM, free.DurationS, entries(g, rush, free))
	if n := entries(g, rush, at); n != 0 {
		t.Errorf("at 07:30 the route enters %d destination-only ways with neither end on one", n)
	}
	if entries(g, rush, free) == 0 {
		t.Error("the 10:30 route would be legal at 07:30 too: the trip no longer shows the rule")
	}
	if at.DurationS < free.DurationS {
		t.Errorf("the 07:30 route (%.1f s) is faster than the free one (%.1f s)", at.DurationS, free.DurationS)
	}
}

// TestDestinationOnlyEnteredAsLittleAsPossible routes car, truck and moto
// trips over Liechtenstein, uniform in its box and in the box round the
// conditional ways, at 07:30 and 10:30 on a Tuesday, and checks from the
// outside that each route enters no more destination-only ways than the
// fewest any path does (a 0-1 breadth-first search over the turn graph
// counting entries, blind to travel times), that its duration is its
// travel time, without the penalty, and that the hierarchy's answer is
// plain Dijkstra's (the conditional penalties live in its core).
func TestDestinationOnlyEnteredAsLittleAsPossible(t *testing.T) {
	t.Parallel() // changes no shared release (operations tests do, sequentially, before parallel tests start)
	rel := compiletest.Extract(t, "liechtenstein.osm.pbf")
	trips := 300
	if testing.Short() {
		trips = 100
	}
	for _, profile := range []string{"car", "truck", "moto"} {
		r := rel.Routers[profile]
		g := r.Graph()
		lon0, lat0, lon1, lat1 := roadBox(g.Net)
		boxes := [][4]float64{{lon0, lat0, lon1, lat1}, {9.488, 47.155, 9.505, 47.175}}
		for _, when := range []time.Time{rushHour, midMorn} {
			st := r.StateAt(when)
			rng := rand.New(rand.NewPCG(36, 5))
			routed, entering := 0, 0
			for i := range trips {
				b := boxes[i%2]
				point := func() route.Point {
					return route.Point{b[0] + rng.Float64()*(b[2]-b[0]), b[1] + rng.Float64()*(b[3]-b[1])}
				}
				pts := []route.Point{point(), point()}
				rt, err := r.Route(context.Background(), pts, st)
				if err != nil {
					continue
				}
				routed++
				got := entries(g, st, rt)
				if got > 0 {
					entering++
				}
				want := fewestEntries(g, st, rt.Snapped[0], rt.Snapped[1])
				if got != want {
					t.Errorf("%s %s %v: the route enters %d destination-only ways, a path entering %d exists",
						profile, when.Format("15:04"), pts, got, want)
				}
				if rt.DurationS >= float64(graph.DestinationPenalty)/1000 {
					t.Errorf("%s %v: duration %.0f s holds the penalty", profile, pts, rt.DurationS)
				}
				if e := route.MakeEnds(g, st, rt.Snapped[0], rt.Snapped[1]); !rt.Legs[0].Direct {
					tree := search.DijkstraAt(g, st, e.Sources)
					best, _ := search.Finish(func(arc uint32) uint32 { return tree[arc] }, e.Targets)
					if ms := float64(graph.Unpenalised(best)); math.Abs(rt.DurationS*1000-ms) > 0.5 {
						t.Errorf("%s %s %v: hierarchy %.3f s, plain Dijkstra %.3f s", profile, when.Format("15:04"), pts,
							rt.DurationS, ms/1000)
					}
				}
			}
			t.Logf("%s %s: %d of %d trips routed, %d must enter a destination-only way", profile,
				when.Format("15:04"), routed, trips, entering)
		}
	}
}

// entries counts the turns of rt entering a destination-only way under st.
func entries(g *graph.Graph, st *graph.State, rt *route.Route) int {
	n := 0
	for _, leg := range rt.Legs {
		for i := 1; i < len(leg.Arcs); i++ {
			if g.EntersDestination(st, leg.Arcs[i-1], leg.Arcs[i]) {
				n++
			}
		}
	}
	return n
}

// fewestEntries is the fewest destination-only ways any path from a to b
// enters under st: a breadth-first search over the turn graph by layers,
// layer k holding the arcs reached entering k such ways, -1 if b is not
// reached at all.
func fewestEntries(g *graph.Graph, st *graph.State, a, b snap.Result) int {
	e := route.MakeEnds(g, st, a, b)
	if e.Direct != search.Unreached {
		return 0
	}
	var layer, next []uint32
	for i, s := range e.Sources {
		if e.Origin[i] != s.Node && g.EntersDestination(st, e.Origin[i], s.Node) {
			next = append(next, s.Node)
		} else {
			layer = append(layer, s.Node)
		}
	}
	seen := map[uint32]bool{}
	for k := 0; len(layer) > 0 || len(next) > 0; k++ {
		for len(layer) > 0 {
			u := layer[len(layer)-1]
			layer = layer[:len(layer)-1]
			if seen[u] {
				continue
			}
			seen[u] = true
			for _, t := range e.Targets {
				if t.Node == u {
					return k
				}
			}
			begin, end := g.Turns.Out(u)
			for i := begin; i < end; i++ {
				to, w, _ := g.Turn(i)
				switch {
				case seen[to] || st.Edge(u, to, w, true) == graph.NoWay:
				case g.EntersDestination(st, u, to):
					next = append(next, to)
				default:
					layer = append(layer, to)
				}
			}
		}
		layer, next = next, nil
	}
	return -1
}
