package matrix_test

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/matrix"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
	"github.com/mapsco/maps/pkg/snap"
)

func TestMain(m *testing.M) {
	code := m.Run()
	compiletest.Cleanup()
	os.Exit(code)
}

func openAndorra(t testing.TB) *serving.Release { return compiletest.OpenAndorra(t) }

// randomPoints returns n points near roads the profile may use (a random
// shape point, moved up to about 30 m), some of them on the same roads
// (every fifth repeats a nearby point) so that shared-arc pairs are
// exercised.
func randomPoints(rng *rand.Rand, r *route.Router, n int) []route.Point {
	return compiletest.NearRoadPoints(rng, r.Graph(), n)
}

// TestCellsEqualDirections compares every cell of random tables with the
// directions answer for the same pair: durations exactly, distances within
// centimetre rounding per road piece.
func TestCellsEqualDirections(t *testing.T) {
	rel := openAndorra(t)
	rng := rand.New(rand.NewPCG(3, 4))
	n := 30
	if testing.Short() {
		n = 12
	}
	for _, profile := range []string{"car", "pedestrian", "moto", "bicycle", "truck", "pedestrian_loaded"} {
		r := rel.Routers[profile]
		q := ch.NewQuery(r.Hierarchy())
		src, dst := randomPoints(rng, r, n), randomPoints(rng, r, n)
		tab := matrix.Compute(r, q, src, dst)
		routed := cellsEqualDirections(t, r, tab, src, dst)
		t.Logf("%s: %d×%d, %d cells routed, all equal to directions", profile, n, n, routed)
		if routed < n*n*9/10 {
			t.Errorf("%s: only %d of %d cells routed", profile, routed, n*n)
		}
	}
}

// cellsEqualDirections compares every cell of tab with the directions
// answer for its pair (durations exactly, distances within centimetre
// rounding per road piece) and returns how many cells were routed.
func cellsEqualDirections(t *testing.T, r *route.Router, tab matrix.Table, src, dst []route.Point) (routed int) {
	t.Helper()
	profile := r.Graph().Profile
	for i := range src {
		for j := range dst {
			rt, err := r.Route(context.Background(), []route.Point{src[i], dst[j]}, nil)
			got := tab.Durations[i][j]
			if err != nil {
				if !math.IsNaN(got) {
					t.Fatalf("%s [%d][%d]: table %.3f s, directions: %v", profile, i, j, got, err)
				}
				continue
			}
			routed++
			if math.IsNaN(got) || math.Abs(got-rt.DurationS) > 0.0005 { // NaN compares false: test it
				t.Fatalf("%s [%d][%d]: table %.3f s, directions %.3f s", profile, i, j, got, rt.DurationS)
			}
			if d := tab.Distances[i][j]; math.Abs(d-rt.DistanceM) > 1+0.002*rt.DistanceM {
				t.Errorf("%s [%d][%d]: table %.1f m, directions %.1f m", profile, i, j, d, rt.DistanceM)
			}
		}
	}
	return routed
}

// TestUnroutablePointsGiveNull puts a point at sea among the sources: its
// row is NaN (null in the API) and the others are unaffected.
func TestUnroutablePointsGiveNull(t *testing.T) {
	rel := openAndorra(t)
	r := rel.Routers["car"]
	q := ch.NewQuery(r.Hierarchy())
	src := []route.Point{{1.5218, 42.5063}, {3.5, 42.0}}
	dst := []route.Point{{1.7333, 42.5425}, {1.5218, 42.5063}}
	tab := matrix.Compute(r, q, src, dst)
	if !math.IsNaN(tab.Durations[1][0]) || !math.IsNaN(tab.Distances[1][1]) {
		t.Errorf("the point at sea has a row: %v", tab.Durations[1])
	}
	if d := tab.Durations[0][0]; !(d > 1000 && d < 3600) {
		t.Errorf("Andorra la Vella to Pas de la Casa: %.0f s", d)
	}
	if d := tab.Durations[0][1]; d != 0 {
		t.Errorf("a point to itself: %v s", d)
	}
}

func BenchmarkTable(b *testing.B) {
	rel := openAndorra(b)
	r := rel.Routers["car"]
	q := ch.NewQuery(r.Hierarchy())
	for _, n := range []int{10, 100} {
		rng := rand.New(rand.NewPCG(5, 6))
		src, dst := randomPoints(rng, r, n), randomPoints(rng, r, n)
		b.Run(map[int]string{10: "10x10", 100: "100x100"}[n], func(b *testing.B) {
			defer benchcpu.Report(b)()
			for b.Loop() {
				matrix.Compute(r, q, src, dst)
			}
		})
	}
}

