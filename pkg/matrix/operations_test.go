package matrix_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/matrix"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/search"
)

// TestTableUnderOperations: with closures and slowdowns in force on the
// roads random trips take, every cell of random tables equals the
// directions answer under the same operations (which the route package
// proves equal to Dijkstra), the cells they change are found, and the
// table says operations_applied; a cell is checked against plain Dijkstra
// too.
func TestTableUnderOperations(t *testing.T) {
	rel := openAndorra(t)
	n := 30
	if testing.Short() {
		n = 12
	}
	for _, profile := range []string{"car", "pedestrian", "truck"} {
		r := rel.Routers[profile]
		rng := rand.New(rand.NewPCG(5, uint64(len(profile))))
		src, dst := randomPoints(rng, r, n), randomPoints(rng, r, n)
		r.SetOperations(operationsOnRoutes(t, rng, r, src, dst))
		st := r.StateAt(time.Time{})
		q := ch.NewQuery(r.Hierarchy())
		q.SetStateCompiled(st)
		tab := matrix.Compute(r, q, src, dst) // the compiled hierarchy, cells repaired
		if err := r.AwaitCustomized(context.Background()); err != nil {
			t.Fatal(err)
		}
		if q.SetState(st); !q.Customized() {
			t.Fatalf("%s: the query does not search the hierarchy customized under the operations", profile)
		}
		custom := matrix.Compute(r, q, src, dst)
		if !reflect.DeepEqual(custom.Durations, tab.Durations) || custom.OperationsApplied != tab.OperationsApplied {
			t.Fatalf("%s: the table on the customized hierarchy differs from the one repaired:\n%v %v\n%v %v", profile, custom.Durations, custom.OperationsApplied, tab.Durations, tab.OperationsApplied)
		}
		for i := range custom.Distances { // repaired cells' lengths are the legs' sums of metres, the hierarchy's of centimetres
			for j, d := range custom.Distances[i] {
				if want := tab.Distances[i][j]; math.Abs(d-want) > 1+0.002*want {
					t.Fatalf("%s [%d][%d]: %.2f m customized, %.2f m repaired", profile, i, j, d, want)
				}
			}
		}
		before := matrix.Compute(r, withState(r, nil), src, dst)
		changed := 0
		for i := range src {
			for j := range dst {
				rt, err := r.Route(context.Background(), []route.Point{src[i], dst[j]}, st)
				got := tab.Durations[i][j]
				if err != nil {
					if !math.IsNaN(got) {
						t.Fatalf("%s [%d][%d]: table %.3f s, directions: %v", profile, i, j, got, err)
					}
					continue
				}
				if math.IsNaN(got) || math.Abs(got-rt.DurationS) > 0.0005 {
					t.Fatalf("%s [%d][%d]: table %.3f s, directions under the operations %.3f s", profile, i, j, got, rt.DurationS)
				}
				if d := tab.Distances[i][j]; math.Abs(d-rt.DistanceM) > 1+0.002*rt.DistanceM {
					t.Fatalf("%s [%d][%d]: table %.1f m, directions %.1f m", profile, i, j, d, rt.DistanceM)
				}
				if got != before.Durations[i][j] {
					changed++
				}
			}
		}
		// One cell against Dijkstra under the operations.
		a, b := tab.Sources[0], tab.Targets[1]
		if a.Err == nil && b.Err == nil {
			e := route.MakeEnds(r.Graph(), st, a.Result, b.Result)
			tree := search.DijkstraAt(r.Graph(), st, e.Sources)
			want, _ := search.Finish(func(arc uint32) uint32 { return tree[arc] }, e.Targets)
			want = min(want, e.Direct)
			if got := tab.Durations[0][1]; want != search.Unreached && math.Abs(got-float64(want)/1000) > 0.0005 {
				t.Errorf("%s [0][1]: table %.3f s, Dijkstra %.3f s", profile, got, float64(want)/1000)
			}
		}
		t.Logf("%s: %d×%d under %d operations, every cell equal to directions; %d cells changed by them", profile, n, n, len(r.Operations()), changed)
		r.SetOperations(nil)
		if changed == 0 || !tab.OperationsApplied || before.OperationsApplied {
			t.Errorf("%s: %d cells changed, operations_applied %v (without them %v): the test proves nothing", profile, changed, tab.OperationsApplied, before.OperationsApplied)
		}
	}
}

// TestTableUnderOperationsEnds: the repair of a table's cells under road
// operations stops when the request's context ends, with the context's
// error, instead of running on past the deadline; the same table without
// operations needs no repair and answers whatever the context.
func TestTableUnderOperationsEnds(t *testing.T) {
	rel := openAndorra(t)
	r := rel.Routers["car"]
	rng := rand.New(rand.NewPCG(8, 8))
	src, dst := randomPoints(rng, r, 12), randomPoints(rng, r, 12)
	r.SetCustomizing(false) // repairs alone: a customized hierarchy repairs nothing
	defer r.SetCustomizing(true)
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := matrix.ComputeWith(ended, r, withState(r, nil), src, dst, nil, nil); err != nil {
		t.Fatalf("no operations, nothing to repair: %v", err)
	}
	r.SetOperations(operationsOnRoutes(t, rng, r, src, dst))
	defer r.SetOperations(nil)
	st := r.StateAt(time.Time{})
	tab, err := matrix.ComputeWith(context.Background(), r, withState(r, st), src, dst, nil, nil)
	if err != nil || !tab.OperationsApplied {
		t.Fatalf("under operations with time to finish: %v, operations_applied %v (the test proves nothing without a repair)", err, tab.OperationsApplied)
	}
	if _, err := matrix.ComputeWith(ended, r, withState(r, st), src, dst, nil, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("under operations, context ended: %v, want context.Canceled", err)
	}
}

