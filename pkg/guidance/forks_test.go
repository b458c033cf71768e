package guidance_test

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
)

// TestForksAreAlike drives car routes between uniform points over Andorra
// and Liechtenstein and checks that every "Keep left/right" is said where
// the branches look alike to a driver (see alikeBranch): where ours is by
// far the straightest, the road simply goes on. Angles are those a driver
// perceives, some metres along each road (Step.Turned and
// graph.Graph.PerceivedHeading).
func TestForksAreAlike(t *testing.T) {
	for _, ex := range []struct {
		name string
		rel  func(testing.TB) *serving.Release
	}{
		{"andorra", func(tb testing.TB) *serving.Release { return compiletest.OpenAndorra(tb) }},
		{"liechtenstein", func(tb testing.TB) *serving.Release { return compiletest.Extract(tb, "liechtenstein.osm.pbf") }},
	} {
		t.Run(ex.name, func(t *testing.T) {
			r := ex.rel(t).Routers["car"]
			nodes := nodeIndex(r.Graph().Net)
			rng := rand.New(rand.NewPCG(33, 7))
			box := bounds(r.Graph().Net)
			forks := 0
			for done := 0; done < 200; {
				pts := []route.Point{box.uniform(rng), box.uniform(rng)}
				d, err := r.Directions(context.Background(), route.Request{Points: pts, Steps: true})
				if err != nil {
					continue
				}
				done++
				leg := d.Routes[0].Steps[0]
				for i, s := range leg {
					if s.Maneuver != guidance.Fork {
						continue
					}
					forks++
					v, ok := nodes[fixed(s.Location)]
					if !ok {
						t.Errorf("%v: step %d, a fork away from any junction node", pts, i+1)
						continue
					}
					if !alikeBranch(r.Graph(), v, s) {
						t.Errorf("%v: step %d %q at %v: ours is by far the straightest way on, no fork:\n%s", pts, i+1, s.Instruction, s.Location, itinerary(leg))
					}
				}
			}
			t.Logf("%d forks, each between branches alike", forks)
			if forks == 0 {
				t.Fatal("no fork checked")
			}
		})
	}
}

// alikeBranch reports whether another way leaves node v about as straight
// on as the fork's own, as a driver perceives the directions (both within
// 40 degrees of straight on, or within 40 degrees of each other), and
// alike: neither bends over 1.4 times as far as the other and by over 25
// degrees more (OSRM's test of the obvious one of two), both ramps or
// neither, and not a driveway, track or path off a road.
func alikeBranch(g *graph.Graph, v uint32, s guidance.Step) bool {
	ours := math.Abs(s.Turned)
	for _, b := range branchesAt(g, v, s) {
		dev := math.Abs(b.angle)
		near := dev <= 40 && ours <= 40 || math.Abs(b.angle-s.Turned) <= 40
		much := func(x, y float64) bool { return x > 1.4*y && x-y > 25 }
		ramp := strings.HasSuffix(b.class, "_link") != strings.HasSuffix(s.RoadClass, "_link")
		if near && !much(dev, ours) && !much(ours, dev) && !ramp && (aRoad(b.class) || !aRoad(s.RoadClass) || strings.HasSuffix(b.class, "_link")) {
			return true
		}
	}
	return false
}
