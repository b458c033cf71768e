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
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// randomOperations draws n closures and slowdowns for r: half on arcs of
// the fastest routes between random pairs (the trunks long routes share,
// where an operation changes many answers and taints long shortcuts), half
// on arcs drawn uniformly (side streets). A slowdown adds 10 % to 300 % of
// the arc's time; one operation in four is a closure, of the arc's
// direction only or of both.
func randomOperations(rng *rand.Rand, r *route.Router, n int, draw func() snap.Result) []route.Operation {
	g := r.Graph()
	var onRoutes []uint32
	q := ch.NewQuery(r.Hierarchy())
	for tries := 0; len(onRoutes) < 20*n && tries < 50*n; tries++ {
		if leg, ok := r.Leg(q, draw(), draw()); ok {
			onRoutes = append(onRoutes, leg.Arcs...)
		}
	}
	arcs := int(g.Fwd.First[len(g.Fwd.First)-1]) // original arcs: the last node's range ends there
	ops := make([]route.Operation, n)
	for i := range ops {
		arc := uint32(rng.IntN(arcs))
		if i%2 == 0 && len(onRoutes) > 0 {
			arc = onRoutes[rng.IntN(len(onRoutes))]
		}
		extra := uint32(graph.NoWay)
		if rng.IntN(4) != 0 {
			extra = uint32(float64(g.ArcTime(arc)) * (0.1 + 2.9*rng.Float64()))
		}
		ops[i] = route.Operation{ID: "op" + string(rune('a'+i%26)), Changes: []route.ArcChange{{Arc: arc, Extra: extra}}}
		if extra == graph.NoWay && rng.IntN(2) == 0 {
			if back := g.ArcOf[g.ArcSegRef(arc)^1]; back != graph.NoArc {
				ops[i].Changes = append(ops[i].Changes, route.ArcChange{Arc: back, Extra: extra})
			}
		}
	}
	return ops
}

// TestOperationsMatchDijkstra is the exactness property of road
// operations: with random closures and slowdowns in force, on trunks and
// side streets, every profile's legs between random points cost exactly
// what a plain Dijkstra finds on the graph with the operations applied,
// their paths are paths of that graph costing what they say, and some
// answers did change (or the test proves nothing).
func TestOperationsMatchDijkstra(t *testing.T) {
	rel := openAndorra(t)
	pairs, sets := 600, 4
	if testing.Short() {
		pairs, sets = 120, 2
	}
	for name, r := range rel.Routers {
		t.Run(name, func(t *testing.T) {
			g := r.Graph()
			rng := rand.New(rand.NewPCG(42, uint64(len(name))))
			draw := func() snap.Result { return randomSnap(t, rng, rel, g) }
			q, qc := ch.NewQuery(r.Hierarchy()), ch.NewQuery(r.Hierarchy())
			changed, repaired := 0, 0
			for set := range sets {
				r.SetOperations(randomOperations(rng, r, 5+20*set, draw))
				st := r.StateAt(time.Time{})
				awaitCustomized(t, r, qc, st)
				for range pairs / sets {
					a, b := draw(), draw()
					want := dijkstraLeg(g, st, a, b)
					q.SetStateCompiled(st) // the compiled hierarchy, legs repaired
					leg, ok := r.Leg(q, a, b)
					custom, _ := r.Leg(qc, a, b) // the customized one
					for _, l := range []route.Leg{leg, custom} {
						got := uint32(search.Unreached)
						if ok {
							got = uint32(l.DurationS*1000 + 0.5)
							checkLegUnder(t, g, st, a, b, l)
						}
						if got != want {
							t.Fatalf("set %d: leg %d ms (customized: %v), Dijkstra with the operations %d ms (%+v -> %+v)", set, got, l.Arcs != nil && qc.Customized() && l.Arcs[0] == custom.Arcs[0], want, a, b)
						}
					}
					if leg.Operated != custom.Operated {
						t.Fatalf("set %d: Operated %v repaired, %v customized (%+v -> %+v)", set, leg.Operated, custom.Operated, a, b)
					}
					if leg.Operated {
						repaired++
					}
					q.SetState(nil)
					if chCost(q, route.MakeEnds(g, nil, a, b)) != want {
						changed++
					}
				}
			}
			r.SetOperations(nil)
			t.Logf("%d pairs under random operations equal Dijkstra; %d changed by them, %d legs repaired", pairs, changed, repaired)
			if changed == 0 || repaired == 0 {
				t.Errorf("no answer was changed by the operations (%d) or repaired (%d): the test proves nothing", changed, repaired)
			}
		})
	}
}

