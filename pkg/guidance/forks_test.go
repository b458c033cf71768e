package guidance_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
)

// TestForksAreAlike drives car routes between uniform points over Andorra
// and Liechtenstein and checks that every "Keep left/right" is said where
// the branches look alike to a driver: at the fork's node another way on,
// comparable in class, leaves within 45 degrees of straight on and does
// not bend distinctly more than ours (more than twice as far from straight
// on and by more than 12.5 degrees, OSRM's rule for the obvious way on), or
// a lesser road goes on about as straight as ours (see comparableBranch).
// Where ours is by far the straightest, the road simply goes on. Angles
// are read from the steps' bearings and the graph's segments (whole
// degrees, so a degree of slack either way).
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

// alikeBranch reports whether a way other than the fork's own leaves node
// v within 45 degrees of straight on, is comparable in class with the
// fork's road and bends not distinctly more than it.
func alikeBranch(g *graph.Graph, v uint32, s guidance.Step) bool {
	ours := angleBetween(s.BearingBefore, s.BearingAfter)
	begin, end := g.Fwd.Out(v)
	for a := begin; a < end; a++ {
		seg, _ := g.ArcSegment(a)
		b := compassOf(g.Net.Heading(g.ArcSegRef(a), true))
		if angleBetween(b, s.BearingAfter) < 1 || angleBetween(b, s.BearingBefore) > 135 {
			continue // ours, or the way back
		}
		dev := angleBetween(b, s.BearingBefore)
		distinct := dev > 2*ours+2 && float64(dev-ours) > 12.5+1
		class := g.Net.Class(seg)
		if dev <= 46 && (!distinct && comparable(class, s.RoadClass) || aRoad(class) && float64(dev) <= 1.4*float64(ours)+1) {
			return true
		}
	}
	return false
}
