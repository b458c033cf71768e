package route_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/release"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

func TestMain(m *testing.M) {
	code := m.Run()
	compiletest.Cleanup()
	os.Exit(code)
}

func openAndorra(t *testing.T) *release.Release {
	t.Helper()
	rel, err := release.Open(compiletest.Andorra(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rel.Close() })
	return rel
}

var (
	andorraLaVella = route.Point{1.5218, 42.5063}
	pasDeLaCasa    = route.Point{1.7333, 42.5425}
)

func TestAndorraLaVellaToPasDeLaCasa(t *testing.T) {
	rel := openAndorra(t)
	car, err := rel.Routers["car"].Route(context.Background(), []route.Point{andorraLaVella, pasDeLaCasa})
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
	walk, err := rel.Routers["pedestrian"].Route(context.Background(), []route.Point{andorraLaVella, pasDeLaCasa})
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

func usesRef(rel *release.Release, rt *route.Route, ref string) bool {
	for _, leg := range rt.Legs {
		for _, r := range leg.SegRefs {
			if s, _ := graph.SplitSegRef(r); rel.Network.Ref(s) == ref {
				return true
			}
		}
	}
	return false
}

func sameSegments(a, b *route.Route) bool {
	if len(a.Legs[0].SegRefs) != len(b.Legs[0].SegRefs) {
		return false
	}
	for i, r := range a.Legs[0].SegRefs {
		if b.Legs[0].SegRefs[i] != r {
			return false
		}
	}
	return true
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
	with, err := rel.Routers["car"].Route(context.Background(), []route.Point{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if with.DistanceM > 0.65*float64(net.SegLength[s]) {
		t.Errorf("along the one-way: %.0f m, want the direct %.0f m", with.DistanceM, 0.6*net.SegLength[s])
	}
	against, err := rel.Routers["car"].Route(context.Background(), []route.Point{b, a})
	if err != nil && !errors.Is(err, route.ErrNoRoute) {
		t.Fatal(err)
	}
	if err == nil && against.DistanceM < 1.5*with.DistanceM {
		t.Errorf("against the one-way: %.0f m, the car drove the wrong way (direct is %.0f m)", against.DistanceM, with.DistanceM)
	}
	walk, err := rel.Routers["pedestrian"].Route(context.Background(), []route.Point{b, a})
	if err != nil {
		t.Fatal(err)
	}
	if walk.DistanceM > 0.65*float64(net.SegLength[s]) {
		t.Errorf("a pedestrian walked %.0f m instead of straight back", walk.DistanceM)
	}
}

// pointAlong returns the shape point nearest to fraction f of segment s.
func pointAlong(t *testing.T, rel *release.Release, s uint32, f float64) route.Point {
	t.Helper()
	begin, end := rel.Network.Points(s)
	pts := route.AppendPart(nil, rel.Network, s, 0, f)
	_ = begin
	_ = end
	return pts[len(pts)-1]
}

// TestMatchesDijkstra checks, for every profile, on random pairs of
// snapped points, that the bidirectional search returns exactly the cost a
// plain Dijkstra finds, and that its path is continuous and costs what it
// says.
func TestMatchesDijkstra(t *testing.T) {
	rel := openAndorra(t)
	pairs := 1000
	if testing.Short() {
		pairs = 200
	}
	for name, r := range rel.Routers {
		t.Run(name, func(t *testing.T) {
			g := r.Graph()
			rng := rand.New(rand.NewPCG(1, uint64(len(name))))
			s := search.NewSearcher(g)
			routed, bothBig := 0, 0
			for range pairs {
				a, b := randomSnap(t, rng, rel, g), randomSnap(t, rng, rel, g)
				big := g.Big[a.Seg] == 1 && g.Big[b.Seg] == 1
				if big {
					bothBig++
				}
				src := route.Sources(g, a, nil)
				dst := route.Targets(g, b, nil)
				direct := route.Direct(g, a, b)
				path, ok := s.Shortest(src, dst, direct, nil)
				want := reference(g, src, dst, direct)
				if !ok {
					if want != search.Unreached {
						t.Fatalf("bidirectional found nothing, Dijkstra %d ms", want)
					}
					if big {
						t.Fatalf("no route between two points of the largest component: %+v -> %+v", a, b)
					}
					continue
				}
				routed++
				if path.Cost != want {
					t.Fatalf("cost %d ms, Dijkstra %d ms (%+v -> %+v)", path.Cost, want, a, b)
				}
				checkPath(t, g, src, dst, path)
			}
			t.Logf("%d of %d pairs routed, all equal to Dijkstra; %d pairs had both ends in the largest component", routed, pairs, bothBig)
			if bothBig < pairs*3/4 {
				t.Errorf("only %d of %d random points pairs snapped into the largest component", bothBig, pairs)
			}
		})
	}
}

func reference(g *graph.Graph, src, dst []search.Seed, direct uint32) uint32 {
	tree := search.Dijkstra(g, src)
	best := direct
	for _, d := range dst {
		if c := tree.Cost[d.Node]; c != search.Unreached && c+d.Cost < best {
			best = c + d.Cost
		}
	}
	return best
}

// checkPath verifies that the path starts at its source seed, that each
// edge leaves where the previous one arrived, that it ends at its target
// seed, and that its costs add up.
func checkPath(t *testing.T, g *graph.Graph, src, dst []search.Seed, p search.Path) {
	t.Helper()
	if p.Direct {
		if len(p.SegRefs) != 0 {
			t.Fatalf("direct path with %d edges", len(p.SegRefs))
		}
		return
	}
	at := src[p.Source].Node
	cost := src[p.Source].Cost
	for _, ref := range p.SegRefs {
		s, rev := graph.SplitSegRef(ref)
		from, to, w := g.Net.SegFrom[s], g.Net.SegTo[s], g.WF[s]
		if rev {
			from, to, w = to, from, g.WB[s]
		}
		if from != at || w == graph.NoWay {
			t.Fatalf("path breaks at node %d (edge from %d)", at, from)
		}
		at, cost = to, cost+w
	}
	if at != dst[p.Target].Node {
		t.Fatalf("path ends at %d, target seed is %d", at, dst[p.Target].Node)
	}
	if cost+dst[p.Target].Cost != p.Cost {
		t.Fatalf("edges add up to %d ms, path says %d", cost+dst[p.Target].Cost, p.Cost)
	}
}

// randomSnap snaps a random point of Andorra's road area, retrying points
// that are off-road.
func randomSnap(t *testing.T, rng *rand.Rand, rel *release.Release, g *graph.Graph) snap.Result {
	t.Helper()
	r := rel.Routers[g.Profile]
	for range 1000 {
		lon := 1.41 + rng.Float64()*(1.79-1.41)
		lat := 42.43 + rng.Float64()*(42.66-42.43)
		res, err := r.Snap([]route.Point{{lon, lat}})
		if err == nil {
			return res[0]
		}
	}
	t.Fatal("no snappable point in 1000 tries")
	return snap.Result{}
}