// awaitCustomized waits for r's hierarchy to be customized under the
// operations in force and sets qc's state st on it, failing unless qc then
// searches the customized hierarchy.
func awaitCustomized(t *testing.T, r *route.Router, qc *ch.Query, st *graph.State) {
	t.Helper()
	if err := r.AwaitCustomized(context.Background()); err != nil {
		t.Fatal(err)
	}
	qc.SetState(st)
	if !qc.Customized() {
		t.Fatal("the query does not search the hierarchy customized under the operations in force")
	}
}

// dijkstraLeg is the fastest time from a to b by plain Dijkstra under st:
// the reference.
func dijkstraLeg(g *graph.Graph, st *graph.State, a, b snap.Result) uint32 {
	e := route.MakeEnds(g, st, a, b)
	tree := search.DijkstraAt(g, st, e.Sources)
	want, _ := search.Finish(func(arc uint32) uint32 { return tree[arc] }, e.Targets)
	return min(want, e.Direct)
}

// checkLegUnder verifies that a leg's arcs are a path of g under st (every
// turn allowed then, no arc closed) from a to b and that its time is
// theirs: from a to its first arc's end, each turn after, less the part
// of the last arc beyond b.
func checkLegUnder(t *testing.T, g *graph.Graph, st *graph.State, a, b snap.Result, leg route.Leg) {
	t.Helper()
	if leg.Direct {
		return
	}
	first, last := leg.Arcs[0], leg.Arcs[len(leg.Arcs)-1]
	cost, ok := seedCost(route.Sources(g, st, a), first)
	if !ok {
		t.Fatalf("leg starts on arc %d, which point %+v is not on (or it is closed)", first, a)
	}
	for i := 1; i < len(leg.Arcs); i++ {
		w, ok := turnUnder(g, st, leg.Arcs[i-1], leg.Arcs[i])
		if !ok {
			t.Fatalf("leg turns from arc %d to %d, not allowed under the operations", leg.Arcs[i-1], leg.Arcs[i])
		}
		cost += uint64(w)
	}
	rest, ok := seedCost(route.Targets(g, st, b), last)
	if !ok {
		t.Fatalf("leg ends on arc %d, which point %+v is not on (or it is closed)", last, b)
	}
	// A destination penalty (graph.DestinationPenalty) is no time.
	if got := uint64(leg.DurationS*1000 + 0.5); cost-rest > math.MaxUint32 || got != uint64(graph.Unpenalised(uint32(cost-rest))) {
		t.Fatalf("leg says %d ms, its arcs under the operations add up to %d", got, cost-rest)
	}
}

func seedCost(seeds []search.Seed, arc uint32) (uint64, bool) {
	for _, s := range seeds {
		if s.Node == arc {
			return uint64(s.Cost), true
		}
	}
	return 0, false
}

func turnUnder(g *graph.Graph, st *graph.State, a, b uint32) (uint32, bool) {
	begin, end := g.Turns.Out(a)
	for i := begin; i < end; i++ {
		if to, w, _ := g.Turn(i); to == b {
			w = st.Edge(a, b, w, true)
			return w, w != graph.NoWay
		}
	}
	return 0, false
}

// TestOperationsUnderConditions: operations on the timed town, whose
// conditional arcs stay uncontracted in a core, at random departure times:
// legs equal the time-aware Dijkstra with the operations applied.
func TestOperationsUnderConditions(t *testing.T) {
	rel := compiletest.TimedTown{W: 24, H: 24, Random: 4, Seed: 3}.Open(t)
	pairs := 800
	if testing.Short() {
		pairs = 150
	}
	week := andorraTime(t, 23, 0)
	for name, r := range rel.Routers {
		t.Run(name, func(t *testing.T) {
			g := r.Graph()
			rng := rand.New(rand.NewPCG(13, uint64(len(name))))
			draw := func() snap.Result { return randomOnGraph(rng, g) }
			r.SetOperations(randomOperations(rng, r, 25, draw))
			defer r.SetOperations(nil)
			q, qc := ch.NewQuery(r.Hierarchy()), ch.NewQuery(r.Hierarchy())
			awaitCustomized(t, r, qc, r.StateAt(week))
			repaired := 0
			for range pairs {
				at := week.Add(time.Duration(rng.IntN(7*24*60)) * time.Minute)
				st := r.StateAt(at)
				a, b := draw(), draw()
				q.SetStateCompiled(st)
				qc.SetState(st)
				if !qc.Customized() {
					t.Fatalf("at %s: the query under the operations is not customized", at.Format(time.RFC3339))
				}
				want := dijkstraLeg(g, st, a, b)
				leg, ok := r.Leg(q, a, b)
				custom, cok := r.Leg(qc, a, b)
				for i, l := range []route.Leg{leg, custom} {
					got := uint32(search.Unreached)
					if ok && i == 0 || cok && i == 1 {
						got = uint32(l.DurationS*1000 + 0.5)
					}
					if got != want {
						t.Fatalf("at %s: leg %d ms (customized %v), Dijkstra %d ms (%+v -> %+v)", at.Format(time.RFC3339), got, i == 1, want, a, b)
					}
				}
				if leg.Operated != custom.Operated {
					t.Fatalf("at %s: Operated %v repaired, %v customized", at.Format(time.RFC3339), leg.Operated, custom.Operated)
				}
				if leg.Operated {
					repaired++
				}
			}
			t.Logf("%d pairs at random times under 25 operations equal Dijkstra; %d repaired", pairs, repaired)
			if repaired == 0 {
				t.Error("no leg was repaired: the test proves nothing")
			}
		})
	}
}

