package route_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/matrix"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/serving"
	"github.com/mapsco/maps/pkg/snap"
)

// TestViaWayCrossover drives the synthetic dual carriageway whose U-turn
// through the crossover a no_u_turn relation with a via way forbids: the
// car goes round by the far end instead, while still using the crossover
// to reach the side road or the crossover itself, and the pedestrian, whom
// the restriction does not bind, still walks across. The same fixture
// without the relation is the "before".
func TestViaWayCrossover(t *testing.T) {
	fx := compiletest.Crossover{}
	rel, free := fx.Open(t), compiletest.Crossover{Unrestricted: true}.Open(t)
	if n := rel.Manifest.Stats["restrictions_via_way"]; n != 1 {
		t.Fatalf("mapc applied %d via-way restrictions, want 1", n)
	}
	if rel.Manifest.Stats["duplicate_arcs.car"] == 0 || free.Manifest.Stats["duplicate_arcs.car"] != 0 {
		t.Fatalf("duplicate arcs: %d restricted, %d free", rel.Manifest.Stats["duplicate_arcs.car"], free.Manifest.Stats["duplicate_arcs.car"])
	}
	a, b := fx.North(14.5), fx.South(14.5)
	cross := route.Point{fx.North(compiletest.CrossoverMid)[0], (fx.North(0)[1] + fx.South(0)[1]) / 2}
	side := route.Point{fx.South(compiletest.CrossoverMid)[0], fx.South(0)[1] - 0.00045}
	crossSeg := segmentBetween(t, rel.Network, fx.North(compiletest.CrossoverMid), fx.South(compiletest.CrossoverMid))

	before := driveVia(t, free, "car", a, b, crossSeg)
	after := driveVia(t, rel, "car", a, b, crossSeg)
	t.Logf("car U-turn: before %.0f m in %.1f s (crossover %v), after %.0f m in %.1f s (crossover %v)",
		before.DistanceM, before.DurationS, before.viaCross, after.DistanceM, after.DurationS, after.viaCross)
	if !before.viaCross || after.viaCross || after.DistanceM < before.DistanceM+2000 {
		t.Errorf("car U-turn through the crossover not forbidden: before %+v, after %+v", before, after)
	}
	for _, to := range []route.Point{side, cross} {
		was, is := driveVia(t, free, "car", a, to, crossSeg), driveVia(t, rel, "car", a, to, crossSeg)
		t.Logf("car to %v: %.0f m in %.1f s, crossover %v (before %.0f m in %.1f s)", to, is.DistanceM, is.DurationS, is.viaCross, was.DistanceM, was.DurationS)
		if got, want := narrate(rel, is.Route), narrate(free, was.Route); !slices.Equal(got, want) {
			t.Errorf("car to %v: steps %q, want %q as before", to, got, want)
		}
		if !is.viaCross || math.Abs(is.DurationS-was.DurationS) > 0.001 {
			t.Errorf("car to %v: %.1f s crossover %v arcs %v, want the crossover as before (%.1f s, %v, arcs %v)", to, is.DurationS, is.viaCross, is.Legs[0].Arcs, was.DurationS, was.viaCross, was.Legs[0].Arcs)
		}
	}
	walk := driveVia(t, rel, "pedestrian", a, b, crossSeg)
	t.Logf("pedestrian U-turn: %.0f m in %.1f s, crossover %v", walk.DistanceM, walk.DurationS, walk.viaCross)
	if !walk.viaCross || walk.DistanceM > 1000 {
		t.Errorf("pedestrian does not cross: %+v", walk)
	}
	checkMatrix(t, rel.Routers["car"], a, []route.Point{b, side, cross})
	for name, r := range rel.Routers {
		t.Run(name, func(t *testing.T) { checkExact(t, r, 300, 10) })
	}
}

