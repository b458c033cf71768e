package route_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// andorraTime is a local time in the town's zone. 2026-11-24 is a Tuesday,
// 2026-11-28 a Saturday.
func andorraTime(t *testing.T, day, hour int) time.Time {
	t.Helper()
	zone, err := time.LoadLocation("Europe/Andorra")
	if err != nil {
		t.Fatal(err)
	}
	return time.Date(2026, 11, day, hour, 0, 0, 0, zone)
}

const tuesday, saturday = 24, 28

// durationAt routes from a to b by car at t and returns the duration.
func durationAt(t *testing.T, r *route.Router, a, b route.Point, at time.Time) (float64, *route.Route) {
	t.Helper()
	rt, err := r.Route(context.Background(), []route.Point{a, b}, r.StateAt(at))
	if err != nil {
		t.Fatalf("route at %s: %v", at, err)
	}
	return rt.DurationS, rt
}

// TestTimedTown checks each conditional tag of the demonstration town
// changes the route exactly when its schedule is in force.
func TestTimedTown(t *testing.T) {
	town := compiletest.TimedTown{W: 7, H: 4}
	rel := town.Open(t)
	car, foot := rel.Routers["car"], rel.Routers["pedestrian"]
	tue8, tue10, sat8 := andorraTime(t, tuesday, 8), andorraTime(t, tuesday, 10), andorraTime(t, saturday, 8)

	t.Run("closed Mo-Fr 07:00-09:00", func(t *testing.T) {
		a, b := town.Corner(0, 0), town.Corner(0, 6)
		d8, rt8 := durationAt(t, car, a, b, tue8)
		d10, rt10 := durationAt(t, car, a, b, tue10)
		dSat, _ := durationAt(t, car, a, b, sat8)
		if !(d8 > d10) || d10 != dSat {
			t.Fatalf("Tuesday 08:00 %.1f s, 10:00 %.1f s, Saturday 08:00 %.1f s: want only Tuesday 08:00 slower", d8, d10, dSat)
		}
		if maxLat(rt10.Shape()) > town.Corner(0, 0)[1]+1e-6 || maxLat(rt8.Shape()) < town.Corner(1, 0)[1]-1e-6 {
			t.Fatalf("10:00 should follow Carrer Major, 08:00 go round by row 1")
		}
		// Walking is not motor traffic: the closure does not apply.
		w8, _ := durationAt(t, foot, a, b, tue8)
		w10, _ := durationAt(t, foot, a, b, tue10)
		if w8 != w10 {
			t.Fatalf("pedestrian: %.1f s at 08:00, %.1f s at 10:00", w8, w10)
		}
	})
	t.Run("oneway Mo-Fr 16:00-18:00", func(t *testing.T) {
		a, b := town.Corner(3, 6), town.Corner(0, 6) // southward, against the way's direction
		d17, _ := durationAt(t, car, a, b, andorraTime(t, tuesday, 17))
		d12, _ := durationAt(t, car, a, b, andorraTime(t, tuesday, 12))
		up17, _ := durationAt(t, car, b, a, andorraTime(t, tuesday, 17))
		up12, _ := durationAt(t, car, b, a, andorraTime(t, tuesday, 12))
		if !(d17 > d12) || up17 != up12 {
			t.Fatalf("southward %.1f s at 17:00, %.1f s at 12:00; northward %.1f / %.1f s", d17, d12, up17, up12)
		}
	})
	t.Run("maxspeed 10 from 22:00 to 06:00", func(t *testing.T) {
		a, b := town.Corner(3, 0), town.Corner(3, 6)
		night, _ := durationAt(t, car, a, b, andorraTime(t, tuesday, 23))
		early, _ := durationAt(t, car, a, b, andorraTime(t, tuesday, 5))
		day, _ := durationAt(t, car, a, b, andorraTime(t, tuesday, 12))
		if !(night > day) || night != early {
			t.Fatalf("23:00 %.1f s, 05:00 %.1f s, 12:00 %.1f s", night, early, day)
		}
	})
	t.Run("no_left_turn Mo-Fr 07:00-09:00", func(t *testing.T) {
		a := midpoint(town.Corner(1, 1), town.Corner(1, 2))
		b := midpoint(town.Corner(2, 3), town.Corner(3, 3))
		d8, _ := durationAt(t, car, a, b, tue8)
		d10, _ := durationAt(t, car, a, b, tue10)
		if !(d8 > d10) {
			t.Fatalf("08:00 %.1f s, 10:00 %.1f s: the left turn at (1, 3) should be forbidden at 08:00", d8, d10)
		}
	})
}

