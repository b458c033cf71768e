package isochrone

import (
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/route"
)

// TestViaWayCrossover checks that contours honour a via-way restriction
// and count a duplicate arc as its road: on the Crossover fixture, from
// the northern carriageway, the crossover itself is inside the car's
// one-minute contour (reached only through its duplicate), while the
// southern carriageway just past the forbidden U-turn is not, as it is
// without the restriction.
func TestViaWayCrossover(t *testing.T) {
	fx := compiletest.Crossover{}
	for _, c := range []struct {
		fixture      compiletest.Crossover
		southInside  bool
		releaseLabel string
	}{{fx, false, "restricted"}, {compiletest.Crossover{Unrestricted: true}, true, "unrestricted"}} {
		rel := c.fixture.Open(t)
		r := rel.Routers["car"]
		origin, err := r.Snap([]route.Point{fx.North(14.5)})
		if err != nil {
			t.Fatal(err)
		}
		var e Engine
		ct := compute(t, &e, r.Graph(), origin[0], Budget{1, Minutes})[0]
		cross := fx.North(compiletest.CrossoverMid)
		cross[1] = (fx.North(0)[1] + fx.South(0)[1]) / 2
		south := fx.South(compiletest.CrossoverMid + 1.5)
		if !insideContour(ct, cross[0], cross[1]) {
			t.Errorf("%s: the crossover, 30 s away, is outside the 1 min contour", c.releaseLabel)
		}
		if got := insideContour(ct, south[0], south[1]); got != c.southInside {
			t.Errorf("%s: the southern carriageway past the U-turn inside the 1 min contour: %v, want %v", c.releaseLabel, got, c.southInside)
		}
	}
}
