package isochrone

import (
	"context"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
	"github.com/mapsco/maps/pkg/snap"
)

// The figures: a 4-contour car isochrone up to 60 minutes on
// Andorra (aim: under 20 ms of compute) and a 30-minute one on the ~3M-node
// synthetic country (aim: under 100 ms). Both are the whole pipeline after
// snapping. The synthetic country is not built by tests: point
// MAPS_SYNTH_RELEASE at a release of it (docs/benchmarks-history.md, Isochrones, says
// how to build one); without it those benchmarks skip.

// andorraOrigin is Andorra la Vella.
var andorraOrigin = route.Point{1.5218, 42.5063}

// synthOrigins are places in the synthetic country (mapc synth --nodes
// 3000000: 121 tiles on an 11×11 grid of 1° cells, tile t copying source
// t mod 10 in the order andorra, liechtenstein, monaco, boston, london,
// moscow, munchen, porto, stockholm, sydney, each shifted by whole
// degrees into its cell). The figure is Andorra la Vella in the
// middle tile (60: row 5, column 5), with tiles on every side; Porto's
// centre (tile 67) is a city network.
var synthOrigins = []struct {
	name  string
	point route.Point
}{
	{"andorra", route.Point{1.5218 - 1, 42.5063 + 3}},
	{"porto", route.Point{-8.6110 + 5, 41.1496 + 5}},
}

// BenchmarkCar60 is the Andorra figure: 15, 30, 45, 60 minutes.
func BenchmarkCar60(b *testing.B) {
	r, o := snapCar(b, openAndorra(b), andorraOrigin)
	benchCompute(b, r, o, Budget{15, Minutes}, Budget{30, Minutes}, Budget{45, Minutes}, Budget{60, Minutes})
}

// BenchmarkSynth30 is the country figure: one 30-minute contour.
func BenchmarkSynth30(b *testing.B) {
	rel := compiletest.OpenSynth(b)
	for _, c := range synthOrigins {
		b.Run(c.name, func(b *testing.B) {
			r, o := snapCar(b, rel, c.point)
			benchCompute(b, r, o, Budget{30, Minutes})
		})
	}
}

// BenchmarkSynth30Operations is BenchmarkSynth30 from Andorra la Vella's
// tile with no road operations and with 100 closures and 1,000 slowdowns
// in force (issue 42's measure), alternated in one run.
//
//	MAPS_SYNTH_RELEASE=/work/s3m/releases/s3m go test -run X -bench Synth30Operations -count 6 ./pkg/isochrone
func BenchmarkSynth30Operations(b *testing.B) {
	rel := compiletest.OpenSynth(b)
	r, o := snapCar(b, rel, synthOrigins[0].point)
	ops := compiletest.Operations(r, 100, 1000)
	for _, c := range []struct {
		name string
		ops  []route.Operation
	}{{"none", nil}, {"ops", ops}} {
		b.Run(c.name, func(b *testing.B) {
			r.SetOperations(c.ops)
			defer r.SetOperations(nil)
			if err := r.AwaitCustomized(context.Background()); err != nil { // not beside the timing
				b.Fatal(err)
			}
			benchCompute(b, r, o, Budget{30, Minutes})
		})
	}
}

// BenchmarkSynth30Exclude is BenchmarkSynth30 from Andorra la Vella's tile
// without and with a request's exclusions (issue 35's measure: tolls;
// tunnels, which the synthetic tiles hold many of), alternated in one run.
//
//	MAPS_SYNTH_RELEASE=DIR go test -run X -bench Synth30Exclude -count 6 ./pkg/isochrone
func BenchmarkSynth30Exclude(b *testing.B) {
	rel := compiletest.OpenSynth(b)
	r, o := snapCar(b, rel, synthOrigins[0].point)
	for _, x := range []route.Exclude{0, route.ExcludeToll, route.ExcludeTunnel} {
		b.Run("exclude="+x.String(), func(b *testing.B) {
			benchComputeUnder(b, r, o, r.StateExcluding(time.Time{}, x), Budget{30, Minutes})
		})
	}
}

// BenchmarkSearch compares the two one-to-many searches that can feed the
// polygons (the search step alone): the bounded Dijkstra Compute uses and
// PHAST over the hierarchy, for the 60-minute Andorra and 30-minute
// synthetic cases. PHAST's sweep order is built once, outside the timing.
func BenchmarkSearch(b *testing.B) {
	b.Run("andorra60", func(b *testing.B) {
		benchSearch(b, openAndorra(b), andorraOrigin, 3600_000)
	})
	b.Run("synth30", func(b *testing.B) {
		rel := compiletest.OpenSynth(b)
		for _, c := range synthOrigins {
			b.Run(c.name, func(b *testing.B) { benchSearch(b, rel, c.point, 1800_000) })
		}
	})
}

func benchSearch(b *testing.B, rel *serving.Release, p route.Point, limit uint32) {
	r, o := snapCar(b, rel, p)
	g, h := r.Graph(), r.Hierarchy()
	b.Run("dijkstra", func(b *testing.B) {
		sc := new(scratch)
		for b.Loop() {
			sc.search(g, o, byTime, limit, g.StateAt(time.Now()))
		}
		b.ReportMetric(float64(sc.costs.Len()), "arcs")
	})
	b.Run("phast", func(b *testing.B) {
		sc, p := new(scratch), ch.NewPHAST(h, ch.NewSweep(h))
		for b.Loop() {
			sc.searchPHAST(g, p, o, limit)
		}
		b.ReportMetric(float64(sc.costs.Len()), "arcs")
	})
}

// BenchmarkSweepOrder is PHAST's one-off cost per hierarchy: deriving the
// sweep order (ch.NewSweep) for the car profile.
func BenchmarkSweepOrder(b *testing.B) {
	for _, c := range []struct {
		name string
		open func(testing.TB) *serving.Release
	}{{"andorra", openAndorra}, {"synth", compiletest.OpenSynth}} {
		b.Run(c.name, func(b *testing.B) {
			h := c.open(b).Routers["car"].Hierarchy()
			for b.Loop() {
				ch.NewSweep(h)
			}
		})
	}
}

// benchCompute times Compute and also reports the process's CPU time per
// call (cpu-ms/op, garbage collection included): on a shared machine wall
// time counts the waits for a core, CPU time is the compute the aims are
// about.
func benchCompute(b *testing.B, r *route.Router, o snap.Result, budgets ...Budget) {
	benchComputeUnder(b, r, o, r.StateAt(time.Time{}), budgets...)
}

// benchComputeUnder is benchCompute under state st.
func benchComputeUnder(b *testing.B, r *route.Router, o snap.Result, st *graph.State, budgets ...Budget) {
	req := Request{Budgets: budgets, State: st}
	var e Engine
	b.ReportAllocs()
	cpu0 := benchcpu.Now()
	for b.Loop() {
		if _, err := e.Compute(context.Background(), r.Graph(), o, req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchcpu.Now()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
}

// snapCar snaps p for the car profile of rel; it fails if p is more than
// 100 m from a car road, which would mean the origin is not where its name
// says.
func snapCar(b testing.TB, rel *serving.Release, p route.Point) (*route.Router, snap.Result) {
	b.Helper()
	r := rel.Routers["car"]
	sn, err := r.Snap([]route.Point{p})
	if err != nil {
		b.Fatal(err)
	}
	if d := geo.Distance(p[0], p[1], sn[0].Lon, sn[0].Lat); d > 100 {
		b.Fatalf("%v snaps %.0f m away", p, d)
	}
	return r, sn[0]
}
