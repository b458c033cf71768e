package route_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/serving"
	"github.com/mapsco/maps/pkg/snap"
)

func TestMain(m *testing.M) {
	code := m.Run()
	compiletest.Cleanup()
	os.Exit(code)
}

func openAndorra(t testing.TB) *serving.Release { return compiletest.OpenAndorra(t) }

var (
	andorraLaVella = route.Point{1.5218, 42.5063}
	pasDeLaCasa    = route.Point{1.7333, 42.5425}
)

func TestAndorraLaVellaToPasDeLaCasa(t *testing.T) {
	rel := openAndorra(t)
	car, err := rel.Routers["car"].Route(context.Background(), []route.Point{andorraLaVella, pasDeLaCasa}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("car: %.1f km in %.1f min (%.1f km/h)", car.DistanceM/1000, car.DurationS/60, car.DistanceM/car.DurationS*3.6)
	if car.DistanceM < 27000 || car.DistanceM > 40000 {
		t.Errorf("car route is %.0f m, want the CG-2's 27-40 km", car.DistanceM)
	}
	if v := car.DistanceM / car.DurationS * 3.6; v < 30 || v > 90 {
		t.Errorf("car average speed %.1f km/h is implausible for a mountain trunk road", v)
	}
	if !usesRef(rel, car, "CG-2") {
		t.Error("car route does not follow the CG-2")
	}
	walk, err := rel.Routers["pedestrian"].Route(context.Background(), []route.Point{andorraLaVella, pasDeLaCasa}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("pedestrian: %.1f km in %.1f h", walk.DistanceM/1000, walk.DurationS/3600)
	if walk.DurationS < 3*car.DurationS {
		t.Errorf("walking (%.0f s) is not much slower than driving (%.0f s)", walk.DurationS, car.DurationS)
	}
	if sameSegments(car, walk) {
		t.Error("the pedestrian route is the car route")
	}
}

func usesRef(rel *serving.Release, rt *route.Route, ref string) bool {
	g := rel.Routers["car"].Graph()
	for _, leg := range rt.Legs {
		for _, a := range leg.Arcs {
			if s, _ := g.ArcSegment(a); rel.Network.Ref(s) == ref {
				return true
			}
		}
	}
	return false
}

func sameSegments(a, b *route.Route) bool {
	return len(a.Shape()) == len(b.Shape()) && a.DistanceM == b.DistanceM
}

// TestOneWayStreet routes between two points of a real one-way street:
// along it the route is the street itself; against it a car must go round
// the block, while a pedestrian walks straight back.
func TestOneWayStreet(t *testing.T) {
	rel := openAndorra(t)
	g := rel.Routers["car"].Graph()
	net := g.Net
	s := -1
	for i := range net.NumSegments() {
		if g.WF[i] != graph.NoWay && g.WB[i] == graph.NoWay && g.Big[i] == 1 && net.SegLength[i] > 150 && net.Class(uint32(i)) == "residential" {
			s = i
			break
		}
	}
	if s < 0 {
		t.Fatal("no one-way residential street found in Andorra")
	}
	a, b := pointAlong(t, rel, uint32(s), 0.2), pointAlong(t, rel, uint32(s), 0.8)
	t.Logf("one-way segment %d (%s), %.0f m", s, net.Name(uint32(s)), net.SegLength[s])
	with, err := rel.Routers["car"].Route(context.Background(), []route.Point{a, b}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if with.DistanceM > 0.65*float64(net.SegLength[s]) {
		t.Errorf("along the one-way: %.0f m, want the direct %.0f m", with.DistanceM, 0.6*net.SegLength[s])
	}
	against, err := rel.Routers["car"].Route(context.Background(), []route.Point{b, a}, nil)
	if err != nil && !errors.Is(err, route.ErrNoRoute) {
		t.Fatal(err)
	}
	if err == nil && against.DistanceM < 1.5*with.DistanceM {
		t.Errorf("against the one-way: %.0f m, the car drove the wrong way (direct is %.0f m)", against.DistanceM, with.DistanceM)
	}
	walk, err := rel.Routers["pedestrian"].Route(context.Background(), []route.Point{b, a}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if walk.DistanceM > 0.65*float64(net.SegLength[s]) {
		t.Errorf("a pedestrian walked %.0f m instead of straight back", walk.DistanceM)
	}
}

// pointAlong returns the shape point nearest to fraction f of segment s.
func pointAlong(t *testing.T, rel *serving.Release, s uint32, f float64) route.Point {
	t.Helper()
	pts := route.AppendPart(nil, rel.Network, s, 0, f)
	return pts[len(pts)-1]
}

// TestMatchesDijkstra checks, for every profile, on random pairs of
// snapped points, that the contraction hierarchy returns exactly the cost a
// plain Dijkstra on the turn-expanded graph finds, and that the path it
// unpacks is continuous, allowed turn by turn, and costs what it says.
func TestMatchesDijkstra(t *testing.T) {
	rel := openAndorra(t)
	// Each source is paired with several targets so that one Dijkstra tree
	// serves them all: 1000 × 10 = 10,000 pairs per profile.
	sources, perSource := 1000, 10
	if testing.Short() {
		sources = 100
	}
	pairs := sources * perSource
	for name, r := range rel.Routers {
		t.Run(name, func(t *testing.T) {
			g := r.Graph()
			rng := rand.New(rand.NewPCG(1, uint64(len(name))))
			q := ch.NewQuery(r.Hierarchy())
			routed, bothBig := 0, 0
			var a snap.Result
			var tree []uint32
			for i := range pairs {
				if i%perSource == 0 {
					a = randomSnap(t, rng, rel, g)
					tree = search.Dijkstra(g, route.Sources(g, nil, a))
				}
				b := randomSnap(t, rng, rel, g)
				big := g.Big[a.Seg] == 1 && g.Big[b.Seg] == 1
				if big {
					bothBig++
				}
				got := pairMatches(t, q, g, tree, a, b)
				if got == search.Unreached {
					if big {
						t.Fatalf("no route between two points of the largest component: %+v -> %+v", a, b)
					}
					continue
				}
				routed++
			}
			t.Logf("%d of %d pairs routed, all equal to Dijkstra; %d pairs had both ends in the largest component", routed, pairs, bothBig)
			// A point stays on its nearest road when the main network is
			// much farther (docs/snapping.md): for cars a quarter of random
			// pairs have an end off it, and some of those are not routed.
			if bothBig < pairs*2/3 {
				t.Errorf("only %d of %d random point pairs snapped into the largest component", bothBig, pairs)
			}
		})
	}
}

// checkPath verifies that the path starts at its source seed, that each
// step is an allowed turn, that it ends at its target seed, and that its
// costs add up.
func checkPath(t *testing.T, g *graph.Graph, e route.Ends, r ch.Result) {
	t.Helper()
	if r.Arcs[0] != e.Sources[r.Source].Node || r.Arcs[len(r.Arcs)-1] != e.Targets[r.Target].Node {
		t.Fatalf("path %v does not join seed %d to target %d", r.Arcs, r.Source, r.Target)
	}
	cost := e.Sources[r.Source].Cost
	for i := 1; i < len(r.Arcs); i++ {
		w, ok := turnWeight(g, r.Arcs[i-1], r.Arcs[i])
		if !ok {
			t.Fatalf("path turns from arc %d to %d, which is not allowed", r.Arcs[i-1], r.Arcs[i])
		}
		cost += w
	}
	if cost-e.Targets[r.Target].Cost != r.Cost {
		t.Fatalf("turns add up to %d ms, the query says %d", cost-e.Targets[r.Target].Cost, r.Cost)
	}
}

func turnWeight(g *graph.Graph, a, b uint32) (uint32, bool) {
	begin, end := g.Turns.Out(a)
	for i := begin; i < end; i++ {
		if t := g.Turns.At(i); t.Head == b {
			return t.Weight, true
		}
	}
	return 0, false
}

// randomSnap snaps a random point of Andorra's road area, retrying points
// more than 1 km from a road (which snap too, but mostly onto tracks off
// the largest component, where few pairs would be routed).
func randomSnap(t *testing.T, rng *rand.Rand, rel *serving.Release, g *graph.Graph) snap.Result {
	t.Helper()
	r := rel.Routers[g.Profile]
	for range 1000 {
		lon := 1.41 + rng.Float64()*(1.79-1.41)
		lat := 42.43 + rng.Float64()*(42.66-42.43)
		res, err := r.Snap([]route.Point{{lon, lat}})
		if err == nil && res[0].Dist <= 1000 {
			return res[0]
		}
	}
	t.Fatal("no snappable point in 1000 tries")
	return snap.Result{}
}

// BenchmarkLeg measures one point-to-point hierarchy query with unpacking
// between random snapped car-road points of Andorra (snapping excluded).
func BenchmarkLeg(b *testing.B) {
	rel := compiletest.OpenAndorra(b)
	r := rel.Routers["car"]
	pairs := legPairs(r, 1000)
	q := r.Query()
	i := 0
	defer benchcpu.Report(b)()
	for b.Loop() {
		p := pairs[i%len(pairs)]
		i++
		if _, ok := r.Leg(q, p[0], p[1]); !ok {
			b.Fatal("no route")
		}
	}
}

// legPairs snaps n random pairs of points on r's roads, both ends in the
// largest component, the same pairs on every run.
func legPairs(r *route.Router, n int) [][2]snap.Result {
	g := r.Graph()
	rng := rand.New(rand.NewPCG(8, 9))
	var pairs [][2]snap.Result
	for len(pairs) < n {
		p, err := r.Snap([]route.Point{randomRoadPoint(rng, r), randomRoadPoint(rng, r)})
		if err == nil && g.Big[p[0].Seg] == 1 && g.Big[p[1].Seg] == 1 {
			pairs = append(pairs, [2]snap.Result{p[0], p[1]})
		}
	}
	return pairs
}

// pairMatches routes from a to b with q and fails the test unless the cost
// equals a plain Dijkstra's (tree: one from a's sources) and the path is a
// path of g with that cost; it returns the cost, search.Unreached for none.
func pairMatches(t *testing.T, q *ch.Query, g *graph.Graph, tree []uint32, a, b snap.Result) uint32 {
	t.Helper()
	e := route.MakeEnds(g, nil, a, b)
	res, ok := q.Shortest(e.Sources, e.Targets, nil)
	got := e.Direct
	if ok {
		got = min(got, res.Cost)
	}
	if a.Seg == b.Seg { // the sources depend on the target here
		tree = search.Dijkstra(g, e.Sources)
	}
	want, _ := search.Finish(func(arc uint32) uint32 { return tree[arc] }, e.Targets)
	if want = min(want, e.Direct); got != want {
		t.Fatalf("cost %d ms, Dijkstra %d ms (%+v -> %+v)", got, want, a, b)
	}
	if ok && got != search.Unreached {
		checkPath(t, g, e, res)
	}
	return got
}

// TestLegToItself: a leg from a point to the same point, as a table's
// diagonal or a repeated waypoint asks, is the direct way of no length
// and no time on every profile, from uniform random points over the
// country; the same point a metre along its road is not (its leg costs
// something, or goes around when the road is one-way against it).
func TestLegToItself(t *testing.T) {
	rel := openAndorra(t)
	for name, r := range rel.Routers {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			q := ch.NewQuery(r.Hierarchy())
			g := r.Graph()
			for range 300 {
				a := randomSnap(t, rng, rel, g)
				leg, ok := r.Leg(q, a, a)
				if !ok || !leg.Direct || leg.DurationS != 0 || leg.DistanceM != 0 {
					t.Fatalf("leg from %+v to itself: %+v, %v; want the direct way, 0 s, 0 m", a, leg, ok)
				}
				b := a
				length := float64(g.Net.SegLength[a.Seg])
				if length < 2 {
					continue
				}
				b.Frac = min(1, a.Frac+1/length)
				if b.Frac == a.Frac {
					continue
				}
				if leg, ok := r.Leg(q, a, b); ok && leg.DurationS == 0 && leg.DistanceM == 0 {
					t.Fatalf("leg from %+v a metre along to %+v: %+v, no length", a, b, leg)
				}
			}
		})
	}
}