// randomOnGraph is a random point on a random segment of g.
func randomOnGraph(rng *rand.Rand, g *graph.Graph) snap.Result {
	for {
		s := uint32(rng.IntN(g.Net.NumSegments()))
		if g.WF[s] != graph.NoWay || g.WB[s] != graph.NoWay {
			return snap.Result{Seg: s, Frac: rng.Float64()}
		}
	}
}

func midpoint(a, b route.Point) route.Point { return route.Point{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2} }

func maxLat(pts []route.Point) float64 {
	m := -90.0
	for _, p := range pts {
		m = max(m, p[1])
	}
	return m
}

// TestTimedMatchesDijkstra is the exactness property of the core-based
// hierarchy: on a town where one street in 25 and as many corners carry
// random time conditions (far more than real cities: Munich's extract has
// 21 such ways), for every profile, random pairs at
// random departure times cost exactly what a plain Dijkstra under the same
// conditions finds.
func TestTimedMatchesDijkstra(t *testing.T) {
	t.Parallel() // changes no shared release (operations tests do, sequentially, before parallel tests start)
	rel := compiletest.TimedTown{W: 24, H: 24, Random: 4, Seed: 3}.Open(t)
	pairs := 2000
	if testing.Short() {
		pairs = 150
	}
	week := andorraTime(t, 23, 0) // Monday 00:00
	for name, r := range rel.Routers {
		t.Run(name, func(t *testing.T) {
			g := r.Graph()
			if g.Cond.Empty() {
				t.Fatalf("profile %s has no conditions in the random town", name)
			}
			rng := rand.New(rand.NewPCG(11, uint64(len(name))))
			q := ch.NewQuery(r.Hierarchy())
			changed, routed := 0, 0
			for range pairs {
				at := week.Add(time.Duration(rng.IntN(7*24*60)) * time.Minute)
				a, b := randomOnGraph(rng, g), randomOnGraph(rng, g)
				got := timedPairMatches(t, r, q, at, a, b)
				if got != search.Unreached {
					routed++
				}
				q.SetState(nil)
				if chCost(q, route.MakeEnds(g, nil, a, b)) != got {
					changed++
				}
			}
			t.Logf("%d pairs at random times, %d routed, all equal to the time-aware Dijkstra; %d differ from the fastest-state graph",
				pairs, routed, changed)
			if changed == 0 {
				t.Errorf("no pair was affected by the conditions: the test proves nothing")
			}
		})
	}
}

// chCost is what a hierarchy query answers between e's ends, under the
// query's state: the cheaper of its path and the direct way along one
// segment, or search.Unreached.
func chCost(q *ch.Query, e route.Ends) uint32 {
	got := e.Direct
	if res, ok := q.Shortest(e.Sources, e.Targets, nil); ok {
		got = min(got, res.Cost)
	}
	return got
}

// timedPairMatches routes from a to b departing at the given time with q
// and fails the test unless a plain time-aware Dijkstra finds the same
// cost; it returns that cost.
func timedPairMatches(t *testing.T, r *route.Router, q *ch.Query, at time.Time, a, b snap.Result) uint32 {
	t.Helper()
	g, st := r.Graph(), r.StateAt(at)
	e := route.MakeEnds(g, st, a, b)
	q.SetState(st)
	got := chCost(q, e)
	tree := search.DijkstraAt(g, st, e.Sources)
	want, _ := search.Finish(func(arc uint32) uint32 { return tree[arc] }, e.Targets)
	if want = min(want, e.Direct); got != want {
		t.Fatalf("at %s: CH %d ms, Dijkstra %d ms (%+v -> %+v)", at.Format(time.RFC3339), got, want, a, b)
	}
	return got
}
