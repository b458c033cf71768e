package matrix_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/matrix"
	"github.com/mapsco/maps/pkg/route"
)

// BenchmarkSynthTable is the other figure: a 100×100 car table
// (snapping included) between random points of the ~3M-node synthetic
// country, which tests do not build: point MAPS_SYNTH_RELEASE at a release
// of `mapc synth --nodes 3000000` (docs/benchmarks-history.md says how to build one).
//
//	MAPS_SYNTH_RELEASE=/tmp/iso-releases/iso-synth-3m-v2 go test -run X -bench SynthTable -count 6 ./pkg/matrix
func BenchmarkSynthTable(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	q := ch.NewQuery(r.Hierarchy())
	rng := rand.New(rand.NewPCG(5, 6))
	src, dst := randomPoints(rng, r, 100), randomPoints(rng, r, 100)
	matrix.Compute(r, q, src, dst) // the first table faults the mapping in
	defer benchcpu.Report(b)()
	for b.Loop() {
		matrix.Compute(r, q, src, dst)
	}
}

// BenchmarkSynthTableAt is BenchmarkSynthTable under the conditions at a
// departure time, as the server computes every table (departure_time
// defaults to now): the searches then weigh each edge into a conditional
// arc by the state (graph.State.Edge) and each variable shortcut by the
// state's metric (ch's vary.go).
//
//	MAPS_SYNTH_RELEASE=/work/s3m/releases/s3m go test -run X -bench SynthTableAt -count 6 ./pkg/matrix
func BenchmarkSynthTableAt(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	q := ch.NewQuery(r.Hierarchy())
	q.SetState(r.StateAt(time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)))
	rng := rand.New(rand.NewPCG(5, 6))
	src, dst := randomPoints(rng, r, 100), randomPoints(rng, r, 100)
	matrix.Compute(r, q, src, dst) // the first table faults the mapping in
	defer benchcpu.Report(b)()
	for b.Loop() {
		matrix.Compute(r, q, src, dst)
	}
}

// BenchmarkSynthTableSquare is BenchmarkSynthTableAt for a table of 100
// points to themselves (a list's own distances, OSRM's usual /table): issue
// 41's other table.
//
//	MAPS_SYNTH_RELEASE=/work/s3m/rel go test -run X -bench SynthTableSquare -count 6 ./pkg/matrix
func BenchmarkSynthTableSquare(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	q := ch.NewQuery(r.Hierarchy())
	q.SetState(r.StateAt(time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)))
	pts := randomPoints(rand.New(rand.NewPCG(5, 7)), r, 100)
	matrix.Compute(r, q, pts, pts) // the first table faults the mapping in
	defer benchcpu.Report(b)()
	for b.Loop() {
		matrix.Compute(r, q, pts, pts)
	}
}

// BenchmarkSynthTableOperations is a 100×100 car table (snapping
// included) between random points of the ~3M-node synthetic country with
// no road operations and with 100 closures and 1,000 slowdowns in force
// (issue 42's measure) on the hierarchy customized under them; and a
// 20×20 one without and with them repaired on the compiled hierarchy.
//
//	MAPS_SYNTH_RELEASE=DIR go test -run X -bench SynthTableOperations -count 6 ./pkg/matrix
func BenchmarkSynthTableOperations(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	ops := compiletest.Operations(r, 100, 1000)
	rng := rand.New(rand.NewPCG(5, 6))
	src, dst := randomPoints(rng, r, 100), randomPoints(rng, r, 100)
	// Repaired, most long cells are searched again one row at a time (see
	// docs/road-operations.md): a 100×100 table takes minutes, so that
	// case is 20×20, beside its own case without operations.
	for _, c := range []struct {
		name      string
		ops       []route.Operation
		customize bool
		size      int
	}{{"none", nil, true, 100}, {"customized", ops, true, 100}, {"none-20", nil, true, 20}, {"repaired-20", ops, false, 20}} {
		b.Run(c.name, func(b *testing.B) {
			r.SetCustomizing(c.customize)
			defer r.SetCustomizing(true)
			r.SetOperations(c.ops)
			defer r.SetOperations(nil)
			if err := r.AwaitCustomized(context.Background()); err != nil {
				b.Fatal(err)
			}
			q := ch.NewQuery(r.Hierarchy())
			q.SetState(r.StateAt(time.Time{}))
			if c.ops != nil && q.Customized() != c.customize {
				b.Fatalf("customized %v, want %v", q.Customized(), c.customize)
			}
			src, dst := src[:c.size], dst[:c.size]
			t := matrix.Compute(r, q, src, dst) // faults the mapping in
			defer benchcpu.Report(b)()
			for b.Loop() {
				t = matrix.Compute(r, q, src, dst)
			}
			b.ReportMetric(boolMetric(t.OperationsApplied), "applied")
		})
	}
}