// TestUniformCellsEqualDirections draws points uniformly over Andorra's
// box, as users click them: many lie nearest a road off the main network,
// which no path may leave or reach. Every cell still equals the directions
// answer, fallbacks included, and the table reports where each point met
// the network.
func TestUniformCellsEqualDirections(t *testing.T) {
	rel := openAndorra(t)
	rng := rand.New(rand.NewPCG(18, 7))
	n := 16
	if testing.Short() {
		n = 8
	}
	uniform := func() []route.Point {
		pts := make([]route.Point, n)
		for i := range pts {
			pts[i] = route.Point{1.46 + rng.Float64()*0.28, 42.44 + rng.Float64()*0.19}
		}
		return pts
	}
	for _, profile := range []string{"car", "pedestrian"} {
		r := rel.Routers[profile]
		q := ch.NewQuery(r.Hierarchy())
		src, dst := uniform(), uniform()
		tab := matrix.Compute(r, q, src, dst)
		offMain := 0
		for i, p := range tab.Sources {
			if p.Err != nil || p.Result != mustPlace(t, r, src[i]).Result {
				t.Fatalf("source %d reported %+v", i, p)
			}
			if !p.Main {
				offMain++
			}
		}
		routed := cellsEqualDirections(t, r, tab, src, dst)
		t.Logf("%s: %d of %d cells routed, %d sources off the main network", profile, routed, n*n, offMain)
		if routed < n*n*95/100 {
			t.Errorf("%s: only %d of %d cells routed", profile, routed, n*n)
		}
	}
}

func mustPlace(t *testing.T, r *route.Router, p route.Point) snap.Snapped {
	t.Helper()
	s, err := r.PlaceOne(p, snap.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSquareTable asks from uniform random points to the same points, as
// OSRM's tables are asked: each point is placed once for both roles, every
// cell equals the directions answer and the diagonal is zero. The same
// points asked with a bearing as sources are placed by it, apart from the
// targets asked without.
func TestSquareTable(t *testing.T) {
	rel := openAndorra(t)
	r := rel.Routers["car"]
	q := ch.NewQuery(r.Hierarchy())
	rng := rand.New(rand.NewPCG(25, 26))
	pts := make([]route.Point, 12)
	for i := range pts {
		pts[i] = route.Point{1.46 + rng.Float64()*0.28, 42.44 + rng.Float64()*0.19}
	}
	tab := matrix.Compute(r, q, pts, pts)
	routed := cellsEqualDirections(t, r, tab, pts, pts)
	for i := range pts {
		if tab.Sources[i] != tab.Targets[i] || tab.Sources[i].Result != mustPlace(t, r, pts[i]).Result {
			t.Fatalf("point %d placed at %+v as a source, %+v as a target", i, tab.Sources[i], tab.Targets[i])
		}
		if tab.Durations[i][i] != 0 || tab.Distances[i][i] != 0 {
			t.Fatalf("point %d to itself: %.3f s, %.1f m", i, tab.Durations[i][i], tab.Distances[i][i])
		}
	}
	t.Logf("%d of %d cells routed", routed, len(pts)*len(pts))

	opts := make([]snap.Options, len(pts))
	moved := 0
	for i := range opts {
		plain := mustPlace(t, r, pts[i])
		// Across the road the point was placed on (Heading is counter-
		// clockwise from east, a bearing clockwise from north): that road
		// is refused.
		heading := r.Graph().Net.Heading(graph.SegRef(plain.Seg, false), true)
		bearing := &snap.Bearing{Degrees: math.Mod(360+90-heading+90, 360), Tolerance: 10}
		opts[i] = snap.Options{Bearing: bearing}
		want, err := r.PlaceOne(pts[i], opts[i], nil)
		tab, _ := matrix.ComputeWith(context.Background(), r, q, pts[i:i+1], pts[i:i+1], opts[i:i+1], nil)
		if tab.Targets[0].Result != plain.Result {
			t.Fatalf("point %d: target placed at %+v, want %+v", i, tab.Targets[0].Result, plain.Result)
		}
		if (err != nil) != (tab.Sources[0].Err != nil) || err == nil && tab.Sources[0].Result != want.Result {
			t.Fatalf("point %d with bearing %v: source placed at %+v (%v), want %+v (%v)", i, *bearing, tab.Sources[0].Result, tab.Sources[0].Err, want.Result, err)
		}
		if err != nil || want.Result != plain.Result {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("no bearing moved a source: the test shows nothing")
	}
}
