package matrix_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/matrix"
	"github.com/mapsco/maps/pkg/route"
)

// TestClosureFallbackCellsEqualDirections: the ends of Liechtenstein's track
// closed from 15 March to 15 September lie on roads the closure cuts off on
// 1 June; directions move them to the main network of that time, and so does
// the table, whose cells equal directions (issue 36, item 4).
func TestClosureFallbackCellsEqualDirections(t *testing.T) {
	rel := compiletest.Extract(t, "liechtenstein.osm.pbf")
	r := rel.Routers["pedestrian"]
	june := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	pts := []route.Point{{9.5450974, 47.258769}, {9.5419244, 47.2642357}, {9.5210, 47.1410}}
	q := ch.NewQuery(r.Hierarchy())
	q.SetState(r.StateAt(june))
	tab := matrix.Compute(r, q, pts, pts)
	for i := range pts {
		for j := range pts {
			d, err := r.Directions(context.Background(), route.Request{Points: []route.Point{pts[i], pts[j]}, Departure: june})
			got := tab.Durations[i][j]
			switch {
			case err != nil && !math.IsNaN(got):
				t.Errorf("[%d][%d]: table %.3f s, directions %v", i, j, got, err)
			case err == nil && (math.IsNaN(got) || math.Abs(got-d.Routes[0].DurationS) > 0.0005):
				t.Errorf("[%d][%d]: table %.3f s, directions %.3f s", i, j, got, d.Routes[0].DurationS)
			}
		}
	}
}
