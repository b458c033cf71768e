package route_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// TestExcludeMatchesDijkstra is the exactness property of a request's
// exclusions (issue 35): for every kind of road and every profile, legs
// between random points under the exclusion cost exactly what a plain
// Dijkstra finds on the graph with those roads removed, never use such a
// road, and some answers did change (or the kind proves nothing there).
// Andorra has a toll road (the Envalira tunnel), tunnels and unpaved
// tracks, no motorway and no ferry: for those two the exclusion must
// change nothing.
func TestExcludeMatchesDijkstra(t *testing.T) {
	t.Parallel() // changes no shared release (operations tests do, sequentially, before parallel tests start)
	rel := openAndorra(t)
	pairs := 300
	if testing.Short() {
		pairs = 60
	}
	for _, name := range []string{"car", "truck", "bicycle", "pedestrian"} {
		r := rel.Routers[name]
		for i, kind := range route.ExcludeNames {
			x, _ := route.ParseExclude(kind)
			st := r.StateExcluding(time.Time{}, x)
			rng := rand.New(rand.NewPCG(uint64(i), uint64(len(name))))
			q := ch.NewQuery(r.Hierarchy())
			changed := 0
			for range pairs {
				a, b := placedUnder(t, rng, r, st), placedUnder(t, rng, r, st)
				leg, diff := optionLeg(t, r, q, st, nil, a, b, name+" without "+kind)
				if leg.Operated {
					t.Fatalf("%s without %s: a leg says road operations changed it; none is in force", name, kind)
				}
				if diff {
					changed++
				}
			}
			t.Logf("%s without %s: %d pairs equal Dijkstra, %d changed by the exclusion", name, kind, pairs, changed)
			// Andorra has no motorway or ferry; its one toll road is the
			// tunnel, closed to bicycles and walkers anyway.
			none := x == route.ExcludeMotorway || x == route.ExcludeFerry ||
				x == route.ExcludeToll && (name == "bicycle" || name == "pedestrian")
			// Trucks keep off tracks anyway: their unpaved roads are too
			// few for a sample to meet surely (2 of 300 pairs).
			some := !none && !(x == route.ExcludeUnpaved && name == "truck")
			if none && changed > 0 || some && changed == 0 {
				t.Errorf("%s without %s: %d answers changed", name, kind, changed)
			}
		}
	}
}

// TestExcludeTollTunnel: the Envalira tunnel (CG-2a) is a toll tunnel. A
// car from Grau Roig to Pas de la Casa goes through it; excluding tolls,
// or tunnels, it goes over the Port d'Envalira instead; the state of a
// request with exclusions says no road operation applied.
func TestExcludeTollTunnel(t *testing.T) {
	t.Parallel() // changes no shared release (operations tests do, sequentially, before parallel tests start)
	const tunnel = 6176755
	rel := openAndorra(t)
	r := rel.Routers["car"]
	pts := []route.Point{{1.686162, 42.552528}, {1.733594, 42.543642}}
	var through []bool
	var secs []float64
	for _, x := range []route.Exclude{0, route.ExcludeToll, route.ExcludeTunnel, route.ExcludeToll | route.ExcludeMotorway} {
		d, err := r.Directions(context.Background(), route.Request{Points: pts, Exclude: x})
		if err != nil {
			t.Fatalf("exclude %q: %v", x, err)
		}
		rt := d.Routes[0]
		in := false
		for _, a := range rt.Legs[0].Arcs {
			s, _ := r.Graph().ArcSegment(a)
			in = in || rel.Network.SegWay[s] == tunnel
			if x.String() != "" && excluded(r.Graph(), x, s) {
				t.Errorf("exclude %q: the route uses segment %d (%s)", x, s, rel.Network.Class(s))
			}
		}
		through, secs = append(through, in), append(secs, rt.DurationS)
		if rt.OperationsApplied() {
			t.Errorf("exclude %q: operations_applied with no operation in force", x)
		}
		t.Logf("exclude %q: %.0f s, %.0f m, through the tunnel %v", x, rt.DurationS, rt.DistanceM, in)
	}
	if !through[0] || through[1] || through[2] || through[3] || secs[1] <= secs[0] {
		t.Errorf("through the tunnel: %v (want only without exclusions), durations %v", through, secs)
	}
}

// excluded reports whether x forbids segment s, by the tags' flags.
func excluded(g *graph.Graph, x route.Exclude, s uint32) bool {
	f := g.Net.SegFlags[s]
	return x&route.ExcludeToll != 0 && f&graph.FlagToll != 0 || x&route.ExcludeTunnel != 0 && f&graph.FlagTunnel != 0 ||
		x&route.ExcludeUnpaved != 0 && f&graph.FlagUnpaved != 0 || x&route.ExcludeFerry != 0 && f&graph.FlagFerry != 0
}

