package route_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// TestIssuePairEndsOnTheOneWayRoad: the issue's destination lies on a
// one-way road (Carretera del Coll de la Gallina) that OSRM ends on; it is
// entered over a bridge tagged tracktype=grade3, which the car profile now
// drives slowly instead of refusing, so our route ends on it too, on foot
// as by car.
func TestIssuePairEndsOnTheOneWayRoad(t *testing.T) {
	rel := openAndorra(t)
	from, to := route.Point{1.44615, 42.46290}, route.Point{1.44737, 42.45597}
	for _, profile := range []string{"car", "pedestrian"} {
		r := rel.Routers[profile]
		placed, err := r.Place([]route.Point{from, to}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !placed[1].Main || placed[1].Dist > 1 {
			t.Fatalf("%s: destination placed %+v: want the one-way road under it, on the main network", profile, placed[1])
		}
		rt, err := r.RouteThrough(context.Background(), placed, nil)
		if err != nil || rt.Snapped[1] != placed[1].Result {
			t.Fatalf("%s: %v, route ends at %+v, want on the road under the point %+v", profile, err, rt, placed[1].Result)
		}
	}
}

// TestFallbackWhenNoPathReachesTheNearestRoad: a point whose nearest car
// road lies off the main network, on a piece no path from the main network
// reaches, ends its route on its fallback, the nearest road of the main
// network, and the route says so. The points are drawn uniformly until one
// such is found.
func TestFallbackWhenNoPathReachesTheNearestRoad(t *testing.T) {
	rel := openAndorra(t)
	car := rel.Routers["car"]
	from := route.Point{1.5218, 42.5063} // Andorra la Vella, on the main network
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		to := route.Point{1.46 + rng.Float64()*0.28, 42.44 + rng.Float64()*0.19}
		placed, err := car.Place([]route.Point{from, to}, nil, nil)
		if err != nil || placed[1].Main || !placed[1].HasFallback {
			continue
		}
		direct, err := car.RouteThrough(context.Background(), placedAs([]snap.Result{placed[0].Result, placed[1].Result}), nil)
		if err == nil {
			continue // this piece is reachable from here: no fallback needed
		}
		rt, err := car.RouteThrough(context.Background(), placed, nil)
		if err != nil {
			t.Fatalf("%v: %v, though its fallback is on the main network", to, err)
		}
		if rt.Snapped[1] != placed[1].Fallback || rt.Snapped[0] != placed[0].Result || direct != nil {
			t.Fatalf("%v: route ends at %+v, want the fallback %+v", to, rt.Snapped[1], placed[1].Fallback)
		}
		return
	}
	t.Fatal("no uniform point in 20,000 has its nearest car road on an unreachable piece")
}

// TestFallbackKeepsRoutesContinuous: through uniform random waypoints (a
// third of them off the main network), every route found is continuous:
// each leg ends where the next starts, at the waypoint's final place.
func TestFallbackKeepsRoutesContinuous(t *testing.T) {
	rel := openAndorra(t)
	r := rel.Routers["car"]
	rng := rand.New(rand.NewPCG(5, 6))
	n := 60
	if testing.Short() {
		n = 20
	}
	moved := 0
	for range n {
		pts := make([]route.Point, 2+rng.IntN(4))
		for i := range pts {
			pts[i] = route.Point{1.46 + rng.Float64()*0.28, 42.44 + rng.Float64()*0.19}
		}
		placed, err := r.Place(pts, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		rt, err := r.RouteThrough(context.Background(), placed, nil)
		if err != nil {
			t.Logf("%v: %v", pts, err)
			continue
		}
		for i, s := range rt.Snapped {
			if s != placed[i].Result && (!placed[i].HasFallback || s != placed[i].Fallback) {
				t.Fatalf("waypoint %d ended at %+v, neither its place nor its fallback", i, s)
			}
			if s != placed[i].Result {
				moved++
			}
		}
		one, err := r.RouteThrough(context.Background(), placedAs(rt.Snapped), nil)
		if err != nil || one.DurationS != rt.DurationS {
			t.Fatalf("the route through its final places: %v, %.3f s against %.3f s", err, one.DurationS, rt.DurationS)
		}
	}
	t.Logf("%d waypoints moved to their fallbacks", moved)
}

func placedAs(rs []snap.Result) []snap.Snapped {
	out := make([]snap.Snapped, len(rs))
	for i, r := range rs {
		out[i] = snap.Snapped{Result: r}
	}
	return out
}

// TestBearingsAreHonoured: with a bearing at the origin, the route leaves
// in a direction the bearing admits, and with the opposite bearing the
// other; the faster of the two is the route without one.
func TestBearingsAreHonoured(t *testing.T) {
	rel := openAndorra(t)
	r := rel.Routers["car"]
	g := r.Graph()
	rng := rand.New(rand.NewPCG(7, 7))
	n := 150
	if testing.Short() {
		n = 40
	}
	checked := 0
	for range n {
		a, b := randomRoadPoint(rng, r), randomRoadPoint(rng, r)
		deg := rng.Float64() * 360
		free, err := r.Directions(context.Background(), route.Request{Points: []route.Point{a, b}})
		if err != nil {
			continue
		}
		var durations [2]float64
		sameRoad := true
		for k, d := range []float64{deg, deg + 180} {
			opts := []snap.Options{{Bearing: &snap.Bearing{Degrees: d, Tolerance: 90}}}
			dirs, err := r.Directions(context.Background(), route.Request{Points: []route.Point{a, b}, Snapping: opts})
			if err != nil {
				durations[k], sameRoad = -1, false
				continue
			}
			rt := dirs.Routes[0]
			durations[k] = rt.DurationS
			s, leg := rt.Snapped[0], rt.Legs[0]
			f := free.Routes[0].Snapped
			sameRoad = sameRoad && s.Seg == f[0].Seg && s.Frac == f[0].Frac && rt.Snapped[1] == f[1]
			forward := rt.Snapped[1].Frac >= s.Frac
			if !leg.Direct {
				_, reversed := graph.SplitSegRef(g.Fwd.At(leg.Arcs[0]).SegRef)
				forward = !reversed
			}
			if forward && s.NoForward || !forward && s.NoBackward {
				t.Fatalf("%v -> %v heading %.0f: leaves %s, which the bearing excludes (%+v)", a, b, d,
					map[bool]string{true: "forward", false: "backward"}[forward], s)
			}
		}
		// At the same place, the two bearings split its directions between
		// them: the faster is the route free to leave either way.
		if fast := free.Routes[0].DurationS; sameRoad && min(durations[0], durations[1]) != fast {
			t.Errorf("%v -> %v: %.3f s free, %.3f and %.3f s with opposite bearings", a, b, fast, durations[0], durations[1])
		}
		checked++
	}
	if checked < n/2 {
		t.Fatalf("only %d of %d pairs routed", checked, n)
	}
}
