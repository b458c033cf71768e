package matrix_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/matrix"
)

// BenchmarkDepartureTime is what departure_time costs a 100×100 car table
// (snapping included) on Munich's extract, whose car graph has a core of
// conditional arcs: "none" computes with no state, "departure" under the
// conditions at a time (graph.StateAt, cached for the minute).
//
//	go test -run X -bench DepartureTime -count 6 ./pkg/matrix
func BenchmarkDepartureTime(b *testing.B) {
	rel := compiletest.Extract(b, "cities/munchen.osm.pbf")
	r := rel.Routers["car"]
	rng := rand.New(rand.NewPCG(5, 6))
	src, dst := randomPoints(rng, r, 100), randomPoints(rng, r, 100)
	at := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	for _, mode := range []string{"none", "departure"} {
		b.Run(mode, func(b *testing.B) {
			q := ch.NewQuery(r.Hierarchy())
			for b.Loop() {
				if mode == "departure" {
					q.SetState(r.StateAt(at))
				} else {
					q.SetState(nil)
				}
				matrix.Compute(r, q, src, dst)
			}
		})
	}
}