func boolMetric(v bool) float64 {
	if v {
		return 1
	}
	return 0
}

// BenchmarkSynthTableExclude is a 100×100 car table between random points
// of the ~3M-node synthetic country without and with a request's exclusion
// of tolls (issue 35's measure) on the hierarchy customized under it, as
// once asked for often; and a 20×20 one without and with it repaired on
// the compiled hierarchy (the overlay and its taint made before the timer,
// as the first such request would), one after the other in one run.
//
//	MAPS_SYNTH_RELEASE=/work/s3m/releases/s3m go test -run X -bench SynthTableExclude -count 6 ./pkg/matrix
func BenchmarkSynthTableExclude(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	rng := rand.New(rand.NewPCG(5, 6))
	src, dst := randomPoints(rng, r, 100), randomPoints(rng, r, 100)
	for _, c := range []struct {
		x    route.Exclude
		size int
	}{{0, 100}, {route.ExcludeToll, 100}, {0, 20}, {route.ExcludeToll, 20}} {
		b.Run(fmt.Sprintf("exclude=%s/%d", c.x, c.size), func(b *testing.B) {
			src, dst := src[:c.size], dst[:c.size]
			q := ch.NewQuery(r.Hierarchy())
			st := r.StateExcluding(time.Time{}, c.x)
			if q.SetStateCompiled(st); c.x != 0 && c.size == 100 { // asked for as a fleet asks: customized
				q.SetState(compiletest.Customized(b, r, func() *graph.State { return r.StateExcluding(time.Time{}, c.x) }))
			}
			matrix.Compute(r, q, src, dst) // the first table faults the mapping in
			defer benchcpu.Report(b)()
			for b.Loop() {
				matrix.Compute(r, q, src, dst)
			}
		})
	}
}

// BenchmarkSynthTableAvoid is BenchmarkSynthTableExclude's 20×20 car table
// without an area and with a 2 km square avoided on the first cell's own
// path (the rows whose cells cross it are searched again), the request's
// state made per table as a request makes it:
//
//	MAPS_SYNTH_RELEASE=DIR go test -run X -bench SynthTableAvoid -benchtime 5x ./pkg/matrix
func BenchmarkSynthTableAvoid(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	rng := rand.New(rand.NewPCG(5, 6))
	src, dst := randomPoints(rng, r, 20), randomPoints(rng, r, 20)
	d, err := r.Directions(context.Background(), route.Request{Points: []route.Point{src[0], dst[0]}})
	if err != nil {
		b.Fatal(err)
	}
	shape := d.Routes[0].Shape()
	mid := shape[len(shape)/2]
	const half = 1000 / geo.MetresPerDegreeLat // 1 km of latitude, in degrees
	k := 1 / math.Cos(mid[1]*math.Pi/180)
	area := geo.NewArea([][][][2]float64{{{{mid[0] - half*k, mid[1] - half}, {mid[0] + half*k, mid[1] - half},
		{mid[0] + half*k, mid[1] + half}, {mid[0] - half*k, mid[1] + half}, {mid[0] - half*k, mid[1] - half}}}})
	for _, withArea := range []bool{false, true} {
		b.Run(map[bool]string{false: "none", true: "square-on-a-path"}[withArea], func(b *testing.B) {
			var a route.Avoid
			if withArea {
				a.Areas = area
			}
			q := ch.NewQuery(r.Hierarchy())
			q.SetState(r.StateAvoiding(time.Time{}, 0, a))
			matrix.Compute(r, q, src, dst) // the first table faults the mapping in
			defer benchcpu.Report(b)()
			for b.Loop() {
				q.SetState(r.StateAvoiding(time.Time{}, 0, a))
				matrix.Compute(r, q, src, dst)
			}
		})
	}
}
