package route_test

import (
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/serving"
)

// TestPotentials checks the penalty search's potentials against the
// hierarchy's own queries: for random target points and random arcs, the
// potential is the query's cost from the arc's end to the target point
// plus the largest target seed cost (the shift that keeps it non-negative),
// and Unreached exactly where the query finds no path. On Andorra, and on a
// town with many time conditions, whose hierarchy keeps a core with cycles.
func TestPotentials(t *testing.T) {
	for name, rel := range map[string]*serving.Release{
		"andorra":    openAndorra(t),
		"timed town": compiletest.TimedTown{W: 12, H: 12, Random: 4, Seed: 5}.Open(t),
	} {
		for _, profile := range []string{"car", "pedestrian"} {
			r := rel.Routers[profile]
			g := r.Graph()
			rng := rand.New(rand.NewPCG(8, 9))
			q := r.Query()
			arcs := make([]uint32, 200)
			for range 20 {
				targets := route.Sources(g, nil, randomOnGraph(rng, g)) // seeds of the arcs a point lies on
				shift := uint32(0)
				for _, s := range targets {
					shift = max(shift, s.Cost)
				}
				for i := range arcs {
					arcs[i] = uint32(rng.IntN(int(g.NumArcs())))
				}
				pots := r.Potentials(targets, arcs)
				for i, a := range arcs {
					if a == targets[0].Node || a == targets[len(targets)-1].Node {
						continue // its potential is its seed's; the query cannot start past its target
					}
					res, ok := q.Shortest([]search.Seed{{Node: a}}, targets, nil)
					want := uint32(search.Unreached)
					if ok {
						want = res.Cost + shift
					}
					if pots[i] != want {
						t.Fatalf("%s %s: arc %d to %v: potential %d, query %d (ok %v) + %d", name, profile, a, targets, pots[i], res.Cost, ok, shift)
					}
				}
			}
			r.PutQuery(q)
		}
	}
}
