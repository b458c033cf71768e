package isochrone

import (
	"math"
	"testing"

	"github.com/twpayne/go-geos"
)

// Every contour is a valid (OGC, as GEOS checks it) Polygon or
// MultiPolygon meeting RFC 7946 (closed rings, exterior counter-clockwise,
// holes clockwise, 6 decimals), and each contour lies inside the next
// larger one of the same unit.
func TestValidAndNested(t *testing.T) {
	rel := openAndorra(t)
	gc := geos.NewContext()
	var e Engine
	sets := map[string][][]Budget{
		"car":        {{{5, Minutes}, {15, Minutes}, {30, Minutes}, {60, Minutes}}, {{1, Kilometers}, {5, Kilometers}, {20, Kilometers}}},
		"bicycle":    {{{10, Minutes}, {20, Minutes}, {45, Minutes}}},
		"pedestrian": {{{1, Minutes}, {10, Minutes}, {30, Minutes}, {120, Minutes}}, {{0.5, Kilometers}, {2, Kilometers}}},
		"truck":      {{{15, Minutes}, {30, Minutes}}},
	}
	checked, rings := 0, 0
	for profile, list := range sets {
		r := rel.Routers[profile]
		for i, o := range origins(t, r, 15, uint64(len(profile))+7) {
			budgets := list[i%len(list)]
			cs := compute(t, &e, r.Graph(), o, budgets...)
			var prev *geos.Geom
			for k, c := range cs {
				rings += checkRFC7946(t, c)
				geom := toGEOS(gc, c)
				if !geom.IsValid() {
					t.Fatalf("%s from %.6f,%.6f %v: invalid: %s", profile, o.Lon, o.Lat, c.Budget, geom.IsValidReason())
				}
				if k > 0 && cs[k-1].Budget.Unit == c.Budget.Unit && !geom.Contains(prev) {
					t.Fatalf("%s from %.6f,%.6f: %v does not contain %v", profile, o.Lon, o.Lat, c.Budget, cs[k-1].Budget)
				}
				prev = geom
				checked++
			}
		}
	}
	if e.fallbacks() > 0 {
		t.Logf("%d contours fell back to unsimplified rings", e.fallbacks())
	}
	t.Logf("%d contours, %d rings valid and nested", checked, rings)
}

func checkRFC7946(t *testing.T, c Contour) int {
	t.Helper()
	if len(c.Polygons) == 0 {
		t.Fatalf("%v: no polygon", c.Budget)
	}
	n := 0
	for _, p := range c.Polygons {
		for k, r := range p {
			n++
			if len(r) < 4 || r[0] != r[len(r)-1] {
				t.Fatalf("%v: ring of %d points, closed %v", c.Budget, len(r), r[0] == r[len(r)-1])
			}
			if a := ringArea(r); (k == 0) != (a > 0) {
				t.Fatalf("%v: ring %d has signed area %g", c.Budget, k, a)
			}
			for _, q := range r {
				for _, v := range q {
					if math.Abs(v*1e6-math.Round(v*1e6)) > 1e-6 {
						t.Fatalf("%v: coordinate %v has more than 6 decimals", c.Budget, v)
					}
				}
			}
		}
	}
	return n
}

func ringArea(r Ring) float64 {
	s := 0.0
	for i := 1; i < len(r); i++ {
		s += r[i-1][0]*r[i][1] - r[i][0]*r[i-1][1]
	}
	return s / 2
}

func toGEOS(gc *geos.Context, c Contour) *geos.Geom {
	var polys []*geos.Geom
	for _, p := range c.Polygons {
		coords := make([][][]float64, len(p))
		for k, r := range p {
			for _, q := range r {
				coords[k] = append(coords[k], []float64{q[0], q[1]})
			}
		}
		polys = append(polys, gc.NewPolygon(coords))
	}
	if len(polys) == 1 {
		return polys[0]
	}
	return gc.NewCollection(geos.TypeIDMultiPolygon, polys)
}
