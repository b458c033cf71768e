package matrix_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/matrix"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// TestBearingCellsEqualDirections: a table whose sources and targets carry
// bearings (tolerance 30, as issue 36 item 2 asked) gives in each cell the
// directions answer for the pair with the same two bearings, which leaves
// and reaches each point the way its bearing says (TestBearingsMetByTheRoute
// in pkg/route): the table meets bearings as the route does, placing each
// point inside the piece its bearing admits and leaving (or reaching) it
// in that direction only. Uniform points over Andorra, every vehicle
// profile.
func TestBearingCellsEqualDirections(t *testing.T) {
	rel := openAndorra(t)
	rng := rand.New(rand.NewPCG(36, 3))
	for _, profile := range []string{"car", "moto", "bicycle", "truck"} {
		r := rel.Routers[profile]
		q := ch.NewQuery(r.Hierarchy())
		const n = 6
		pts := make([]route.Point, 2*n)
		opts := make([]snap.Options, 2*n)
		for i := range pts {
			pts[i] = route.Point{1.46 + rng.Float64()*0.28, 42.44 + rng.Float64()*0.19}
			opts[i].Bearing = &snap.Bearing{Degrees: math.Floor(rng.Float64() * 360), Tolerance: 30}
		}
		src, dst := pts[:n], pts[n:]
		tab, err := matrix.ComputeWith(context.Background(), r, q, src, dst, opts[:n], opts[n:])
		if err != nil {
			t.Fatal(err)
		}
		routed := 0
		for i := range src {
			for j := range dst {
				req := route.Request{Points: []route.Point{src[i], dst[j]}, Snapping: []snap.Options{opts[i], opts[n+j]}}
				dirs, err := r.Directions(context.Background(), req)
				got := tab.Durations[i][j]
				if err != nil {
					if !math.IsNaN(got) {
						t.Fatalf("%s [%d][%d]: table %.3f s, directions: %v", profile, i, j, got, err)
					}
					continue
				}
				routed++
				if want := dirs.Routes[0].DurationS; math.IsNaN(got) || math.Abs(got-want) > 0.0005 {
					t.Fatalf("%s [%d][%d] bearings %v, %v: table %.3f s, directions %.3f s", profile, i, j,
						*opts[i].Bearing, *opts[n+j].Bearing, got, want)
				}
			}
		}
		if routed < n*n/2 {
			t.Fatalf("%s: only %d of %d cells routed", profile, routed, n*n)
		}
	}
}
