package route_test

import (
	"context"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/route"
)

// BenchmarkSynthLegOperations is a car leg between random car-road points
// of the ~3M-node synthetic country with no operations and with 100
// closures and 1,000 slowdowns in force (issue 42's measure), repaired on
// the compiled hierarchy and searched on the one customized under them,
// alternated in one run; it reports the share of legs the operations
// changed (Operated).
//
//	MAPS_SYNTH_RELEASE=DIR go test -run X -bench SynthLegOperations -count 6 ./pkg/route
func BenchmarkSynthLegOperations(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	pairs := legPairs(r, 1000)
	ops := compiletest.Operations(r, 100, 1000)
	for _, c := range []struct {
		name      string
		ops       []route.Operation
		customize bool
	}{{"none", nil, true}, {"repaired", ops, false}, {"customized", ops, true}} {
		b.Run(c.name, func(b *testing.B) {
			r.SetCustomizing(c.customize)
			r.SetOperations(c.ops)
			defer r.SetOperations(nil)
			if err := r.AwaitCustomized(context.Background()); err != nil {
				b.Fatal(err)
			}
			q := r.Query()
			defer r.PutQuery(q)
			q.SetState(r.StateAt(time.Time{}))
			if c.ops != nil && q.Customized() != c.customize {
				b.Fatalf("customized %v, want %v", q.Customized(), c.customize)
			}
			repaired, i := 0, 0
			defer benchcpu.Report(b)()
			for b.Loop() {
				p := pairs[i%len(pairs)]
				i++
				leg, ok := r.Leg(q, p[0], p[1])
				if !ok {
					continue
				}
				if leg.Operated {
					repaired++
				}
			}
			b.ReportMetric(float64(repaired)/float64(i), "operated/leg")
		})
	}
}

// BenchmarkSynthOverlay is what publishing a change costs a router of the
// ~3M-node synthetic country with 100 closures and 1,000 slowdowns in
// force: the overlay and the hierarchy's taint made anew (the first call
// also indexes the shortcuts by middle, once per hierarchy).
//
//	MAPS_SYNTH_RELEASE=DIR go test -run X -bench SynthOverlay -count 6 ./pkg/route
func BenchmarkSynthOverlay(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	ops := compiletest.Operations(r, 100, 1000)
	r.SetOperations(ops) // the index by middle, made once
	defer r.SetOperations(nil)
	defer benchcpu.Report(b)()
	for b.Loop() {
		r.SetOperations(ops)
	}
}

// BenchmarkSynthLegExclude is a car leg between random car-road points of
// the ~3M-node synthetic country without and with a request's exclusions
// (issue 35's measure: toll; tunnel, which long trips meet more often),
// repaired on the compiled hierarchy and on the one customized under them
// once asked for often, alternated in one run.
//
//	MAPS_SYNTH_RELEASE=DIR go test -run X -bench SynthLegExclude -count 6 ./pkg/route
func BenchmarkSynthLegExclude(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	pairs := legPairs(r, 1000)
	for _, c := range []struct {
		x         route.Exclude
		customize bool
	}{{0, false}, {route.ExcludeToll, false}, {route.ExcludeToll, true}, {route.ExcludeTunnel, false}, {route.ExcludeTunnel, true}} {
		name := "exclude=" + c.x.String()
		if c.customize {
			name += "/customized"
		}
		b.Run(name, func(b *testing.B) {
			st := r.StateExcluding(time.Time{}, c.x) // the overlay of x made once, as the first such request would
			if c.customize {                         // asked for as a fleet asks: customized
				st = compiletest.Customized(b, r, func() *graph.State { return r.StateExcluding(time.Time{}, c.x) })
			}
			q := r.Query()
			defer r.PutQuery(q)
			if q.SetStateCompiled(st); c.customize {
				q.SetState(st)
			}
			i := 0
			defer benchcpu.Report(b)()
			for b.Loop() {
				p := pairs[i%len(pairs)]
				i++
				r.Leg(q, p[0], p[1])
			}
		})
	}
}

// BenchmarkSynthCustomize is what customizing the car hierarchy of the
// ~3M-node synthetic country costs with 100 closures and 1,000 slowdowns
// in force: the hierarchy contracted again under them in the nightly order
// (ch.Hierarchy.Customize), off the request path.
//
//	MAPS_SYNTH_RELEASE=DIR go test -run X -bench SynthCustomize -count 6 ./pkg/route
func BenchmarkSynthCustomize(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	r.SetOperations(compiletest.Operations(r, 100, 1000))
	defer r.SetOperations(nil)
	ov := r.StateAt(time.Now()).Overlay()
	h := r.Hierarchy()
	c, err := h.Customize(context.Background(), r.Graph(), ov)
	if err != nil {
		b.Fatal(err)
	}
	stop := benchcpu.Report(b)
	for b.Loop() {
		if _, err := ch.Contract(context.Background(), ch.OverlayInput(r.Graph(), ov), h.Order()); err != nil {
			b.Fatal(err)
		}
	}
	stop()
	b.ReportMetric(float64(len(c.Up)+len(c.Dn))/4, "edges")
	b.ReportMetric(float64(len(h.Up)+len(h.Dn))/4, "compiled-edges")
}
