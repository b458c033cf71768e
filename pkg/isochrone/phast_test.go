package isochrone

import (
	"maps"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
)

// TestPHASTMatchesSearch: for random origins and time budgets on Andorra,
// searchPHAST leaves exactly the labels and seed loops the bounded
// Dijkstra does, so either could feed the polygon steps. Andorra has no
// time conditions, so both weigh arcs alike.
func TestPHASTMatchesSearch(t *testing.T) {
	rel := openAndorra(t)
	n := 30
	if testing.Short() {
		n = 6
	}
	// Not car: its hierarchy's weights hold destination penalties
	// (graph.DestinationPenalty), which the isochrone's Dijkstra drops per
	// turn and PHAST, summing shortcuts, cannot; PHAST is not what Compute
	// uses. Bicycles and walkers have no destination-only ways.
	for _, profile := range []string{"bicycle", "pedestrian"} {
		r := rel.Routers[profile]
		g, h := r.Graph(), r.Hierarchy()
		if g.StateAt(time.Now()) != nil {
			t.Fatalf("Andorra's %s graph now has time conditions: compare PHAST with a Dijkstra that ignores them", profile)
		}
		p := ch.NewPHAST(h, ch.NewSweep(h))
		var dij, ph scratch
		for i, o := range origins(t, r, n, 11) {
			limit := uint32(60_000 * (1 + 7*i%60)) // 1 to 60 minutes
			dij.search(g, o, byTime, limit, g.StateAt(time.Now()))
			ph.searchPHAST(g, p, o, limit)
			want, got := labels(&dij), labels(&ph)
			if !maps.Equal(want, got) {
				t.Fatalf("%s from %.5f,%.5f within %d ms: PHAST labels %d arcs, Dijkstra %d, or their costs differ",
					profile, o.Lon, o.Lat, limit, len(got), len(want))
			}
			for k := range dij.seeds {
				if dij.seeds[k] != ph.seeds[k] {
					t.Fatalf("%s from %.5f,%.5f: seed %+v, Dijkstra %+v", profile, o.Lon, o.Lat, ph.seeds[k], dij.seeds[k])
				}
			}
		}
	}
}

func labels(sc *scratch) map[uint32]uint32 {
	m := make(map[uint32]uint32, sc.costs.Len())
	for i := range sc.costs.Len() {
		m[sc.costs.Node(i)] = *sc.costs.At(i)
	}
	return m
}