// TestOperationsWindow: an operation applies only inside its window, and
// the route says so (OperationsApplied).
func TestOperationsWindow(t *testing.T) {
	rel := openAndorra(t)
	r := rel.Routers["car"]
	ctx := context.Background()
	pts := []route.Point{andorraLaVella, pasDeLaCasa}
	before, err := r.Route(ctx, pts, r.StateAt(time.Time{}))
	if err != nil {
		t.Fatal(err)
	}
	// Close every arc of the route's middle third, for one hour from now.
	var changes []route.ArcChange
	arcs := before.Legs[0].Arcs
	for _, a := range arcs[len(arcs)/3 : 2*len(arcs)/3] {
		changes = append(changes, route.ArcChange{Arc: a, Extra: graph.NoWay})
	}
	now := time.Now()
	r.SetOperations([]route.Operation{{ID: "closure", Changes: changes, From: now.Add(-time.Minute), Until: now.Add(time.Hour)}})
	defer r.SetOperations(nil)
	during, err := r.Route(ctx, pts, r.StateAt(now))
	if err != nil {
		t.Fatal(err)
	}
	after, err := r.Route(ctx, pts, r.StateAt(now.Add(2*time.Hour)))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("before %.0f s, during the closure %.0f s, after it %.0f s", before.DurationS, during.DurationS, after.DurationS)
	if before.OperationsApplied() || after.OperationsApplied() || !during.OperationsApplied() {
		t.Errorf("operations_applied before %v, during %v, after %v; want false, true, false",
			before.OperationsApplied(), during.OperationsApplied(), after.OperationsApplied())
	}
	if during.DurationS <= before.DurationS || after.DurationS != before.DurationS {
		t.Errorf("durations before %.1f, during %.1f, after %.1f: the closure did not apply in its window only",
			before.DurationS, during.DurationS, after.DurationS)
	}
	for _, a := range during.Legs[0].Arcs {
		for _, c := range changes {
			if a == c.Arc {
				t.Fatalf("the route during the closure uses closed arc %d", a)
			}
		}
	}
}

// optionLeg routes a to b with q under st, a request's options (exclusions,
// vehicle, areas), and fails t unless the leg is a path under st that costs
// what a plain Dijkstra under st finds (a destination penalty is no time)
// and uses no arc of closed (ascending; nil checks none). It reports
// whether the hierarchy's answer without the options differs: the options
// changed it. what names the case in failures.
func optionLeg(t *testing.T, r *route.Router, q *ch.Query, st *graph.State, closed []uint32, a, b snap.Result, what string) (leg route.Leg, changed bool) {
	t.Helper()
	g := r.Graph()
	q.SetState(st)
	leg, ok := r.Leg(q, a, b)
	want := dijkstraLeg(g, st, a, b)
	if want != search.Unreached {
		want = graph.Unpenalised(want)
	}
	got := uint32(search.Unreached)
	if ok {
		got = uint32(leg.DurationS*1000 + 0.5)
		checkLegUnder(t, g, st, a, b, leg)
		for _, arc := range leg.Arcs {
			if _, hit := slices.BinarySearch(closed, arc); hit {
				t.Fatalf("%s: the leg uses arc %d, which the options close", what, arc)
			}
		}
	}
	if got != want {
		t.Fatalf("%s: leg %d ms, Dijkstra under the options %d ms (%+v -> %+v)", what, got, want, a, b)
	}
	q.SetState(nil)
	without := chCost(q, route.MakeEnds(g, nil, a, b))
	if without != search.Unreached {
		without = graph.Unpenalised(without)
	}
	return leg, without != want
}

