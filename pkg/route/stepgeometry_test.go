package route_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/route"
)

// TestStepGeometryRanges drives routes through three uniform random points
// over Andorra and checks each step's range in the route's geometry: the
// ranges follow each other from the first point to the last, a maneuver's
// point is its location, and the length of the geometry a step covers is
// the step's distance (within 1 m and 1 %: the geometry is what is drawn,
// the distance what the search measured).
func TestStepGeometryRanges(t *testing.T) {
	r := openAndorra(t).Routers["car"]
	rng := rand.New(rand.NewPCG(33, 4))
	routes := 150
	if testing.Short() {
		routes = 40
	}
	for done := 0; done < routes; {
		pts := []route.Point{uniformAndorra(rng), uniformAndorra(rng), uniformAndorra(rng)}
		d, err := r.Directions(context.Background(), route.Request{Points: pts, Steps: true})
		if err != nil {
			continue
		}
		done++
		rt := d.Routes[0]
		shape := rt.Shape()
		next := 0
		for i, leg := range rt.Steps {
			for j, s := range leg {
				if s.GeometryBegin != next || s.GeometryEnd < s.GeometryBegin || s.GeometryEnd >= len(shape) {
					t.Fatalf("%v leg %d step %d %q: range [%d, %d] after %d, geometry of %d points", pts, i, j, s.Instruction, s.GeometryBegin, s.GeometryEnd, next, len(shape))
				}
				if s.Maneuver != guidance.Depart && s.Maneuver != guidance.Arrive && shape[s.GeometryBegin] != s.Location {
					t.Fatalf("%v leg %d step %d %q: geometry point %v, location %v", pts, i, j, s.Instruction, shape[s.GeometryBegin], s.Location)
				}
				if l := length(shape[s.GeometryBegin : s.GeometryEnd+1]); math.Abs(l-s.DistanceM) > 1+0.01*s.DistanceM {
					t.Errorf("%v leg %d step %d %q: geometry %.1f m long, step %.1f m", pts, i, j, s.Instruction, l, s.DistanceM)
				}
				next = s.GeometryEnd
			}
		}
		if next != len(shape)-1 {
			t.Fatalf("%v: the last step ends at point %d of %d", pts, next, len(shape))
		}
	}
}

func uniformAndorra(rng *rand.Rand) route.Point {
	return route.Point{1.41 + rng.Float64()*(1.79-1.41), 42.43 + rng.Float64()*(42.66-42.43)}
}

func length(pts []route.Point) float64 {
	l := 0.0
	for i := 1; i < len(pts); i++ {
		l += geo.Distance(pts[i-1][0], pts[i-1][1], pts[i][0], pts[i][1])
	}
	return l
}
