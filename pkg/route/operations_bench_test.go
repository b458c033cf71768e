package route_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/route"
)

// SynthOperations are road operations like the measure: that many
// closures of both directions and slowdowns (×1.2 to ×3), half
// on arcs of the fastest routes between random pairs (trunks), half on
// arcs drawn uniformly (side streets), the same on every run.
func SynthOperations(r *route.Router, closures, slowdowns int) []route.Operation {
	g := r.Graph()
	rng := rand.New(rand.NewPCG(100, 1000))
	q := ch.NewQuery(r.Hierarchy())
	var onRoutes []uint32
	for _, p := range legPairs(r, 50) {
		if leg, ok := r.Leg(q, p[0], p[1]); ok {
			onRoutes = append(onRoutes, leg.Arcs...)
		}
	}
	arcs := int(g.Fwd.First[len(g.Fwd.First)-1])
	var ops []route.Operation
	for i := range closures + slowdowns {
		arc := uint32(rng.IntN(arcs))
		if i%2 == 0 {
			arc = onRoutes[rng.IntN(len(onRoutes))]
		}
		op := route.Operation{ID: "bench"}
		if i < closures {
			op.Changes = []route.ArcChange{{Arc: arc, Extra: graph.NoWay}}
			if back := g.ArcOf[g.ArcSegRef(arc)^1]; back != graph.NoArc {
				op.Changes = append(op.Changes, route.ArcChange{Arc: back, Extra: graph.NoWay})
			}
		} else {
			op.Changes = []route.ArcChange{{Arc: arc, Extra: uint32(float64(g.ArcTime(arc)) * (0.2 + 1.8*rng.Float64()))}}
		}
		ops = append(ops, op)
	}
	return ops
}

// BenchmarkSynthLegOperations is a car leg between random car-road points
// of the ~3M-node synthetic country with no operations and with 100
// closures and 1,000 slowdowns in force (issue 42's measure), alternated
// in one run; it reports the share of legs repaired.
//
//	MAPS_SYNTH_RELEASE=DIR go test -run X -bench SynthLegOperations -count 6 ./pkg/route
func BenchmarkSynthLegOperations(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	pairs := legPairs(r, 1000)
	ops := SynthOperations(r, 100, 1000)
	for _, c := range []struct {
		name string
		ops  []route.Operation
	}{{"none", nil}, {"ops", ops}} {
		b.Run(c.name, func(b *testing.B) {
			r.SetOperations(c.ops)
			defer r.SetOperations(nil)
			q := r.Query()
			defer r.PutQuery(q)
			q.SetState(r.StateAt(time.Time{}))
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
			b.ReportMetric(float64(repaired)/float64(i), "repaired/leg")
		})
	}
}
