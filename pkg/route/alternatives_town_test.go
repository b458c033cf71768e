package route_test

import (
	"context"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
)

// TestAlternativesOnGridTowns asks for three alternatives between every
// pair of corners of grid towns, by car and on foot, now and at rush hour.
// A grid's hierarchy holds cycles of equal-cost paths that Andorra's rarely
// does: the via search's depth-first order once indexed past its arrays on
// them (corner (0,2) to (3,0) of the 7×4 town) and took mapd down.
func TestAlternativesOnGridTowns(t *testing.T) {
	towns := map[string]compiletest.TimedTown{
		"demonstration": {W: 7, H: 4},
		"random":        {W: 9, H: 9, Random: 4, Seed: 11},
	}
	for name, town := range towns {
		rel := town.Open(t)
		for _, profile := range []string{"car", "pedestrian"} {
			r := rel.Routers[profile]
			for _, st := range []*graph.State{nil, r.StateAt(andorraTime(t, tuesday, 8))} {
				pairs := 0
				for from, to := range town.CornerPairs(testing.Short()) {
					best, err := r.Route(context.Background(), []route.Point{from, to}, st)
					if err != nil {
						continue // unroutable at this time: nothing to compare
					}
					for _, alt := range r.Alternatives(context.Background(), best, 3) {
						if alt.DurationS < best.DurationS {
							t.Fatalf("%s %s %v→%v: alternative %.1f s faster than the best %.1f s", name, profile, from, to, alt.DurationS, best.DurationS)
						}
					}
					pairs++
				}
				if pairs == 0 {
					t.Fatalf("%s %s: no routable pair", name, profile)
				}
			}
		}
	}
}