// TestViaWayLiechtenstein drives real via-way restriction 10837377 of
// Liechtenstein: no_u_turn from Landstrasse (way 902086908, south-west
// bound) through the short Ramschwagweg crossover (way 781496949) onto the
// other carriageway (way 119017327, north-east bound) at Vaduz/Triesen.
// The car route that took the U-turn before (measured on the same graph with
// duplicates folded back into their originals, which is the graph without
// the restriction) goes another way now, while the way on from the crossover
// into the rest of Ramschwagweg (way 677315958) is as before. It then
// checks the hierarchy against Dijkstra on this graph with duplicates.
func TestViaWayLiechtenstein(t *testing.T) {
	t.Parallel() // changes no shared release (operations tests do, sequentially, before parallel tests start)
	rel := compiletest.Extract(t, "liechtenstein.osm.pbf")
	t.Logf("mapc: %d restrictions applied, %d with via ways, %d unsupported, %d unresolved; %d duplicate car arcs of %d",
		rel.Manifest.Stats["restrictions_applied"], rel.Manifest.Stats["restrictions_via_way"],
		rel.Manifest.Stats["restrictions_unsupported"], rel.Manifest.Stats["restrictions_unresolved"],
		rel.Manifest.Stats["duplicate_arcs.car"], rel.Manifest.Stats["arcs.car"])
	if rel.Manifest.Stats["restrictions_via_way"] < 6 {
		t.Errorf("%d via-way restrictions applied, want the 6 of 7 whose via ways a vehicle may use", rel.Manifest.Stats["restrictions_via_way"])
	}
	pt := func(lon, lat float64) route.Point { return route.Point{lon, lat} }
	n8379224530, n6342043061 := pt(9.5098286, 47.0732791), pt(9.5097342, 47.073222)
	n50029740, n1316285405, n6340972853 := pt(9.5097935, 47.0731755), pt(9.5098524, 47.0732237), pt(9.5099194, 47.0731255)
	net := rel.Network
	from := segmentBetween(t, net, n8379224530, n6342043061)
	via := segmentBetween(t, net, n6342043061, n50029740)
	to := segmentBetween(t, net, n50029740, n1316285405)
	other := segmentBetween(t, net, n6340972853, n50029740)
	r := rel.Routers["car"]
	g := r.Graph()
	begin, end := g.Duplicates(g.ArcOf[graph.SegRef(via, !at(net, net.SegFrom[via], n6342043061))])
	if begin == end {
		t.Fatal("the crossover's arc towards the other carriageway has no duplicate")
	}
	for _, c := range []struct {
		name   string
		target uint32
		banned bool
	}{{"U-turn onto Landstrasse", to, true}, {"on along Ramschwagweg", other, false}} {
		a, b := segMidpoint(net, from), segMidpoint(net, c.target)
		q := r.Query()
		leg, ok := r.Leg(q, a, b)
		r.PutQuery(q)
		if !ok {
			t.Fatalf("%s: no car route", c.name)
		}
		old, oldPath := foldedCost(g, route.MakeEnds(g, nil, a, b))
		oldVia := slices.ContainsFunc(oldPath, func(x uint32) bool { return segOf(g, x) == via })
		newVia := slices.ContainsFunc(leg.Arcs, func(x uint32) bool { return segOf(g, x) == via })
		t.Logf("%s: before %.1f s over %d arcs (crossover %v), now %.0f m in %.1f s over %d arcs (crossover %v)",
			c.name, float64(old)/1000, len(oldPath), oldVia, leg.DistanceM, leg.DurationS, len(leg.Arcs), newVia)
		if !oldVia {
			t.Errorf("%s: the route did not use the crossover before", c.name)
		}
		if c.banned && (newVia || leg.DurationS*1000 <= float64(old)+1) {
			t.Errorf("%s: the car still makes the forbidden U-turn", c.name)
		}
		if !c.banned && (!newVia || math.Abs(leg.DurationS*1000-float64(old)) > 1) {
			t.Errorf("%s: the allowed way on changed: %.1f s, before %.1f s", c.name, leg.DurationS, float64(old)/1000)
		}
	}
	sources := 200
	if testing.Short() {
		sources = 50
	}
	for name, r := range rel.Routers {
		t.Run(name, func(t *testing.T) { checkExact(t, r, sources, 10) })
	}
}

// crossing is a route and whether it uses the crossover segment.
type crossing struct {
	*route.Route
	viaCross bool
}

func driveVia(t *testing.T, rel *serving.Release, profile string, a, b route.Point, cross uint32) crossing {
	t.Helper()
	r := rel.Routers[profile]
	res, err := r.Route(context.Background(), []route.Point{a, b}, nil)
	if err != nil {
		t.Fatalf("%s route %v -> %v: %v", profile, a, b, err)
	}
	uses := slices.ContainsFunc(res.Legs[0].Arcs, func(x uint32) bool { return segOf(r.Graph(), x) == cross })
	return crossing{res, uses}
}