// TestExcludeLeavesNoRoute: a trip that exists only over excluded roads
// is an *ExcludedError naming the kinds (the API's 422 says the exclusion
// is why), never a route over them and never a plain "no route". Random
// pairs placed as the API places them (on roads the exclusion leaves
// open), car and bicycle, without tunnels and unpaved roads.
func TestExcludeLeavesNoRoute(t *testing.T) {
	t.Parallel() // changes no shared release (operations tests do, sequentially, before parallel tests start)
	rel := openAndorra(t)
	pairs := 2000
	if testing.Short() {
		pairs = 400
	}
	x := route.ExcludeTunnel | route.ExcludeUnpaved
	excludedErrs := 0
	for _, name := range []string{"car", "bicycle"} {
		r := rel.Routers[name]
		st := r.StateExcluding(time.Time{}, x)
		rng := rand.New(rand.NewPCG(9, uint64(len(name))))
		for range pairs {
			a, b := placedUnder(t, rng, r, st), placedUnder(t, rng, r, st)
			pts := []route.Point{{a.Lon, a.Lat}, {b.Lon, b.Lat}}
			_, err := r.Directions(context.Background(), route.Request{Points: pts, Exclude: x})
			var ex *route.ExcludedError
			switch {
			case err == nil:
			case errors.As(err, &ex):
				if ex.Exclude != x || ex.Index != 0 {
					t.Fatalf("%s %v: %v", name, pts, err)
				}
				if _, err := r.Route(context.Background(), pts, nil); err != nil {
					t.Fatalf("%s %v: %v, but without the exclusion: %v", name, pts, ex, err)
				}
				excludedErrs++
			case !errors.Is(err, route.ErrNoRoute):
				t.Fatalf("%s %v: %v", name, pts, err)
			}
		}
	}
	t.Logf("%d of %d pairs exist only through tunnels or unpaved roads", excludedErrs, 2*pairs)
	if excludedErrs == 0 {
		t.Error("no pair needed a tunnel or an unpaved road: the test proves nothing")
	}
}

// placedUnder is a uniform random point of Andorra placed as the API places
// it under st (on a road open under st), within 1 km.
func placedUnder(t *testing.T, rng *rand.Rand, r *route.Router, st *graph.State) snap.Result {
	t.Helper()
	for range 1000 {
		p := route.Point{1.41 + rng.Float64()*(1.79-1.41), 42.43 + rng.Float64()*(42.66-42.43)}
		if s, err := r.PlaceOne(p, snap.Options{}, st); err == nil && s.Dist <= 1000 {
			return s.Result
		}
	}
	t.Fatal("no placeable point in 1000 tries")
	return snap.Result{}
}

// TestExclusionsCustomized: a set of exclusions asked for often gets a
// hierarchy customized under it (customize.go), whose legs between random
// points equal Dijkstra under the exclusions without any repair; a set
// asked for once does not.
func TestExclusionsCustomized(t *testing.T) {
	t.Parallel() // customizes the shared release's car router under tunnels closed: answers stay exact either way
	rel := openAndorra(t)
	r := rel.Routers["car"]
	once := r.StateExcluding(time.Time{}, route.ExcludeUnpaved|route.ExcludeToll)
	q := ch.NewQuery(r.Hierarchy())
	var st *graph.State
	asked := 0
	for ; asked < 200; asked++ { // every eighth request starts it, unless another customization is under way
		st = r.StateExcluding(time.Time{}, route.ExcludeTunnel)
		if asked%8 == 0 {
			if err := r.AwaitCustomized(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		if q.SetState(st); q.Customized() {
			break
		}
	}
	if asked < 8 || asked == 200 {
		t.Fatalf("a set of exclusions customized after %d requests; want from 8 on, surely before 200", asked)
	}
	if q.SetState(once); q.Customized() {
		t.Fatal("a set of exclusions asked for once was customized")
	}
	rng := rand.New(rand.NewPCG(35, 42))
	pairs, changed := 300, 0
	if testing.Short() {
		pairs = 80
	}
	for range pairs {
		a, b := placedUnder(t, rng, r, st), placedUnder(t, rng, r, st)
		q.SetState(st)
		if _, diff := optionLeg(t, r, q, st, nil, a, b, "car without tunnels, customized"); diff {
			changed++
		}
	}
	t.Logf("car without tunnels, customized: %d pairs equal Dijkstra, %d changed by the exclusion", pairs, changed)
	if changed == 0 {
		t.Error("no answer changed by excluding tunnels: the test proves nothing")
	}
}