// TestOperationsMoveWaypoint: a waypoint on a road a closure closes is
// placed on the nearest open road instead, and the route says
// operations_applied even when its own path, from there, crosses nothing
// the operations change (an HTTP run found such a route saying false).
func TestOperationsMoveWaypoint(t *testing.T) {
	rel := openAndorra(t)
	r := rel.Routers["car"]
	g := r.Graph()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(4, 2))
	moved, off := 0, 0
	for range 40 {
		pts := []route.Point{randomRoadPoint(rng, r), pasDeLaCasa}
		placed, err := r.Snap(pts)
		if err != nil {
			continue
		}
		var changes []route.ArcChange // both ways of the road the first waypoint is placed on
		for _, rev := range []bool{false, true} {
			if a := g.ArcOf[graph.SegRef(placed[0].Seg, rev)]; a != graph.NoArc {
				changes = append(changes, route.ArcChange{Arc: a, Extra: graph.NoWay})
			}
		}
		r.SetOperations([]route.Operation{{ID: "closure", Changes: changes}})
		d, err := r.Directions(ctx, route.Request{Points: pts})
		if err != nil || d.Routes[0].Snapped[0].Seg == placed[0].Seg {
			continue
		}
		moved++
		rt := d.Routes[0]
		if !rt.OperationsApplied() {
			t.Fatalf("a waypoint moved off a closed road (segment %d to %d), operations_applied false", placed[0].Seg, rt.Snapped[0].Seg)
		}
		st := r.StateAt(time.Time{})
		if !st.Overlay().TouchesOperations(rt.Legs[0].Arcs) {
			off++ // the case the rule needs the move for
		}
	}
	r.SetOperations(nil)
	t.Logf("%d waypoints moved by a closure of their road, %d of whose routes cross no closed arc: all say operations_applied", moved, off)
	if off == 0 {
		t.Error("no route from a moved waypoint avoided the closed road: the test proves nothing")
	}
}

// TestAwaitNewerCustomization: operations changed while a customization
// runs cancel it and start another; a caller awaiting the first waits for
// the newer one (it once deadlocked there: mapd never logged the
// customization), which is then the one queries use.
func TestAwaitNewerCustomization(t *testing.T) {
	rel := openAndorra(t)
	r := rel.Routers["car"]
	rng := rand.New(rand.NewPCG(6, 7))
	draw := func() snap.Result { return randomSnap(t, rng, rel, r.Graph()) }
	r.SetOperations(randomOperations(rng, r, 20, draw))
	awaited := make(chan error, 1)
	go func() { awaited <- r.AwaitCustomized(context.Background()) }()
	time.Sleep(20 * time.Millisecond) // the wait begins on the first customization (a race, so the test is not exact, not flaky)
	for range 5 {                     // newer sets, each cancelling the customization under way
		r.SetOperations(randomOperations(rng, r, 20, draw))
	}
	select {
	case err := <-awaited:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("AwaitCustomized did not return within 2 minutes of the last change")
	}
	defer r.SetOperations(nil)
	q := ch.NewQuery(r.Hierarchy())
	if q.SetState(r.StateAt(time.Time{})); !q.Customized() {
		t.Error("after the wait, the operations in force are not customized")
	}
}

// TestAlternativesUnderOperations: with random closures and slowdowns in
// force and the hierarchy customized under them, the best route and every
// alternative between random points is a path open under the operations
// whose time is what its arcs cost under them, no alternative is faster
// than the best route, and some requests get alternatives (or the test
// proves nothing).
func TestAlternativesUnderOperations(t *testing.T) {
	rel := openAndorra(t)
	r := rel.Routers["car"]
	g := r.Graph()
	rng := rand.New(rand.NewPCG(37, 42))
	draw := func() snap.Result { return randomSnap(t, rng, rel, g) }
	r.SetOperations(randomOperations(rng, r, 40, draw))
	defer r.SetOperations(nil)
	st := r.StateAt(time.Time{})
	awaitCustomized(t, r, ch.NewQuery(r.Hierarchy()), st)
	n, withAlts := 150, 0
	if testing.Short() {
		n = 40
	}
	for range n {
		pts := []route.Point{randomRoadPoint(rng, r), randomRoadPoint(rng, r)}
		d, err := r.Directions(context.Background(), route.Request{Points: pts, Alternatives: 2})
		if err != nil {
			continue
		}
		best := d.Routes[0]
		for i, rt := range d.Routes {
			if rt.DurationS < best.DurationS {
				t.Fatalf("alternative %d takes %.1f s, the best route %.1f s", i, rt.DurationS, best.DurationS)
			}
			checkLegUnder(t, g, st, rt.Snapped[0], rt.Snapped[1], rt.Legs[0])
		}
		if len(d.Routes) > 1 {
			withAlts++
		}
	}
	t.Logf("%d requests under 40 operations on the customized hierarchy, %d with alternatives: every route a path costing what it says", n, withAlts)
	if withAlts == 0 {
		t.Error("no request got an alternative: the test proves nothing")
	}
}
