package matrix_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/matrix"
	"github.com/mapsco/maps/pkg/route"
)

// TestTableVehicle: for a 4.4 m truck, every cell of a random table (Grau
// Roig and Pas de la Casa among its points, either side of the Envalira
// tunnel's 4.30 m restrictors) equals the directions answer for the same
// vehicle (route's TestVehicleMatchesDijkstra proves those equal to
// Dijkstra), some cells changed, and the table says no road operation
// applied.
func TestTableVehicle(t *testing.T) {
	rel := openAndorra(t)
	n := 16
	if testing.Short() {
		n = 8
	}
	v := route.Vehicle{HeightM: 4.4}
	r := rel.Routers["truck"]
	rng := rand.New(rand.NewPCG(35, 3))
	src := append(randomPoints(rng, r, n-1), route.Point{1.686162, 42.552528})
	dst := append(randomPoints(rng, r, n-1), route.Point{1.733594, 42.543642})
	tab, err := matrix.ComputeWith(context.Background(), r, withState(r, r.StateFor(time.Time{}, 0, v)), src, dst, nil, nil)
	if err != nil || tab.OperationsApplied {
		t.Fatalf("%v, operations_applied %v with no operation in force", err, tab.OperationsApplied)
	}
	plain := matrix.Compute(r, withState(r, nil), src, dst)
	changed := 0
	for i := range src {
		for j := range dst {
			d, err := r.Directions(context.Background(), route.Request{Points: []route.Point{src[i], dst[j]}, Vehicle: v})
			got := tab.Durations[i][j]
			if err != nil {
				if !math.IsNaN(got) {
					t.Fatalf("[%d][%d]: table %.3f s, directions: %v", i, j, got, err)
				}
				continue
			}
			if want := d.Routes[0].DurationS; math.IsNaN(got) || math.Abs(got-want) > 0.0005 {
				t.Fatalf("[%d][%d]: table %.3f s, directions for a 4.4 m truck %.3f s", i, j, got, want)
			}
			if got != plain.Durations[i][j] {
				changed++
			}
		}
	}
	t.Logf("%d×%d for a 4.4 m truck equal directions; %d cells changed", n, n, changed)
	if changed == 0 {
		t.Error("no cell changed: the test proves nothing")
	}
}