// operationsOnRoutes closes or slows arcs of the fastest routes from
// random sources to random targets: about one route in two is changed.
func operationsOnRoutes(t *testing.T, rng *rand.Rand, r *route.Router, src, dst []route.Point) []route.Operation {
	t.Helper()
	g := r.Graph()
	var ops []route.Operation
	for k := 0; k < len(src)/2; k++ {
		rt, err := r.Route(context.Background(), []route.Point{src[rng.IntN(len(src))], dst[rng.IntN(len(dst))]}, nil)
		if err != nil || rt.Legs[0].Direct {
			continue
		}
		arcs := rt.Legs[0].Arcs
		a := arcs[len(arcs)/2]
		x := uint32(graph.NoWay)
		if k%2 == 1 {
			x = g.ArcTime(a) * 2
		}
		ops = append(ops, route.Operation{ID: "t", Changes: []route.ArcChange{{Arc: a, Extra: x}}})
	}
	return ops
}

// withState is a query of r set to st.
func withState(r *route.Router, st *graph.State) *ch.Query {
	q := ch.NewQuery(r.Hierarchy())
	q.SetState(st)
	return q
}

// TestTableExcluding: with a request's exclusions (tunnels, unpaved roads),
// every cell of a random table equals the directions answer under the same
// exclusions (route's TestExcludeMatchesDijkstra proves those equal to
// Dijkstra), some cells changed, and the table says no road operation
// applied.
func TestTableExcluding(t *testing.T) {
	rel := openAndorra(t)
	n := 16
	if testing.Short() {
		n = 8
	}
	x := route.ExcludeTunnel | route.ExcludeUnpaved
	for _, profile := range []string{"car", "bicycle"} {
		r := rel.Routers[profile]
		rng := rand.New(rand.NewPCG(12, uint64(len(profile))))
		src, dst := randomPoints(rng, r, n), randomPoints(rng, r, n)
		st := r.StateExcluding(time.Time{}, x)
		tab, err := matrix.ComputeWith(context.Background(), r, withState(r, st), src, dst, nil, nil)
		if err != nil || tab.OperationsApplied {
			t.Fatalf("%s: %v, operations_applied %v with no operation in force", profile, err, tab.OperationsApplied)
		}
		plain := matrix.Compute(r, withState(r, nil), src, dst)
		changed := 0
		for i := range src {
			for j := range dst {
				d, err := r.Directions(context.Background(), route.Request{Points: []route.Point{src[i], dst[j]}, Exclude: x})
				got := tab.Durations[i][j]
				if err != nil {
					if !math.IsNaN(got) {
						t.Fatalf("%s [%d][%d]: table %.3f s, directions: %v", profile, i, j, got, err)
					}
					continue
				}
				if want := d.Routes[0].DurationS; math.IsNaN(got) || math.Abs(got-want) > 0.0005 {
					t.Fatalf("%s [%d][%d]: table %.3f s, directions without tunnels and unpaved roads %.3f s", profile, i, j, got, want)
				}
				if got != plain.Durations[i][j] {
					changed++
				}
			}
		}
		t.Logf("%s: %d×%d without tunnels and unpaved roads equal directions; %d cells changed", profile, n, n, changed)
		if changed == 0 {
			t.Errorf("%s: no cell changed: the test proves nothing", profile)
		}
	}
}

// TestTableMovedByOperations: a table whose source lies on a road a
// closure closes is placed on the nearest open road, and the table says
// operations_applied even when its cell's path, from there, crosses
// nothing the operations change.
func TestTableMovedByOperations(t *testing.T) {
	rel := openAndorra(t)
	r := rel.Routers["car"]
	g := r.Graph()
	rng := rand.New(rand.NewPCG(4, 2))
	off := 0
	for range 30 {
		src, dst := randomPoints(rng, r, 1), randomPoints(rng, r, 1)
		placed, err := r.Snap(src)
		if err != nil {
			continue
		}
		var changes []route.ArcChange
		for _, rev := range []bool{false, true} {
			if a := g.ArcOf[graph.SegRef(placed[0].Seg, rev)]; a != graph.NoArc {
				changes = append(changes, route.ArcChange{Arc: a, Extra: graph.NoWay})
			}
		}
		r.SetOperations([]route.Operation{{ID: "closure", Changes: changes}})
		st := r.StateAt(time.Time{})
		tab := matrix.Compute(r, withState(r, st), src, dst)
		rt, err := r.Route(context.Background(), append(src, dst...), st)
		if err != nil || tab.Sources[0].Result.Seg == placed[0].Seg || st.Overlay().TouchesOperations(rt.Legs[0].Arcs) {
			continue
		}
		off++
		if !tab.OperationsApplied {
			t.Fatalf("a source moved off a closed road (segment %d to %d), its cell's path crossing none: operations_applied false", placed[0].Seg, tab.Sources[0].Result.Seg)
		}
	}
	r.SetOperations(nil)
	t.Logf("%d tables from a source moved by a closure, their paths crossing none, say operations_applied", off)
	if off == 0 {
		t.Error("no such table: the test proves nothing")
	}
}
