package resolve_test

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/roadops"
	"github.com/mapsco/maps/pkg/roadops/resolve"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
)

func TestMain(m *testing.M) {
	code := m.Run()
	compiletest.Cleanup()
	os.Exit(code)
}

// The Envalira tunnel (Túnel d'Envalira, CG-2a), the main road to France,
// and a trip through it from Grau Roig to Pas de la Casa.
const envalira = 6176755

var (
	grauRoig    = route.Point{1.686162, 42.552528}
	pasDeLaCasa = route.Point{1.733594, 42.543642}
)

// usesWay reports whether the route travels a segment of way w.
func usesWay(net *graph.Network, r *route.Router, rt *route.Route, w int64) bool {
	for _, l := range rt.Legs {
		for _, a := range l.Arcs {
			if s, _ := r.Graph().ArcSegment(a); net.SegWay[s] == w {
				return true
			}
		}
	}
	return false
}

func routeNow(t *testing.T, r *route.Router, pts ...route.Point) *route.Route {
	t.Helper()
	rt, err := r.Route(context.Background(), pts, r.StateAt(timeZero))
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

// TestEnvaliraClosed closes the tunnel as an operator would this morning:
// the car trip that took it goes over the pass instead, says so, and comes
// back once the closure is lifted; a slowdown keeps the trip in the tunnel
// and makes it dearer; a closure of one direction leaves the other open.
func TestEnvaliraClosed(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	car := rel.Routers["car"]
	before := routeNow(t, car, grauRoig, pasDeLaCasa)
	if !usesWay(rel.Network, car, before, envalira) {
		t.Fatalf("the car trip from Grau Roig to Pas de la Casa does not take the Envalira tunnel (%.0f m)", before.DistanceM)
	}
	res := resolve.Apply(rel.Network, rel.Routers, []roadops.Operation{reviewed(roadops.Operation{ID: "op1", Kind: roadops.KindClosure, Way: envalira})}, nil)
	if !res[0].Resolved || res[0].Segments == 0 {
		t.Fatalf("the tunnel's closure did not resolve: %+v", res[0])
	}
	t.Logf("closure: %s", res[0].Detail)
	closed := routeNow(t, car, grauRoig, pasDeLaCasa)
	if usesWay(rel.Network, car, closed, envalira) || !closed.OperationsApplied() || closed.DurationS <= before.DurationS {
		t.Errorf("with the tunnel closed: %.0f m, %.0f s, through it %v, operations_applied %v; before %.0f s",
			closed.DistanceM, closed.DurationS, usesWay(rel.Network, car, closed, envalira), closed.OperationsApplied(), before.DurationS)
	}
	back := routeNow(t, car, pasDeLaCasa, grauRoig)
	resolve.Apply(rel.Network, rel.Routers, []roadops.Operation{reviewed(roadops.Operation{ID: "op2", Kind: roadops.KindClosure, Way: envalira, Direction: roadops.DirForward})}, nil)
	oneWay := [2]*route.Route{routeNow(t, car, grauRoig, pasDeLaCasa), routeNow(t, car, pasDeLaCasa, grauRoig)}
	resolve.Apply(rel.Network, rel.Routers, []roadops.Operation{reviewed(roadops.Operation{ID: "op3", Kind: roadops.KindSlowdown, Way: envalira, Factor: 1.5})}, nil)
	slow := routeNow(t, car, grauRoig, pasDeLaCasa)
	resolve.Apply(rel.Network, rel.Routers, nil, nil)
	after := routeNow(t, car, grauRoig, pasDeLaCasa)
	t.Logf("before %.0f s; closed %.0f s (%.0f m); slowed ×1.5 %.0f s; lifted %.0f s", before.DurationS, closed.DurationS, closed.DistanceM, slow.DurationS, after.DurationS)
	if after.DurationS != before.DurationS || after.OperationsApplied() {
		t.Errorf("after the closure was lifted: %.1f s, applied %v; before %.1f s", after.DurationS, after.OperationsApplied(), before.DurationS)
	}
	if !usesWay(rel.Network, car, slow, envalira) || slow.DurationS <= before.DurationS || !slow.OperationsApplied() {
		t.Errorf("slowed tunnel: %.1f s through it %v (before %.1f s)", slow.DurationS, usesWay(rel.Network, car, slow, envalira), before.DurationS)
	}
	// The way runs one way or the other; one of the two trips keeps it.
	kept := 0
	for _, rt := range oneWay {
		if usesWay(rel.Network, car, rt, envalira) {
			kept++
		}
	}
	if usesWay(rel.Network, car, back, envalira) && kept != 1 {
		t.Errorf("closing the tunnel in one direction left %d of the two trips through it, want 1", kept)
	}
}

var timeZero time.Time // now

// TestClosureEqualsRemovedWays: closing whole ways answers as a release
// compiled without them, on random car and pedestrian trips.
func TestClosureEqualsRemovedWays(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles an edited Andorra; the full run covers it")
	}
	rel := compiletest.OpenAndorra(t)
	// The tunnel, and the way in the middle of the trip from Andorra la
	// Vella to Encamp along the CG-2, the country's spine.
	car := rel.Routers["car"]
	spine := routeNow(t, car, route.Point{1.5218, 42.5063}, route.Point{1.5806, 42.5345})
	arcs := spine.Legs[0].Arcs
	s, _ := car.Graph().ArcSegment(arcs[len(arcs)/2])
	ways := []int64{envalira, rel.Network.SegWay[s]}
	t.Logf("closing ways %v (%s)", ways, rel.Network.Name(s))
	dir := compiletest.EditedAndorraRelease(t, t.TempDir(), "without", compiletest.Edit{Remove: ways})
	without, err := serving.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer without.Close()
	var ops []roadops.Operation
	for i, w := range ways {
		ops = append(ops, reviewed(roadops.Operation{ID: string(rune('a' + i)), Kind: roadops.KindClosure, Way: w}))
	}
	for _, r := range resolve.Apply(rel.Network, rel.Routers, ops, nil) {
		if !r.Resolved {
			t.Fatalf("%+v did not resolve", r)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, profile := range []string{"car", "pedestrian"} {
		r, w := rel.Routers[profile], without.Routers[profile]
		changed, n := 0, 300
		for range n {
			a := route.Point{1.45 + rng.Float64()*0.3, 42.45 + rng.Float64()*0.18}
			b := route.Point{1.45 + rng.Float64()*0.3, 42.45 + rng.Float64()*0.18}
			got, err1 := r.Route(context.Background(), []route.Point{a, b}, r.StateAt(timeZero))
			want, err2 := w.Route(context.Background(), []route.Point{a, b}, w.StateAt(timeZero))
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("%s %v -> %v: with the closure %v, without the ways %v", profile, a, b, err1, err2)
			}
			if err1 != nil {
				continue
			}
			// Removing a way joins the segments either side of its ends,
			// whose times are rounded once instead of twice: a few ms.
			if d := math.Abs(got.DurationS - want.DurationS); d > 0.01*float64(len(got.Legs[0].Arcs))+0.05 {
				t.Errorf("%s %v -> %v: %.3f s with the closure, %.3f s without the ways", profile, a, b, got.DurationS, want.DurationS)
			}
			if got.OperationsApplied() {
				changed++
			}
		}
		t.Logf("%s: %d trips equal to the release without the ways; %d changed by the closure", profile, n, changed)
	}
}

func reviewed(op roadops.Operation) roadops.Operation {
	op.State = roadops.ReviewReviewed
	return op
}

// TestPlaces: an operation is placed by a line drawn along a road (the
// tunnel's own shape), by a polygon (every road inside a box), by part of a
// way between two points, and refused, with the reason, where its way is
// not in the release; drafts and withdrawn operations are not placed.
func TestPlaces(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	net, car := rel.Network, rel.Routers["car"]
	var tunnel []uint32
	for s, w := range net.SegWay {
		if w == envalira {
			tunnel = append(tunnel, uint32(s))
		}
	}
	var line [][2]float64
	for _, s := range tunnel {
		begin, end := net.Points(s)
		for i := begin; i < end; i++ {
			lon, lat := net.Point(i)
			line = append(line, [2]float64{lon, lat})
		}
	}
	// The longest way of the CG-2 trip from Andorra la Vella to Encamp.
	spine := routeNow(t, car, route.Point{1.5218, 42.5063}, route.Point{1.5806, 42.5345})
	count := map[int64]int{}
	var longest int64
	for _, a := range spine.Legs[0].Arcs {
		s, _ := car.Graph().ArcSegment(a)
		w := net.SegWay[s]
		count[w]++
		if count[w] > count[longest] {
			longest = w
		}
	}
	var wayPoints [][2]float64
	for s, w := range net.SegWay {
		if w == longest {
			lon, lat := net.Node(net.SegFrom[s])
			wayPoints = append(wayPoints, [2]float64{lon, lat})
		}
	}
	ops := []roadops.Operation{
		reviewed(roadops.Operation{ID: "line", Kind: roadops.KindClosure, Line: line}),
		reviewed(roadops.Operation{ID: "box", Kind: roadops.KindSlowdown, SpeedKPH: 5, Polygon: [][][2]float64{{
			{1.5200, 42.5050}, {1.5240, 42.5050}, {1.5240, 42.5080}, {1.5200, 42.5080}, {1.5200, 42.5050}}}}),
		reviewed(roadops.Operation{ID: "part", Kind: roadops.KindClosure, Way: longest, From: &wayPoints[0], To: &wayPoints[0]}),
		reviewed(roadops.Operation{ID: "gone", Kind: roadops.KindClosure, Way: 1}),
		{ID: "draft", Kind: roadops.KindClosure, Way: envalira, State: roadops.ReviewDraft},
		{ID: "withdrawn", Kind: roadops.KindClosure, Way: envalira, State: roadops.ReviewWithdrawn},
	}
	byProfile, results := resolve.Resolve(net, rel.Routers, ops, nil)
	if len(results) != 4 {
		t.Fatalf("%d results, want 4 (drafts and withdrawn operations are not placed): %+v", len(results), results)
	}
	for _, r := range results {
		t.Logf("%s: resolved %v, %d segments: %s", r.ID, r.Resolved, r.Segments, r.Detail)
	}
	if r := results[0]; !r.Resolved || r.Segments < len(tunnel) || r.Segments > len(tunnel)+2 {
		t.Errorf("the line along the tunnel's %d segments placed %+v", len(tunnel), r)
	}
	if r := results[1]; !r.Resolved || r.Segments < 5 {
		t.Errorf("the box in Andorra la Vella placed %+v", r)
	}
	if r := results[2]; !r.Resolved || r.Segments != 1 || count[longest] < 2 {
		t.Errorf("a part of one segment of way %d (%d segments on the trip) placed %+v", longest, count[longest], r)
	}
	if r := results[3]; r.Resolved || r.Detail != "way 1 is not in this release" {
		t.Errorf("a way not in the release: %+v", r)
	}
	closedTunnel := false
	for _, op := range byProfile["car"] {
		for _, c := range op.Changes {
			if s, _ := car.Graph().ArcSegment(c.Arc); net.SegWay[s] == envalira && op.ID == "line" && c.Extra == graph.NoWay {
				closedTunnel = true
			}
		}
	}
	if !closedTunnel {
		t.Error("the line along the tunnel does not close the tunnel for cars")
	}
	if _, ok := byProfile["pedestrian"]; !ok {
		t.Error("the box's slowdown does not reach pedestrians (an operation names no profile: all)")
	}
}
