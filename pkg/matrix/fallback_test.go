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

// TestFallbackCellsEqualDirections: a point whose nearest car road lies on
// a piece no path from the main network reaches (drawn uniformly until one
// is found) is routed from and to its fallback, the nearest road of the
// main network, in a table as in directions; the other cells of its row
// and column, and of the table, are unaffected.
func TestFallbackCellsEqualDirections(t *testing.T) {
	rel := openAndorra(t)
	r := rel.Routers["car"]
	main := []route.Point{{1.5218, 42.5063}, {1.7333, 42.5425}, {1.5340, 42.5560}}
	stray, ok := strayPoint(r, main[0])
	if !ok {
		t.Fatal("no uniform point in 20,000 has its nearest car road on an unreachable piece")
	}
	src := append([]route.Point{stray}, main...)
	dst := append(append([]route.Point(nil), main...), stray)
	tab := matrix.Compute(r, ch.NewQuery(r.Hierarchy()), src, dst)
	if routed := cellsEqualDirections(t, r, tab, src, dst); routed != len(src)*len(dst) {
		t.Fatalf("%d of %d cells routed", routed, len(src)*len(dst))
	}
	for j := range main {
		if math.IsNaN(tab.Durations[0][j]) || math.IsNaN(tab.Durations[j+1][len(main)]) {
			t.Fatalf("the stray point %v has an unreached cell with main point %d", stray, j)
		}
	}
}

// strayPoint draws points uniformly over Andorra's box until one snaps onto
// a car road that from cannot reach but that has a fallback.
func strayPoint(r *route.Router, from route.Point) (route.Point, bool) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		to := route.Point{1.46 + rng.Float64()*0.28, 42.44 + rng.Float64()*0.19}
		placed, err := r.Place([]route.Point{from, to}, nil, nil)
		if err != nil || placed[1].Main || !placed[1].HasFallback {
			continue
		}
		direct := []snap.Snapped{{Result: placed[0].Result}, {Result: placed[1].Result}}
		if _, err := r.RouteThrough(context.Background(), direct, nil); err != nil {
			return to, true
		}
	}
	return route.Point{}, false
}
