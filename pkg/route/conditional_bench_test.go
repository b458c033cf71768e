package route_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
	"github.com/mapsco/maps/pkg/snap"
)

// BenchmarkDepartureTime is what departure_time costs a car leg (snapped
// ends, CH search, unpacking): "none" searches with no state, "departure"
// evaluates the conditions at one time (graph.StateAt, cached for the
// minute, as for requests departing now) and searches under them, and
// "each-minute" departs a minute later every time, so every request
// evaluates the schedules afresh. On Munich, whose car graph has a core of the arcs its
// maxspeed:conditional ways make conditional; on Andorra, which has no
// conditional tags, so StateAt returns nil at once.
//
//	go test -run X -bench DepartureTime -count 6 ./pkg/route
func BenchmarkDepartureTime(b *testing.B) {
	for _, c := range []struct {
		name string
		open func(testing.TB) *serving.Release
	}{
		{"munchen", func(tb testing.TB) *serving.Release { return compiletest.Extract(tb, "cities/munchen.osm.pbf") }},
		{"andorra", func(tb testing.TB) *serving.Release { return compiletest.OpenAndorra(tb) }},
	} {
		rel := c.open(b)
		r := rel.Routers["car"]
		g := r.Graph()
		rng := rand.New(rand.NewPCG(1, 2))
		pairs := make([][2]snap.Result, 1024)
		for i := range pairs {
			pairs[i] = [2]snap.Result{randomBig(rng, g), randomBig(rng, g)}
		}
		at := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
		core := 0
		for a := range g.NumArcs() {
			if g.Marked(a) {
				core++
			}
		}
		b.Logf("%s car: %d arcs, %d in the core", c.name, g.NumArcs(), core)
		for _, mode := range []string{"none", "departure", "each-minute"} {
			b.Run(c.name+"/"+mode, func(b *testing.B) {
				q := r.Query()
				defer r.PutQuery(q)
				i := 0
				for b.Loop() {
					var st *graph.State
					switch mode {
					case "departure":
						st = r.StateAt(at)
					case "each-minute":
						st = r.StateAt(at.Add(time.Duration(i) * time.Minute))
					}
					q.SetState(st)
					p := pairs[i%len(pairs)]
					r.Leg(q, p[0], p[1])
					i++
				}
			})
		}
	}
}

// randomBig is a random point on a segment of g's largest component.
func randomBig(rng *rand.Rand, g *graph.Graph) snap.Result {
	for {
		if p := randomOnGraph(rng, g); g.Big[p.Seg] == 1 {
			return p
		}
	}
}

var _ = route.Sources // the package under test
