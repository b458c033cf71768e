package compiletest

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
)

// Operations are road operations like issue 42's measure, for benchmarks:
// that many closures of both directions of an arc and slowdowns (×1.2 to
// ×3), half on arcs of the fastest routes between random road points
// (trunks, which long routes share and long shortcuts span), half on arcs
// drawn uniformly (side streets); the same on every run.
func Operations(r *route.Router, closures, slowdowns int) []route.Operation {
	g := r.Graph()
	rng := rand.New(rand.NewPCG(100, 1000))
	q := ch.NewQuery(r.Hierarchy())
	var onRoutes []uint32
	pts := NearRoadPoints(rng, g, 100)
	for i := 0; i+1 < len(pts); i += 2 {
		snapped, err := r.Snap([]route.Point{pts[i], pts[i+1]})
		if err != nil {
			continue
		}
		if leg, ok := r.Leg(q, snapped[0], snapped[1]); ok {
			onRoutes = append(onRoutes, leg.Arcs...)
		}
	}
	arcs := int(g.Fwd.First[len(g.Fwd.First)-1])
	var ops []route.Operation
	for i := range closures + slowdowns {
		arc := uint32(rng.IntN(arcs))
		if i%2 == 0 && len(onRoutes) > 0 {
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

// Customized asks r for state() as a fleet of requests would, until r has
// customized its hierarchy under the state's overlay (route/customize.go:
// a set of options asked for often is), and returns it; it fails after
// 400 requests.
func Customized(tb testing.TB, r *route.Router, state func() *graph.State) *graph.State {
	tb.Helper()
	q := ch.NewQuery(r.Hierarchy())
	for asked := range 400 {
		st := state()
		if asked%8 == 0 {
			if err := r.AwaitCustomized(context.Background()); err != nil {
				tb.Fatal(err)
			}
		}
		if q.SetState(st); q.Customized() {
			return st
		}
	}
	tb.Fatal("not customized after 400 requests")
	return nil
}