// narrate returns a car route's instructions.
func narrate(rel *serving.Release, rt *route.Route) []string {
	r := rel.Routers["car"]
	a, b := rt.Snapped[0], rt.Snapped[1]
	var out []string
	for _, s := range guidance.Steps(r.Graph(), guidance.Leg{Pieces: r.Pieces(rt.Legs[0], a, b), Snapped: [2]float64{b.Lon, b.Lat}}) {
		out = append(out, s.Instruction)
	}
	return out
}

// checkMatrix checks that a matrix row equals the routes it stands for,
// including targets reached through duplicates only.
func checkMatrix(t *testing.T, r *route.Router, a route.Point, targets []route.Point) {
	t.Helper()
	q := r.Query()
	defer r.PutQuery(q)
	tab := matrix.Compute(r, q, []route.Point{a}, targets)
	for j, b := range targets {
		res, err := r.Route(context.Background(), []route.Point{a, b}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(tab.Durations[0][j]-res.DurationS) > 0.001 || math.Abs(tab.Distances[0][j]-res.DistanceM) > 1 {
			t.Errorf("matrix cell %d: %.3f s %.2f m, route %.3f s %.2f m", j, tab.Durations[0][j], tab.Distances[0][j], res.DurationS, res.DistanceM)
		}
	}
}

// checkExact is TestMatchesDijkstra on any release: random points, a third
// of them on segments with duplicate arcs, the hierarchy's cost equal to
// Dijkstra's and its path allowed turn by turn.
func checkExact(t *testing.T, r *route.Router, sources, perSource int) {
	g := r.Graph()
	rng := rand.New(rand.NewPCG(3, uint64(len(g.Profile))))
	var dupSegs []uint32
	for d := g.Fwd.First[len(g.Fwd.First)-1]; d < g.NumArcs(); d++ {
		dupSegs = append(dupSegs, segOf(g, d))
	}
	pick := func() snap.Result {
		for {
			s := uint32(rng.IntN(g.Net.NumSegments()))
			if len(dupSegs) > 0 && rng.IntN(3) == 0 {
				s = dupSegs[rng.IntN(len(dupSegs))]
			}
			if g.Usable(s) {
				return snap.Result{Seg: s, Frac: rng.Float64()}
			}
		}
	}
	q := ch.NewQuery(r.Hierarchy())
	routed := 0
	for range sources {
		a := pick()
		tree := search.Dijkstra(g, route.Sources(g, nil, a))
		for range perSource {
			b := pick()
			if pairMatches(t, q, g, tree, a, b) != search.Unreached {
				routed++
			}
		}
	}
	t.Logf("%d of %d pairs routed, all equal to Dijkstra (%d duplicate arcs)", routed, sources*perSource, g.NumDuplicates())
}

// foldedCost is the cost of the fastest path from e's sources to its
// original targets on g with every duplicate folded into its original:
// the graph as it was before via-way restrictions were modelled. It
// returns the path's arcs too.
func foldedCost(g *graph.Graph, e route.Ends) (uint32, []uint32) {
	n := g.Fwd.First[len(g.Fwd.First)-1]
	cost, parent := make([]uint32, n), make([]uint32, n)
	for i := range cost {
		cost[i], parent[i] = search.Unreached, graph.NoArc
	}
	var h search.Heap
	for _, s := range e.Sources {
		if o := g.Original(s.Node); s.Cost < cost[o] {
			cost[o] = s.Cost
			h.Push(s.Cost, o)
		}
	}
	for h.Len() > 0 {
		c, u := h.Pop()
		if c != cost[u] {
			continue
		}
		begin, end := g.Duplicates(u)
		for _, x := range append([]uint32{u}, span(begin, end)...) {
			tb, te := g.Turns.Out(x)
			for i := tb; i < te; i++ {
				y, w, _ := g.Turn(i)
				if y = g.Original(y); search.Add(c, w) < cost[y] {
					cost[y], parent[y] = search.Add(c, w), u
					h.Push(cost[y], y)
				}
			}
		}
	}
	best, which := search.Finish(func(a uint32) uint32 {
		if a >= n {
			return search.Unreached
		}
		return cost[a]
	}, e.Targets)
	var path []uint32
	if which >= 0 {
		for a := e.Targets[which].Node; a != graph.NoArc; a = parent[a] {
			path = append(path, a)
		}
	}
	return min(best, e.Direct), path
}

func span(begin, end uint32) []uint32 {
	var out []uint32
	for i := begin; i < end; i++ {
		out = append(out, i)
	}
	return out
}

func segOf(g *graph.Graph, a uint32) uint32 {
	s, _ := g.ArcSegment(a)
	return s
}

func at(net *graph.Network, v uint32, p route.Point) bool {
	return net.NodeCoord[2*v] == geo.Fixed(p[0]) && net.NodeCoord[2*v+1] == geo.Fixed(p[1])
}

// segmentBetween finds the segment whose shape has points p and q.
func segmentBetween(t *testing.T, net *graph.Network, p, q route.Point) uint32 {
	t.Helper()
	has := func(s uint32, x route.Point) bool {
		begin, end := net.Points(s)
		for i := begin; i < end; i++ {
			if net.GeomCoord[2*i] == geo.Fixed(x[0]) && net.GeomCoord[2*i+1] == geo.Fixed(x[1]) {
				return true
			}
		}
		return false
	}
	for s := range uint32(net.NumSegments()) {
		if has(s, p) && has(s, q) {
			return s
		}
	}
	t.Fatalf("no segment between %v and %v", p, q)
	return 0
}

// segMidpoint is the point halfway along segment s's shape, by fraction.
func segMidpoint(net *graph.Network, s uint32) snap.Result {
	lon0, lat0 := net.Node(net.SegFrom[s])
	lon1, lat1 := net.Node(net.SegTo[s])
	return snap.Result{Seg: s, Frac: 0.5, Lon: (lon0 + lon1) / 2, Lat: (lat0 + lat1) / 2}
}

// TestTimedViaWaysMatchDijkstra is TestTimedMatchesDijkstra on a town with
// random via-way restrictions, half of them conditional, on top of random
// conditional streets and turns: at random departure times the hierarchy
// costs exactly what the time-aware Dijkstra finds, with the duplicate arcs
// priced and restricted as the state says.
func TestTimedViaWaysMatchDijkstra(t *testing.T) {
	t.Parallel() // changes no shared release (operations tests do, sequentially, before parallel tests start)
	rel := compiletest.TimedTown{W: 16, H: 16, Random: 4, Seed: 3, ViaWays: 40}.Open(t)
	t.Logf("mapc: %d via-way restrictions applied, %d unresolved; %d duplicate car arcs",
		rel.Manifest.Stats["restrictions_via_way"], rel.Manifest.Stats["restrictions_unresolved"], rel.Manifest.Stats["duplicate_arcs.car"])
	if rel.Manifest.Stats["restrictions_via_way"] < 30 {
		t.Errorf("only %d of 40 via-way restrictions applied", rel.Manifest.Stats["restrictions_via_way"])
	}
	pairs := 1500
	if testing.Short() {
		pairs = 300
	}
	week := andorraTime(t, 23, 0)
	for name, r := range rel.Routers {
		t.Run(name, func(t *testing.T) {
			g := r.Graph()
			rng := rand.New(rand.NewPCG(13, uint64(len(name))))
			var dupSegs []uint32
			for d := g.Fwd.First[len(g.Fwd.First)-1]; d < g.NumArcs(); d++ {
				dupSegs = append(dupSegs, segOf(g, d))
			}
			pick := func() snap.Result {
				p := randomOnGraph(rng, g)
				if len(dupSegs) > 0 && rng.IntN(2) == 0 {
					p.Seg = dupSegs[rng.IntN(len(dupSegs))]
				}
				return p
			}
			q := ch.NewQuery(r.Hierarchy())
			routed := 0
			for range pairs {
				at := week.Add(time.Duration(rng.IntN(7*24*60)) * time.Minute)
				if timedPairMatches(t, r, q, at, pick(), pick()) != search.Unreached {
					routed++
				}
			}
			t.Logf("%d pairs at random times (half the points on duplicated segments), %d routed, all equal to the time-aware Dijkstra; %d duplicate arcs",
				pairs, routed, g.NumDuplicates())
		})
	}
}
