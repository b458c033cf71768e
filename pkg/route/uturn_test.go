package route_test

import (
	"context"
	"testing"

	"github.com/mapsco/maps/pkg/route"
)

// TestCarDrivesOnToTurn is a pair of docs/osrm-agreement.md: from the CG-2 in Encamp back to the Cortals road
// behind. With U-turns allowed anywhere (car.json before 2026.11-flat-3) the car turned back across the
// four-lane CG-2 at an ordinary junction (4.06 km); a driver goes on to the roundabout and comes back, as OSRM's
// car profile does (5.79 km): the car turns back only where nothing else is possible.
func TestCarDrivesOnToTurn(t *testing.T) {
	rel := openAndorra(t)
	from, to := route.Point{1.5918188, 42.5389658}, route.Point{1.5962133, 42.5339796}
	rt, err := rel.Routers["car"].Route(context.Background(), []route.Point{from, to}, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := rel.Routers["car"].Graph()
	for _, leg := range rt.Legs {
		for i := 1; i < len(leg.Arcs); i++ {
			s0, r0 := g.ArcSegment(leg.Arcs[i-1])
			s1, r1 := g.ArcSegment(leg.Arcs[i])
			if s0 == s1 && r0 != r1 {
				t.Errorf("the car turns back on segment %d (%s) at an ordinary junction", s0, rel.Network.Ref(s0))
			}
		}
	}
	t.Logf("car: %.0f m, %.0f s", rt.DistanceM, rt.DurationS)
	if rt.DistanceM < 5500 || rt.DistanceM > 6100 {
		t.Errorf("car route is %.0f m, want the roundabout's 5.8 km (OSRM: 5,790 m)", rt.DistanceM)
	}
}
